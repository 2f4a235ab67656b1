"""The forkserver every training worker is forked from: one per server process (multiprocessing's own singleton).

It is a fresh interpreter that imported torch and the trainers once (s2s_jobs/preload.py), so a worker starts in
milliseconds for a few MB of its own. It is started on demand and stopped when idle (s2s_jobs/process.py). Worker
starts and the stop share LOCK, and the count of workers started and not yet seen to end lives under it too: no
runner of this process stops the pool while another runner's worker runs.
"""

from __future__ import annotations

import os
import threading
from multiprocessing import forkserver
from pathlib import Path

LOCK = threading.Lock()
_workers = 0  # guarded by LOCK


def worker_started() -> None:
    """A worker process was started (the caller holds LOCK)."""
    global _workers
    _workers += 1


def worker_ended() -> None:
    """A worker process was seen to end (the caller holds LOCK)."""
    global _workers
    _workers -= 1


def workers() -> int:
    """Workers started and not yet seen to end (the caller holds LOCK)."""
    return _workers


def ensure_running() -> None:
    """Start the forkserver now if it is not up (it imports torch and warms up: a few seconds)."""
    with LOCK:
        forkserver.ensure_running()


def pool_running() -> bool:
    """Whether this process's forkserver is up (as far as multiprocessing knows: one that died on its own is found,
    and replaced, by the next worker start)."""
    return forkserver._forkserver._forkserver_pid is not None  # no public accessor


def pool_alive() -> bool | None:
    """None: no forkserver (stopped while idle; the next job starts it). True: it runs. False: multiprocessing still
    names one, but the process is gone or a zombie (killed, out of memory): /proc says so without reaping it."""
    pid = forkserver._forkserver._forkserver_pid
    if pid is None:
        return None
    try:
        state = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def stop_pool() -> bool:
    """Stop this process's forkserver (the caller holds LOCK, and no worker is running: each worker holds a copy of
    the forkserver's "alive" pipe, so the stop would wait for every one to end); True if one was running. The next
    worker start runs the forkserver again (ensure_running).

    multiprocessing has no public way to stop a forkserver: ForkServer._stop() is what its own tests use (closes
    the "alive" pipe, which makes the server exit, then reaps it)."""
    if forkserver._forkserver._forkserver_pid is None:
        return False
    forkserver._forkserver._stop()
    return True


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process, from /proc (Linux); None where that cannot be read."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None
