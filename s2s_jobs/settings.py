"""The training jobs' settings, read from the environment when the server's runner starts (README "Settings").

Every setting is explicit: nothing here depends on what else the process imported. A test that wants the
in-process backend says so (S2S_TRAIN_BACKEND=inprocess, set by its own fixture); a server, and every browser
test's server, runs the default: worker processes.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from s2s_db import settings as db_settings

BACKENDS = ("process", "inprocess")
DEFAULT_BACKEND = "process"  # what `streamlit run` serves: training in worker processes, never in the server
BACKEND_ENV = "S2S_TRAIN_BACKEND"  # process | inprocess (inprocess: one thread per job in this process)
WORKERS_ENV = "S2S_TRAIN_WORKERS"  # how many trainings may run at once (default: cores - 1, at least 1)
WARM_ENV = "S2S_TRAIN_WARM"  # 1 | 0: train the default settings when the server starts (default: process only)
GRACE_ENV = "S2S_TRAIN_GRACE"  # seconds a job nobody watches any more is kept before it is cancelled
POOL_IDLE_ENV = "S2S_POOL_IDLE"  # seconds without a queued or running job before the pool stops (0: never)
DATA_DIR_ENV = db_settings.DATA_DIR_ENV  # the app's data folder (s2s_db/settings.py): its database holds the models
LEASE_ENV = "S2S_TRAIN_LEASE"  # seconds a replica's claim on a training lasts unless renewed (s2s_jobs/store.py)
QUEUE_CAP_ENV = "S2S_TRAIN_QUEUE_CAP"  # trainings that may wait on this server; one more is refused with the wait
MAX_WORKERS = 8
GRACE_SECONDS = 15.0  # a reload or a brief network drop reconnects well within this
LEASE_SECONDS = 20.0  # renewed every lease/4 while training: a replica that died is taken over this long after
QUEUE_CAP = 40  # a class of thirty, each training settings of their own, still finds a place
POOL_IDLE_SECONDS = 120.0  # an idle forkserver holds ~260 MB (torch loaded); restarting it takes a few seconds
log = logging.getLogger(__name__)


def env_number(name: str, default: float, lo: float, hi: float) -> float:
    """$name as a number clipped to [lo, hi]; unset or unreadable (named in the log): the default."""
    raw = os.environ.get(name, "")
    try:
        value = float(raw) if raw.strip() else default
    except ValueError:
        log.warning("%s=%r is not a number; using %s", name, raw, default)
        value = default
    return min(hi, max(lo, value))


def default_workers() -> int:
    """cores - 1 (at least 1), or the number in $S2S_TRAIN_WORKERS (clipped to 1..MAX_WORKERS)."""
    return int(env_number(WORKERS_ENV, (os.cpu_count() or 2) - 1, 1, MAX_WORKERS))


def grace_seconds() -> float:
    return env_number(GRACE_ENV, GRACE_SECONDS, 0.0, 600.0)


def pool_idle_seconds() -> float:
    return env_number(POOL_IDLE_ENV, POOL_IDLE_SECONDS, 0.0, 7 * 86400.0)


def default_backend() -> str:
    """$S2S_TRAIN_BACKEND (process | inprocess); unset or unknown (named in the log): process."""
    raw = os.environ.get(BACKEND_ENV, "").strip().lower()
    if raw in BACKENDS:
        return raw
    if raw:
        log.warning("%s=%r is neither process nor inprocess; using %s", BACKEND_ENV, raw, DEFAULT_BACKEND)
    return DEFAULT_BACKEND


def warm_enabled(backend: str | None = None) -> bool:
    """$S2S_TRAIN_WARM if set, else on for the process backend (a real server), off in-process."""
    raw = os.environ.get(WARM_ENV, "").strip()
    if raw in ("0", "1"):
        return raw == "1"
    return (backend or default_backend()) == "process"


def data_dir() -> Path:
    """$S2S_DATA_DIR (a folder; made when first written), else data/ in the repository (the rule lives in
    s2s_db.settings, beside the database file that shares the folder)."""
    return db_settings.data_dir()


def train_lease() -> float:
    """$S2S_TRAIN_LEASE seconds (2 to 600; default 20): how long a dead replica's training stays claimed."""
    return env_number(LEASE_ENV, LEASE_SECONDS, 2.0, 600.0)


def queue_cap() -> int:
    """$S2S_TRAIN_QUEUE_CAP (1 to 1000; default 40): how many visitors' trainings may wait for a slot on this server.
    The next is refused with the time until a place frees (runner.QueueFull), not queued behind a wait nobody
    would sit out; the default models are never refused."""
    return int(env_number(QUEUE_CAP_ENV, QUEUE_CAP, 1, 1000))


def store_enabled(backend: str | None = None) -> bool:
    """Whether the runner keeps its default models in the store: always when $S2S_DATA_DIR is set, else (like
    warm_enabled) on for the process backend, a real server, and off in-process, so a test that trains in-process
    never reads or writes the repository's data folder unless it names one."""
    return bool(os.environ.get(DATA_DIR_ENV, "").strip()) or (backend or default_backend()) == "process"
