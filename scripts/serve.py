"""Start and stop a local `streamlit run` server: the one copy used by the benchmarks and the browser tests.

Only 127.0.0.1 is used. `serving()` is the usual entry point; `start`/`wait_healthy`/`stop` are there for a
caller that manages the process itself (a pytest session fixture, a benchmark that samples its memory).
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "server.py"  # the app with its own follow route (server.py); app.py is its script
FLAGS = ("--server.headless", "true", "--browser.gatherUsageStats", "false")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(
    port: int,
    script: Path = APP,
    *,
    launcher: Sequence[str] | None = None,
    cwd: Path = ROOT,
    env: dict[str, str] | None = None,
) -> subprocess.Popen:
    """`streamlit run script` on 127.0.0.1:port (launcher: another command that takes streamlit's flags)."""
    command = list(launcher) if launcher else [sys.executable, "-m", "streamlit", "run", str(script)]
    return subprocess.Popen(
        [*command, "--server.port", str(port), "--server.address", "127.0.0.1", *FLAGS],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def wait_healthy(proc: subprocess.Popen, port: int, timeout: float = 180, name: str = "streamlit") -> None:
    """Return once /_stcore/health answers "ok" on port; raise with the process's last words if it exits or hangs.
    name: what proc is, for the error (nginx in front of replicas passes the health check through to one)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            said = proc.stderr.read().decode()[-3000:] if proc.stderr else ""
            raise RuntimeError(f"{name} exited: {said}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                if r.status == 200 and r.read().strip() == b"ok":
                    return
        except OSError:
            time.sleep(0.2)
    stop(proc)
    raise RuntimeError(f"{name} did not become healthy on port {port} in {timeout:g} s")


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=15)


@contextmanager
def serving(script: Path = APP, **kwargs) -> Iterator[tuple[str, subprocess.Popen]]:
    """A healthy server for the duration of the block: (base URL, process)."""
    port = free_port()
    proc = start(port, script, **kwargs)
    try:
        wait_healthy(proc, port)
        yield f"http://127.0.0.1:{port}", proc
    finally:
        stop(proc)
