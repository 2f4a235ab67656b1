"""Shared training jobs behind one interface: submit(config) -> Job, snapshot(job) -> JobSnapshot, cancel(job).

One job per configuration: every session that asks for the same settings watches the same job, and a finished
result is served to everyone (the last CACHE_SIZE finished configurations are kept). This backend runs jobs in
the server's own process, one thread each, at most `max_running` at once and the rest queued in order. A
worker-process backend can stand behind the same interface: a snapshot is plain data apart from its finished
`result`, and a result travels as bytes (pack / unpack: the model's state_dict, the config and the history).
"""

from __future__ import annotations

import io
import logging
import os
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import astuple, dataclass
from itertools import count

import torch

from s2s_core.training.compute import LossCheck, TrainResult, train
from s2s_core.training.config import TrainConfig
from s2s_core.training.loop import EvalPoint, Progress, TrainingCancelled, TrainRun, new_model

QUEUED, RUNNING, DONE, FAILED, CANCELLED = "queued", "running", "done", "failed", "cancelled"
ENDED = frozenset({DONE, FAILED, CANCELLED})
FAILED_KEY = "training.failed"  # the catalog message a visitor sees when a run crashed
CACHE_SIZE = 24  # finished configurations kept (each holds one small model)
WORKERS_ENV = "S2S_TRAIN_WORKERS"  # how many trainings may run at once (default: cores - 1, at least 1)
MAX_WORKERS = 8

TrainFn = Callable[..., TrainResult]  # train(config, on_progress, stop) -> TrainResult
log = logging.getLogger(__name__)


def default_workers() -> int:
    """cores - 1 (at least 1), or the number in $S2S_TRAIN_WORKERS (clipped to 1..MAX_WORKERS)."""
    raw = os.environ.get(WORKERS_ENV, "")
    try:
        wanted = int(raw) if raw.strip() else (os.cpu_count() or 2) - 1
    except ValueError:
        log.warning("%s=%r is not a whole number; using the default", WORKERS_ENV, raw)
        wanted = (os.cpu_count() or 2) - 1
    return min(MAX_WORKERS, max(1, wanted))


@dataclass(frozen=True)
class JobSnapshot:
    """One moment of a job, for drawing. Everything but `result` is plain numbers and text."""

    job_id: int  # unique in this server process: names the job's model in caches
    state: str  # QUEUED, RUNNING, DONE, FAILED or CANCELLED
    step: int  # optimiser steps done so far
    total: int  # steps asked for (a run may stop earlier at its time limit)
    seconds: float  # training time so far (0 while queued)
    ahead: int  # jobs waiting before this one (0 unless queued)
    losses: tuple[tuple[int, float, float], ...]  # (step, training loss, teacher-forcing ratio), so far
    evals: tuple[EvalPoint, ...]  # held-out evaluations so far
    result: TrainResult | None  # when DONE
    error: str | None  # a catalog key when FAILED

    @property
    def ended(self) -> bool:
        return self.state in ENDED


class Job:
    """One training of one configuration. Read it through snapshot(job); its fields belong to the runner."""

    def __init__(self, job_id: int, config: TrainConfig, runner: Runner, trainer: TrainFn) -> None:
        self.id = job_id
        self.config = config
        self._runner = runner
        self._trainer = trainer
        self._lock = threading.Lock()  # guards the progress fields below (written by the training thread)
        self._state = QUEUED
        self._step = 0
        self._total = int(getattr(config, "steps", 0))
        self._seconds = 0.0
        self._losses: list[tuple[int, float, float]] = []
        self._evals: list[EvalPoint] = []
        self._result: TrainResult | None = None
        self._error: str | None = None
        self._stop = threading.Event()  # cancel(): the training loop checks it before every step
        self._ended = threading.Event()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the job has ended (done, failed or cancelled); False if the timeout came first."""
        return self._ended.wait(timeout)

    def __repr__(self) -> str:
        return f"Job({self.id}, {self._state}, step {self._step}/{self._total})"

    def _progress(self, p: Progress) -> None:
        with self._lock:
            self._step, self._total, self._seconds = p.step, p.total, p.seconds
            self._losses.append((p.step, p.loss, p.tf_ratio))
            if p.evaluation is not None:
                self._evals.append(p.evaluation)


class Runner:
    """The in-process backend: a thread per running job, at most max_running at once, the rest queued."""

    def __init__(self, train_fn: TrainFn = train, max_running: int | None = None,
                 cache_size: int = CACHE_SIZE) -> None:
        self._train = train_fn
        self.max_running = max_running or default_workers()
        self._cache_size = cache_size
        self._lock = threading.Lock()  # guards the registry below; taken before any job's own lock
        self._ids = count(1)
        self._live: dict[TrainConfig, Job] = {}  # queued or running, one per configuration
        self._queue: deque[Job] = deque()
        self._running: set[Job] = set()  # includes a cancelled job until its thread has stopped
        self._ended: OrderedDict[TrainConfig, Job] = OrderedDict()  # last ended job per configuration (LRU)

    # --- the interface ----------------------------------------------------------------------------

    def find(self, config: TrainConfig) -> Job | None:
        """The job a visitor with these settings should watch: the live one (also while a finished result is
        being trained again), else the last ended one; None if these settings were never trained (or long ago)."""
        with self._lock:
            job = self._live.get(config)
            if job is None and config in self._ended:
                self._ended.move_to_end(config)  # recently asked for: kept longest
                job = self._ended[config]
            return job

    def submit(self, config: TrainConfig, *, again: bool = False, trainer: TrainFn | None = None) -> Job:
        """The job for config: a live or finished one if there is one (identical settings share one job),
        else a new job, started at once or queued. again=True trains anew even if a result exists (a run
        that a time limit cut short); if the new run fails or is stopped, the old result stays. trainer: another
        trainer's train(config, on_progress, stop) (an importable function); the Training lab's by default."""
        with self._lock:
            live = self._live.get(config)
            if live is not None:
                return live
            ended = self._ended.get(config)
            if ended is not None and ended._state == DONE and not again:
                self._ended.move_to_end(config)
                return ended
            job = Job(next(self._ids), config, self, trainer or self._train)
            self._live[config] = job
            self._queue.append(job)
            self._pump()
            return job

    def snapshot(self, job: Job) -> JobSnapshot:
        with self._lock:
            ahead = next((i for i, queued in enumerate(self._queue) if queued is job), 0)
            with job._lock:
                return JobSnapshot(
                    job_id=job.id, state=job._state, step=job._step, total=job._total,
                    seconds=job._seconds, ahead=ahead, losses=tuple(job._losses), evals=tuple(job._evals),
                    result=job._result, error=job._error,
                )

    def cancel(self, job: Job) -> None:
        """Stop a job: a queued one leaves the queue now; a running one stops before its next step."""
        with self._lock:
            if job._state in ENDED or job._stop.is_set():
                return
            job._stop.set()
            if self._live.get(job.config) is job:
                del self._live[job.config]  # a visitor asking for these settings now gets a fresh job
            if job in self._queue:
                self._queue.remove(job)
                self._finish(job, CANCELLED)

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until no job is queued or running (tests, shutdown); False if the timeout came first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            with self._lock:
                pending = list(self._running) + list(self._queue)
            if not pending:
                return True
            left = None if deadline is None else deadline - time.monotonic()
            if (left is not None and left <= 0) or not pending[0].wait(left):
                return False

    # --- inside ------------------------------------------------------------------------------------

    def _pump(self) -> None:
        """Start queued jobs while there is a free slot (the caller holds self._lock)."""
        while self._queue and len(self._running) < self.max_running:
            job = self._queue.popleft()
            self._running.add(job)
            with job._lock:
                job._state = RUNNING
            threading.Thread(target=self._run, args=(job,), name=f"train-job-{job.id}", daemon=True).start()

    def _run(self, job: Job) -> None:
        """The training thread: train, then publish the outcome and free the slot."""
        state, result, error = FAILED, None, FAILED_KEY
        try:
            result = job._trainer(job.config, job._progress, job._stop.is_set)
            state, error = (CANCELLED, None) if job._stop.is_set() else (DONE, None)
        except TrainingCancelled:
            state, error = CANCELLED, None
        except Exception:  # any crash becomes a message for the visitor, not a dead slot
            log.exception("training job %s failed (%s)", job.id, job.config)
        finally:
            with self._lock:
                self._running.discard(job)
                if self._live.get(job.config) is job:
                    del self._live[job.config]
                self._finish(job, state, result if state == DONE else None, error)
                self._pump()

    def _finish(self, job: Job, state: str, result: TrainResult | None = None, error: str | None = None) -> None:
        """Record the outcome (the caller holds self._lock). A failed or cancelled run never hides a
        finished result of the same settings."""
        with job._lock:
            job._state, job._result, job._error = state, result, error
        previous = self._ended.get(job.config)
        if state == DONE or previous is None or previous._state != DONE:
            self._ended[job.config] = job
            self._ended.move_to_end(job.config)
            while len(self._ended) > self._cache_size:
                self._ended.popitem(last=False)
        job._ended.set()


# --- the process-wide runner and the interface the pages use --------------------------------------------

_RUNNER: Runner | None = None
_RUNNER_LOCK = threading.Lock()


def runner() -> Runner:
    """The server's one runner (created on first use)."""
    global _RUNNER
    with _RUNNER_LOCK:
        if _RUNNER is None:
            _RUNNER = Runner()
        return _RUNNER


def find(config: TrainConfig) -> Job | None:
    return runner().find(config)


def submit(config: TrainConfig, *, again: bool = False, trainer: TrainFn | None = None) -> Job:
    return runner().submit(config, again=again, trainer=trainer)


def snapshot(job: Job) -> JobSnapshot:
    return job._runner.snapshot(job)


def cancel(job: Job) -> None:
    job._runner.cancel(job)


# --- a result as bytes (what a worker process will send back) -------------------------------------------

def pack(result: TrainResult) -> bytes:
    """The model's state_dict, the config and the history, as plain tensors, numbers and text."""
    run = result.run
    payload = {
        "config": astuple(result.config), "state_dict": run.model.state_dict(), "losses": run.losses,
        "evals": tuple(astuple(e) for e in run.evals), "by_length": run.by_length, "steps_done": run.steps_done,
        "seconds": run.seconds, "stopped_by": run.stopped_by, "n_heldout": run.n_heldout, "n_params": run.n_params,
        "loss_check": astuple(result.loss_check),
    }
    buffer = io.BytesIO()
    torch.save(payload, buffer)
    return buffer.getvalue()


def unpack(data: bytes) -> TrainResult:
    """pack()'s bytes -> the same result: the model is rebuilt from the config and loaded with its weights."""
    payload = torch.load(io.BytesIO(data), weights_only=True)  # tensors and plain data only, never code
    config = TrainConfig(*payload["config"])
    model = new_model(config, torch.Generator())  # the initial weights are overwritten just below
    model.load_state_dict(payload["state_dict"])
    model.eval()
    evals = tuple(EvalPoint(*e) for e in payload["evals"])
    run = TrainRun(
        model=model, losses=tuple(map(tuple, payload["losses"])), evals=evals,
        by_length=tuple(map(tuple, payload["by_length"])), steps_done=payload["steps_done"],
        seconds=payload["seconds"], stopped_by=payload["stopped_by"], n_heldout=payload["n_heldout"],
        n_params=payload["n_params"],
    )
    return TrainResult(config=config, run=run, final=evals[-1], loss_check=LossCheck(*payload["loss_check"]))
