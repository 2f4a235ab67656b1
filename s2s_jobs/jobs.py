"""The server's training jobs behind one interface: submit(config) -> Job, snapshot(job) -> JobSnapshot, cancel(job),
and the default models: default_job(config) -> Job, default_result(config) -> the trained result or None.

One job per configuration: every session that asks for the same settings watches the same job, and a finished
result is served to everyone. At most `max_running` jobs train at once; the rest wait in order, and a snapshot says
a queued job's place and when it should start. Visitors who watch a job hold it (hold / release); a queued or
running job whose every holder has left is cancelled after a short grace, so a closed tab frees its place.

The server's one runner is made on first use, with the backend named by $S2S_TRAIN_BACKEND (s2s_jobs/settings.py):
`process` (the default, what a server runs: s2s_jobs/process.py) or `inprocess` (threads of this process:
s2s_jobs/runner.py; a test that wants it sets the variable in its own fixture).

The default models (WARM: every model a page shows before the visitor changes a setting) are the same on a busy
server as on a quiet one: trained to their step count (s2s_jobs/trainer.py DEFAULT: no wall-clock limit), kept in
the model store, the app's database (s2s_jobs/store.py, keyed by the full config and the code version), so a restart
loads them instead of training them again, and trained once for the whole deployment (one claim per configuration).
"""

from __future__ import annotations

import atexit
import threading
from collections.abc import Callable
from typing import Any

from s2s_core.training.compute import twin_config
from s2s_core.training.config import TrainConfig
from s2s_core.translation.lab import DEFAULT as TRANSLATION
from s2s_core.translation.lab import comparison_configs
from s2s_jobs.pool import pool_running
from s2s_jobs.process import ProcessRunner
from s2s_jobs.runner import QueueFull, Runner
from s2s_jobs.settings import default_backend, store_enabled, train_lease, warm_enabled
from s2s_jobs.snapshot import CANCELLED, DONE, FAILED, FAILED_KEY, QUEUED, RUNNING, Job, JobSnapshot
from s2s_jobs.store import ModelStore
from s2s_jobs.trainer import DEFAULT, Trainer

__all__ = [
    "CANCELLED",
    "DONE",
    "FAILED",
    "FAILED_KEY",
    "QUEUED",
    "RUNNING",
    "Job",
    "JobSnapshot",
    "QueueFull",
    "cancel",
    "default_job",
    "default_result",
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

# The default models, loaded from the store or trained when the server starts, so a class's first visitor finds
# them ready: the Training lab's default and its no-attention twin (the bottleneck tab), the Translation lab's default
# (also the Encoder-decoder page's trained model), its twin (the bottleneck by length), and the other two cells of
# its RNN vs LSTM vs GRU comparison (the GRU is the default itself). In this order: the first page's first.
WARM: tuple[tuple[Trainer, Any], ...] = (
    (DEFAULT, TrainConfig()),
    (DEFAULT, twin_config(TrainConfig())),
    (DEFAULT, TRANSLATION),
    (DEFAULT, twin_config(TRANSLATION)),
    *((DEFAULT, cell) for cell in comparison_configs(TRANSLATION) if cell != TRANSLATION),
)

_RUNNER: Runner | None = None
_RUNNER_LOCK = threading.Lock()


def runner() -> Runner:
    """The server's one runner (made on first use, with the backend $S2S_TRAIN_BACKEND names at that moment)."""
    global _RUNNER
    with _RUNNER_LOCK:
        if _RUNNER is None:
            backend = default_backend()
            store = ModelStore(lease=train_lease()) if store_enabled(backend) else None
            _RUNNER = ProcessRunner(store=store) if backend == "process" else Runner(store=store)
            for trainer, config in WARM:  # asked for by anyone, these are the default models (Runner.default)
                _RUNNER.register(config, trainer)
            atexit.register(_RUNNER.shutdown)  # no training left running while the interpreter exits
        return _RUNNER


def find(config: Any) -> Job | None:
    return runner().find(config)


def submit(config: Any, *, again: bool = False, trainer: Trainer | Callable[..., Any] | None = None) -> Job:
    """The job for config (Runner.submit); raises QueueFull, with the wait, when this server's queue is full."""
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


def default_job(config: Any) -> Job:
    """The job of a default model (one of WARM's configs; anything else raises KeyError), at once: DONE if this
    server has it or the store holds it (loaded now, in milliseconds), else queued or training (to its step count;
    then written to the store). Everyone who asks gets the same job; read it with snapshot(job)."""
    return runner().default(config)


def default_result(config: Any, timeout: float = 0.0) -> Any | None:
    """A default model's trained result (a TrainResult), waiting up to `timeout` seconds for its training; None if
    it is not done by then (it goes on training: ask again, or watch default_job(config))."""
    job = default_job(config)
    job.wait(timeout)
    snap = snapshot(job)
    return snap.result if snap.state == DONE else None


def warm_defaults() -> list[Job]:
    """Once per server process (app.py): start the pool, then load every default model from the store, or train it
    in the background, so a class's first visitor finds them ready. They are pinned: never evicted, never
    cancelled for want of watchers. Returns the jobs (none when warming is off: then a default is loaded or
    trained when first asked for)."""
    pool = runner()
    if isinstance(pool, ProcessRunner):
        pool.start_pool()  # even without warm models: the first Train should not wait for torch's import
    if not warm_enabled(pool.backend):
        return []
    return [pool.default(config, trainer) for trainer, config in WARM]
