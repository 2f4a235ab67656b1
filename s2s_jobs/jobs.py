"""The server's training jobs behind one interface: submit(config) -> Job, snapshot(job) -> JobSnapshot, cancel(job).

One job per configuration: every session that asks for the same settings watches the same job, and a finished
result is served to everyone. At most `max_running` jobs train at once; the rest wait in order, and a snapshot says
a queued job's place and when it should start. Visitors who watch a job hold it (hold / release); a queued or
running job whose every holder has left is cancelled after a short grace, so a closed tab frees its place.

The server's one runner is made on first use, with the backend named by $S2S_TRAIN_BACKEND (s2s_jobs/settings.py):
`process` (the default, what a server runs: s2s_jobs/process.py) or `inprocess` (threads of this process:
s2s_jobs/runner.py; a test that wants it sets the variable in its own fixture).
"""

from __future__ import annotations

import atexit
import threading
from collections.abc import Callable
from typing import Any

from s2s_core.training.compute import twin_config
from s2s_core.training.config import TrainConfig
from s2s_core.translation.lab import DEFAULT as TRANSLATION
from s2s_jobs.pool import pool_running
from s2s_jobs.process import ProcessRunner
from s2s_jobs.runner import Runner
from s2s_jobs.settings import default_backend, warm_enabled
from s2s_jobs.snapshot import CANCELLED, DONE, FAILED, FAILED_KEY, QUEUED, RUNNING, Job, JobSnapshot
from s2s_jobs.trainer import LAB, Trainer

__all__ = [
    "CANCELLED",
    "DONE",
    "FAILED",
    "FAILED_KEY",
    "QUEUED",
    "RUNNING",
    "Job",
    "JobSnapshot",
    "cancel",
    "find",
    "hold",
    "pool_running",
    "release",
    "runner",
    "snapshot",
    "submit",
    "wake",
    "warm_defaults",
]

# Trained when the server starts, so a class's first visitor finds them ready: each trainer's default settings.
# The Translation lab's default (and its no-attention twin, for the bottleneck by length) run on the same trainer.
WARM: tuple[tuple[Trainer, Any], ...] = (
    (LAB, TrainConfig()),
    (LAB, twin_config(TrainConfig())),
    (LAB, TRANSLATION),
    (LAB, twin_config(TRANSLATION)),
)

_RUNNER: Runner | None = None
_RUNNER_LOCK = threading.Lock()


def runner() -> Runner:
    """The server's one runner (made on first use, with the backend $S2S_TRAIN_BACKEND names at that moment)."""
    global _RUNNER
    with _RUNNER_LOCK:
        if _RUNNER is None:
            _RUNNER = ProcessRunner() if default_backend() == "process" else Runner()
            atexit.register(_RUNNER.shutdown)  # no training left running while the interpreter exits
        return _RUNNER


def find(config: Any) -> Job | None:
    return runner().find(config)


def submit(config: Any, *, again: bool = False, trainer: Trainer | Callable[..., Any] | None = None) -> Job:
    return runner().submit(config, again=again, trainer=trainer)


def snapshot(job: Job) -> JobSnapshot:
    return job._runner.snapshot(job)


def cancel(job: Job) -> None:
    job._runner.cancel(job)


def hold(job: Job, who: str) -> None:
    job._runner.hold(job, who)


def release(who: str) -> None:
    runner().release(who)


def wake() -> None:
    """A page shows a Train button: start the training pool now if it was stopped for being idle."""
    runner().wake()


def warm_defaults() -> list[Job]:
    """Once per server process (app.py): start the pool and train every trainer's default settings in the
    background, so a class's first visitor finds them ready. They are pinned: never evicted, never cancelled for
    want of watchers. Returns the jobs (none when warming is off)."""
    pool = runner()
    if isinstance(pool, ProcessRunner):
        pool.start_pool()  # even without warm models: the first Train should not wait for torch's import
    if not warm_enabled(pool.backend):
        return []
    return [pool.submit(config, trainer=trainer, pin=True) for trainer, config in WARM]
