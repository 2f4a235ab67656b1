"""Start the replicas topology on one machine, for trying it: N `streamlit run server.py` replicas behind nginx
(Debian's package, `apt-get install nginx`) with session affinity and websocket proxying (deploy/nginx.conf).

Usage: .venv/bin/python scripts/replicas.py [--replicas 2] [--port 8500]
`make run-replicas N=2` calls it. The app is then at http://127.0.0.1:<port>/; replica k listens on port + k.
Ctrl-C stops nginx and every replica.

The replicas share what makes them one deployment: the class database (S2S_DATABASE_URL, a PostgreSQL URL for
replicas on several machines; unset, the SQLite file in the data folder, which every replica on this machine opens)
and the data folder. Each replica has its own training pool (S2S_TRAIN_WORKERS each).

    topology(n, port, env, replica_ports) -> Topology  # started and healthy; a context manager that stops it
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.serve import start, stop, wait_healthy  # noqa: E402

TEMPLATE = ROOT / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
MAX_REPLICAS = 16  # replica k listens on port + k: more than this on one machine is not a trial any more


def nginx_missing_reason() -> str | None:
    return None if Path(NGINX).exists() else f"nginx not found at {NGINX} (apt-get install nginx)"


def nginx_config(listen_port: int, replica_ports: list[int], run_dir: Path) -> str:
    """deploy/nginx.conf with this topology's addresses and its own run folder (pid, logs, temp files)."""
    upstreams = "\n".join(f"        server 127.0.0.1:{port} max_fails=1 fail_timeout=5s;" for port in replica_ports)
    user = "user root;" if os.geteuid() == 0 else ""  # as root, nginx's workers would drop to nobody: keep one user
    return (
        TEMPLATE.read_text()
        .replace("@USER@", user)
        .replace("@RUN@", str(run_dir))
        .replace("@UPSTREAMS@", upstreams)
        .replace("@LISTEN@", f"127.0.0.1:{listen_port}")
    )


@dataclass
class Topology:
    """N replicas and nginx in front of them; `url` is what a visitor opens."""

    port: int
    replica_ports: list[int]
    replicas: list[subprocess.Popen]
    nginx: subprocess.Popen
    run_dir: Path
    env: dict[str, str] = field(repr=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def replica_url(self, k: int) -> str:
        return f"http://127.0.0.1:{self.replica_ports[k]}"

    def stop(self) -> None:
        if self.nginx.poll() is None:
            self.nginx.send_signal(signal.SIGQUIT)  # graceful: lets open websockets close
            try:
                self.nginx.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.nginx.kill()
        for proc in self.replicas:
            stop(proc)
        shutil.rmtree(self.run_dir, ignore_errors=True)

    def __enter__(self) -> Topology:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def topology(n: int, port: int, env: dict[str, str] | None = None, replica_ports: list[int] | None = None) -> Topology:
    """Start n replicas (on replica_ports, else port + 1 .. port + n), each healthy, and nginx on port in front."""
    env = dict(os.environ if env is None else env)
    replica_ports = replica_ports or [port + k for k in range(1, n + 1)]
    if len(replica_ports) != n:
        raise ValueError(f"{n} replicas need {n} ports, not {replica_ports}")
    replicas = [start(p, env=env) for p in replica_ports]
    run_dir = Path(tempfile.mkdtemp(prefix="s2s-nginx-"))
    try:
        for proc, p in zip(replicas, replica_ports, strict=True):
            wait_healthy(proc, p)
        conf = run_dir / "nginx.conf"
        conf.write_text(nginx_config(port, replica_ports, run_dir))
        nginx = subprocess.Popen(
            [NGINX, "-c", str(conf), "-p", str(run_dir), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        wait_healthy(nginx, port, timeout=30, name="nginx")
    except BaseException:
        for proc in replicas:
            stop(proc)
        shutil.rmtree(run_dir, ignore_errors=True)
        raise
    return Topology(port, replica_ports, replicas, nginx, run_dir, env)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, default=2, help="how many `streamlit run server.py` replicas")
    parser.add_argument("--port", type=int, default=8500, help="nginx's port; replica k listens on port + k")
    args = parser.parse_args(argv)
    if not 1 <= args.replicas <= MAX_REPLICAS:
        parser.error(f"--replicas must be between 1 and {MAX_REPLICAS}, not {args.replicas}")
    if (reason := nginx_missing_reason()) is not None:
        sys.exit(reason)
    with topology(args.replicas, args.port) as top:
        ports = ", ".join(map(str, top.replica_ports))
        print(f"The app: {top.url}/  ({args.replicas} replicas on ports {ports}, nginx on {args.port}). Ctrl-C stops.")
        try:
            while top.nginx.poll() is None and all(p.poll() is None for p in top.replicas):
                time.sleep(1)
        except KeyboardInterrupt:
            pass
        print("Stopping nginx and the replicas.")


if __name__ == "__main__":
    main(sys.argv[1:])
