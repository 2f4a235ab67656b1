"""One job of the queue and the snapshot a page draws from: the states, the error keys, Job, JobSnapshot."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from s2s_core.training.loop import EvalPoint, Progress

if TYPE_CHECKING:  # the runner owns its jobs; a job only points back at it
    from s2s_jobs.runner import Runner
    from s2s_jobs.trainer import Trainer

QUEUED, RUNNING, DONE, FAILED, CANCELLED = "queued", "running", "done", "failed", "cancelled"
ENDED = frozenset({DONE, FAILED, CANCELLED})
FAILED_KEY = "training.failed"  # the trainer raised: a fault in the app, not in the settings
CRASHED_KEY = "training.crashed"  # the worker process died without a result (killed, out of memory)
OVER_CAP_KEY = "training.over_cap"  # the worker ran past its hard time cap and was stopped


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
    result: Any  # the trainer's result when DONE (a TrainResult for the Training lab), else None
    error: str | None  # a catalog key when FAILED
    starts_in: float | None = None  # queued: estimated seconds until a trainer is free for it
    ends_in: float | None = None  # queued or running: estimated seconds until it is done
    slots: int = 1  # how many trainings this server runs at once
    watchers: int = 0  # sessions watching it now
    warm: bool = False  # one of the server's default models (trained to its step count: never cut by the clock)
    stored: bool = False  # a model from the model store (trained before, or by another replica), not by this process
    remote: bool = False  # another replica of the deployment trains it now; this server shows its progress
    stopped_by: str | None = None  # when DONE: "steps" (the whole run) or "time" (a visitor's run cut by its limit)
    checkpoint: Any = None  # the latest checkpoint map the trainer reported (a MapPoint, plain numbers), or None

    @property
    def ended(self) -> bool:
        return self.state in ENDED


class Job:
    """One training of one configuration. Read it through snapshot(job); its fields belong to the runner."""

    def __init__(self, job_id: int, config: Any, runner: Runner, trainer: Trainer, pinned: bool = False) -> None:
        self.id = job_id
        self.config = config
        self._runner = runner
        self._trainer = trainer
        self._pinned = pinned  # a warm default: never cancelled for want of watchers, never evicted
        self._key: str | None = None  # its row in the model store (s2s_jobs/store.py), when there is a store
        self._claimed = False  # this server holds the row's claim: it trains it, renews the lease, keeps the model
        self._remote = False  # another replica trains it: this job mirrors the row (s2s_jobs/keeper.py)
        self._renewed = 0.0  # monotonic time of the last lease renewal (keeper.py)
        self._stored = False  # its model came from the store (finished before, or by another replica): not trained here
        self._lock = threading.Lock()  # guards the progress fields below (written by the training thread)
        self._state = QUEUED
        self._step = 0
        self._total = int(getattr(config, "steps", 0))
        self._seconds = 0.0
        self._losses: list[tuple[int, float, float]] = []
        self._evals: list[Any] = []
        self._checkpoint: Any = None  # the latest checkpoint map reported (CheckpointProgress.checkpoint)
        self._result: Any = None
        self._error: str | None = None
        self._started = 0.0  # monotonic time its slot was given (0 while queued)
        self._holders: dict[str, float] = {}  # session id -> last seen (guarded by the runner's lock)
        self._process: Any = None  # ProcessRunner: the worker process while it runs
        self._stop = threading.Event()  # cancel(): the in-process loop checks it before every step
        self._ended = threading.Event()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the job has ended (done, failed or cancelled); False if the timeout came first."""
        return self._ended.wait(timeout)

    @property
    def pid(self) -> int | None:
        """The worker process's id while a process trains this job (None in-process, queued or ended)."""
        proc = self._process
        return proc.pid if proc is not None and self._state == RUNNING else None

    def __repr__(self) -> str:
        return f"Job({self.id}, {self._state}, step {self._step}/{self._total})"

    def _restore(self, result: Any) -> None:
        """This job is a finished result from the model store: DONE, with the history the result holds."""
        run = getattr(result, "run", None)
        with self._lock:
            self._state, self._result, self._stored = DONE, result, True
            if run is not None:
                self._step, self._seconds = run.steps_done, run.seconds
                self._losses, self._evals = list(run.losses), list(run.evals)
        self._ended.set()

    def _progress(self, p: Progress) -> None:
        with self._lock:
            self._step, self._total, self._seconds = p.step, p.total, p.seconds
            self._losses.append((p.step, p.loss, p.tf_ratio))
            if p.evaluation is not None:
                self._evals.append(p.evaluation)
            self._checkpoint = getattr(p, "checkpoint", None) or self._checkpoint

    def _mirror(self, state: str, step: int, total: int, seconds: float, losses: list, evals: list, checkpoint: Any):
        """Another replica's progress on this job, as its row in the model store says (keeper.py)."""
        with self._lock:
            self._state, self._step, self._total, self._seconds = state, step, total, seconds
            self._losses, self._evals = losses, evals
            self._checkpoint = checkpoint or self._checkpoint

    def _progress_batch(
        self, step: int, total: int, seconds: float, losses: tuple, evals: tuple, checkpoint: Any = None
    ) -> None:
        with self._lock:
            self._step, self._total, self._seconds = step, total, seconds
            self._losses.extend(losses)
            self._evals.extend(evals)
            self._checkpoint = checkpoint or self._checkpoint
