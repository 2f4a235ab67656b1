"""Shared training jobs behind one interface: submit(config) -> Job, snapshot(job) -> JobSnapshot, cancel(job).

One job per configuration: every session that asks for the same settings watches the same job, and a finished
result is served to everyone (the last CACHE_SIZE finished configurations are kept, the warm defaults always).
At most `max_running` jobs train at once; the rest wait in order, and a snapshot says a queued job's place and
when it should start (from the measured pace of recent jobs). Two backends stand behind the interface:

- ProcessRunner (the real server): one worker PROCESS per job (s2s_core/training/worker.py), started from a
  forkserver that imported torch and the trainers once, so a worker starts in milliseconds for a few MB of its
  own. Training never holds the server's interpreter: progress arrives over a pipe as plain data, the model as
  state_dict bytes (Trainer.pack / unpack). Cancel terminates the process; a process past its hard time cap is
  killed; a process that dies gives the visitor a clear message and frees its slot.
- Runner (in-process: AppTest, unit tests): one thread per job in this process, stopped through the trainer's
  stop() check. Same settings, same model as the process backend (tests/core/test_jobs.py compares them).

The backend is chosen by $S2S_TRAIN_BACKEND (process | inprocess); unset, it is `inprocess` under pytest (AppTest
and tests/core run the app inside pytest) and `process` everywhere else (`streamlit run`, the browser tests'
servers). Visitors who watch a job hold it (hold / release); a queued or running job whose every holder has left
is cancelled after a short grace, so a closed tab frees its place. The process backend stops its forkserver after
$S2S_POOL_IDLE seconds with nothing queued or running (an idle server then holds no second copy of torch) and
starts it again for the next job, or as soon as a visitor's page shows a Train button (wake()).
"""

from __future__ import annotations

import heapq
import io
import logging
import os
import statistics
import sys
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import astuple, dataclass
from itertools import count
from typing import Any

import torch

from s2s_core.training.compute import MAX_SECONDS, LossCheck, TrainResult, train, twin_config
from s2s_core.training.config import TrainConfig
from s2s_core.training.loop import EvalPoint, Progress, TrainingCancelled, TrainRun, new_model
from s2s_core.training.trace import Trace
from s2s_core.translation.lab import DEFAULT as TRANSLATION

QUEUED, RUNNING, DONE, FAILED, CANCELLED = "queued", "running", "done", "failed", "cancelled"
ENDED = frozenset({DONE, FAILED, CANCELLED})
FAILED_KEY = "training.failed"  # the trainer raised: a fault in the app, not in the settings
CRASHED_KEY = "training.crashed"  # the worker process died without a result (killed, out of memory)
OVER_CAP_KEY = "training.over_cap"  # the worker ran past its hard time cap and was stopped
CACHE_SIZE = 24  # finished configurations kept (each holds one small model)
WORKERS_ENV = "S2S_TRAIN_WORKERS"  # how many trainings may run at once (default: cores - 1, at least 1)
BACKEND_ENV = "S2S_TRAIN_BACKEND"  # process | inprocess (default: inprocess under pytest, else process)
WARM_ENV = "S2S_TRAIN_WARM"  # 1 | 0: train the default settings when the server starts (default: process only)
GRACE_ENV = "S2S_TRAIN_GRACE"  # seconds a job nobody watches any more is kept before it is cancelled
POOL_IDLE_ENV = "S2S_POOL_IDLE"  # seconds without a queued or running job before the pool stops (0: never)
MAX_WORKERS = 8
GRACE_SECONDS = 15.0  # a reload or a brief network drop reconnects well within this
POOL_IDLE_SECONDS = 120.0  # an idle forkserver holds ~260 MB (torch loaded); restarting it takes a few seconds
CAP_MARGIN = 20.0  # hard cap = the run's own time limit + this, in CPU seconds of the worker (start-up, final check)
WALL_FACTOR = 5.0  # ...and a wall-clock backstop at this many times the cap (a worker starved by a busy machine
#                    is slow, not runaway: its own wall-clock limit ends the training; this only catches a hang)
DEFAULT_PACE = 0.03  # seconds per step before any job has been measured (the default run: 160 steps in ~4 s)
PACE_SAMPLES = 8  # recent finished jobs whose pace makes the estimate
log = logging.getLogger(__name__)


def _env_number(name: str, default: float, lo: float, hi: float) -> float:
    raw = os.environ.get(name, "")
    try:
        value = float(raw) if raw.strip() else default
    except ValueError:
        log.warning("%s=%r is not a number; using %s", name, raw, default)
        value = default
    return min(hi, max(lo, value))


def default_workers() -> int:
    """cores - 1 (at least 1), or the number in $S2S_TRAIN_WORKERS (clipped to 1..MAX_WORKERS)."""
    return int(_env_number(WORKERS_ENV, (os.cpu_count() or 2) - 1, 1, MAX_WORKERS))


def default_backend() -> str:
    """$S2S_TRAIN_BACKEND, else inprocess under pytest (AppTest, unit tests), else process (a real server)."""
    raw = os.environ.get(BACKEND_ENV, "").strip().lower()
    if raw in ("process", "inprocess"):
        return raw
    if raw:
        log.warning("%s=%r is neither process nor inprocess; using the default", BACKEND_ENV, raw)
    return "inprocess" if "pytest" in sys.modules else "process"


# --- a trainer: how to train, and how its result travels as bytes -----------------------------------------


@dataclass(frozen=True)
class Trainer:
    """A kind of model the jobs can train. Every field is an importable function (a worker process receives
    them by name): train(config, on_progress, stop) -> result, pack(result) -> bytes, unpack(bytes) -> result."""

    name: str
    train: Callable[..., Any]
    pack: Callable[[Any], bytes]
    unpack: Callable[[bytes], Any]


def pack(result: TrainResult) -> bytes:
    """The model's state_dict, the config and the history, as plain tensors, numbers and text."""
    run = result.run
    payload = {
        "config": astuple(result.config),
        "state_dict": run.model.state_dict(),
        "losses": run.losses,
        "evals": tuple(astuple(e) for e in run.evals),
        "by_length": run.by_length,
        "steps_done": run.steps_done,
        "seconds": run.seconds,
        "stopped_by": run.stopped_by,
        "n_heldout": run.n_heldout,
        "n_params": run.n_params,
        "loss_check": astuple(result.loss_check),
        "trace": result.trace.to_plain() if result.trace is not None else None,  # the replay travels with the model
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
        model=model,
        losses=tuple(map(tuple, payload["losses"])),
        evals=evals,
        by_length=tuple(map(tuple, payload["by_length"])),
        steps_done=payload["steps_done"],
        seconds=payload["seconds"],
        stopped_by=payload["stopped_by"],
        n_heldout=payload["n_heldout"],
        n_params=payload["n_params"],
    )
    return TrainResult(
        config=config,
        run=run,
        final=evals[-1],
        loss_check=LossCheck(*payload["loss_check"]),
        trace=Trace.from_plain(payload.get("trace")),
    )


LAB = Trainer("training", train, pack, unpack)  # the Training lab (and its comparison model)
# Trained when the server starts, so a class's first visitor finds them ready: each trainer's default settings.
# The Translation lab's default (and its no-attention twin, for the bottleneck by length) run on the same trainer.
WARM: tuple[tuple[Trainer, Any], ...] = (
    (LAB, TrainConfig()),
    (LAB, twin_config(TrainConfig())),
    (LAB, TRANSLATION),
    (LAB, twin_config(TRANSLATION)),
)


def as_trainer(trainer: Trainer | Callable[..., Any] | None) -> Trainer:
    """A Trainer, or a bare train function (its results travel with the Training lab's pack / unpack)."""
    if trainer is None:
        return LAB
    if isinstance(trainer, Trainer):
        return trainer
    return Trainer(getattr(trainer, "__name__", "trainer"), trainer, pack, unpack)


# --- jobs and their snapshots ---------------------------------------------------------------------------


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
    warm: bool = False  # one of the server's default models, trained when it started

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
        self._lock = threading.Lock()  # guards the progress fields below (written by the training thread)
        self._state = QUEUED
        self._step = 0
        self._total = int(getattr(config, "steps", 0))
        self._seconds = 0.0
        self._losses: list[tuple[int, float, float]] = []
        self._evals: list[Any] = []
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

    def _progress(self, p: Progress) -> None:
        with self._lock:
            self._step, self._total, self._seconds = p.step, p.total, p.seconds
            self._losses.append((p.step, p.loss, p.tf_ratio))
            if p.evaluation is not None:
                self._evals.append(p.evaluation)

    def _progress_batch(self, step: int, total: int, seconds: float, losses: tuple, evals: tuple) -> None:
        with self._lock:
            self._step, self._total, self._seconds = step, total, seconds
            self._losses.extend(losses)
            self._evals.extend(evals)


class Runner:
    """The in-process backend: a thread per running job, at most max_running at once, the rest queued."""

    backend = "inprocess"

    def __init__(
        self,
        train_fn: Trainer | Callable[..., Any] | None = None,
        max_running: int | None = None,
        cache_size: int = CACHE_SIZE,
        grace: float | None = None,
    ) -> None:
        self._trainer = as_trainer(train_fn)
        self.max_running = max_running or default_workers()
        self.grace = _env_number(GRACE_ENV, GRACE_SECONDS, 0.0, 600.0) if grace is None else grace
        self._cache_size = cache_size
        self._lock = threading.Lock()  # guards the registry below; taken before any job's own lock
        self._ids = count(1)
        self._live: dict[Any, Job] = {}  # queued or running, one per configuration
        self._queue: deque[Job] = deque()
        self._running: set[Job] = set()  # includes a cancelled job until its thread has stopped
        self._ended: OrderedDict[Any, Job] = OrderedDict()  # last ended job per configuration (LRU)
        self._pace: dict[str, deque[float]] = {}  # trainer name -> seconds per step of recent finished jobs
        self._launches = 0  # jobs started so far (and pool wake-ups): an idle timer set before a newer one is stale

    # --- the interface ----------------------------------------------------------------------------

    def find(self, config: Any) -> Job | None:
        """The job a visitor with these settings should watch: the live one (also while a finished result is
        being trained again), else the last ended one; None if these settings were never trained (or long ago)."""
        with self._lock:
            job = self._live.get(config)
            if job is None and config in self._ended:
                self._ended.move_to_end(config)  # recently asked for: kept longest
                job = self._ended[config]
            return job

    def submit(
        self,
        config: Any,
        *,
        again: bool = False,
        trainer: Trainer | Callable[..., Any] | None = None,
        pin: bool = False,
    ) -> Job:
        """The job for config: a live or finished one if there is one (identical settings share one job),
        else a new job, started at once or queued. again=True trains anew even if a result exists (a run
        that a time limit cut short); if the new run fails or is stopped, the old result stays. trainer: another
        Trainer (or bare train function); the Training lab's by default. pin=True: a warm default."""
        with self._lock:
            live = self._live.get(config)
            if live is not None:
                live._pinned = live._pinned or pin
                return live
            ended = self._ended.get(config)
            if ended is not None and ended._state == DONE and not again:
                self._ended.move_to_end(config)
                return ended
            job = Job(next(self._ids), config, self, as_trainer(trainer) if trainer else self._trainer, pin)
            self._live[config] = job
            self._queue.append(job)
            self._pump()
            return job

    def snapshot(self, job: Job) -> JobSnapshot:
        with self._lock:
            ahead = next((i for i, queued in enumerate(self._queue) if queued is job), 0)
            starts_in, ends_in = self._estimate(job)
            with job._lock:
                return JobSnapshot(
                    job_id=job.id,
                    state=job._state,
                    step=job._step,
                    total=job._total,
                    seconds=job._seconds,
                    ahead=ahead,
                    losses=tuple(job._losses),
                    evals=tuple(job._evals),
                    result=job._result,
                    error=job._error,
                    starts_in=starts_in,
                    ends_in=ends_in,
                    slots=self.max_running,
                    watchers=len(job._holders),
                    warm=job._pinned,
                )

    def cancel(self, job: Job) -> None:
        """Stop a job: a queued one leaves the queue now; a running one stops (in-process: before its next
        step; in a worker process: the process is terminated)."""
        with self._lock:
            self._cancel(job)

    def hold(self, job: Job, who: str) -> None:
        """Session `who` watches job (called on every poll): while anyone holds a live job, it is not cancelled
        for want of watchers."""
        with self._lock:
            job._holders[who] = time.monotonic()

    def release(self, who: str) -> None:
        """Session `who` has left (its browser tab closed): a live job nobody holds any more is cancelled after
        the grace period, unless someone holds it again by then (a reload, another visitor with the settings)."""
        with self._lock:
            orphans = []
            for job in [*self._running, *self._queue]:
                if job._holders.pop(who, None) is not None and not job._holders and not job._pinned:
                    orphans.append(job)
        for job in orphans:
            self._after(self.grace, self._reap, job)

    def _after(self, seconds: float, fn: Callable[..., Any], *args: Any) -> None:
        """Call fn(*args) in `seconds`, on a timer thread (a test replaces this to say when time has passed)."""
        timer = threading.Timer(seconds, fn, args=args)
        timer.daemon = True
        timer.start()

    def wake(self) -> None:
        """A visitor is about to press Train: have the backend ready (the process backend starts a stopped pool)."""

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

    def _cancel(self, job: Job) -> None:
        """cancel() with self._lock held."""
        if job._state in ENDED or job._stop.is_set():
            return
        job._stop.set()
        if self._live.get(job.config) is job:
            del self._live[job.config]  # a visitor asking for these settings now gets a fresh job
        if job in self._queue:
            self._queue.remove(job)
            self._finish(job, CANCELLED)
        else:
            self._halt(job)

    def _reap(self, job: Job) -> None:
        with self._lock:
            if not job._holders and not job._pinned and job._state not in ENDED:
                log.info("training job %s: nobody has watched it for %.0f s; cancelled", job.id, self.grace)
                self._cancel(job)

    def _halt(self, job: Job) -> None:
        """Stop a running job (the caller holds self._lock). In-process: the loop sees job._stop."""

    def _pump(self) -> None:
        """Start queued jobs while there is a free slot (the caller holds self._lock); once nothing is queued or
        running any more, tell _went_idle."""
        while self._queue and len(self._running) < self.max_running:
            job = self._queue.popleft()
            self._running.add(job)
            with job._lock:
                job._state = RUNNING
                job._started = time.monotonic()
            self._launches += 1
            self._launch(job)
        if not self._queue and not self._running:
            self._went_idle()

    def _went_idle(self) -> None:
        """Nothing is queued or running any more (the caller holds self._lock). In-process: nothing to release."""

    def _launch(self, job: Job) -> None:
        threading.Thread(target=self._run, args=(job,), name=f"train-job-{job.id}", daemon=True).start()

    def _run(self, job: Job) -> None:
        """The training thread: train, then publish the outcome and free the slot."""
        state, result, error = FAILED, None, FAILED_KEY
        try:
            result = job._trainer.train(job.config, job._progress, job._stop.is_set)
            state, error = (CANCELLED, None) if job._stop.is_set() else (DONE, None)
        except TrainingCancelled:
            state, error = CANCELLED, None
        except Exception:  # any crash becomes a message for the visitor, not a dead slot
            log.exception("training job %s failed (%s)", job.id, job.config)
        finally:
            self._done(job, state, result, error)

    def _done(self, job: Job, state: str, result: Any, error: str | None) -> None:
        """Publish a running job's outcome, free its slot, start the next queued job."""
        with self._lock:
            self._running.discard(job)
            if self._live.get(job.config) is job:
                del self._live[job.config]
            if state == DONE and job._step > 0:
                pace = (time.monotonic() - job._started) / job._step  # wall time per step, start-up included
                self._pace.setdefault(job._trainer.name, deque(maxlen=PACE_SAMPLES)).append(pace)
            self._finish(job, state, result if state == DONE else None, error)
            self._pump()

    def _finish(self, job: Job, state: str, result: Any = None, error: str | None = None) -> None:
        """Record the outcome (the caller holds self._lock). A failed or cancelled run never hides a
        finished result of the same settings."""
        with job._lock:
            job._state, job._result, job._error = state, result, error
            job._process = None
        previous = self._ended.get(job.config)
        if state == DONE or previous is None or previous._state != DONE:
            self._ended[job.config] = job
            self._ended.move_to_end(job.config)
            evictable = [c for c, j in self._ended.items() if not j._pinned]
            for config in evictable[: max(0, len(evictable) - self._cache_size)]:
                del self._ended[config]
        job._ended.set()

    # --- estimates: when a queued job starts, when a job ends --------------------------------------

    def _full_seconds(self, job: Job) -> float:
        """A whole run of job, estimated from the recent pace of its trainer, within its own time limit."""
        recent = self._pace.get(job._trainer.name)
        pace = statistics.median(recent) if recent else DEFAULT_PACE
        limit = float(getattr(job.config, "max_seconds", MAX_SECONDS))
        return min(job._total * pace, limit + 1.0)

    def _left_seconds(self, job: Job, now: float) -> float:
        """A running job's remaining time: its own pace so far, else the recent pace."""
        limit = float(getattr(job.config, "max_seconds", MAX_SECONDS))
        if job._step > 0 and job._seconds > 0:
            pace = job._seconds / job._step  # the run's own clock: a slow start (a cold pool) is not its pace
            left = min((job._total - job._step) * pace, limit - job._seconds)
        else:
            left = self._full_seconds(job) - (now - job._started)
        return max(0.0, left)

    def _estimate(self, job: Job) -> tuple[float | None, float | None]:
        """(starts_in, ends_in) in seconds for a queued or running job (the caller holds self._lock)."""
        if job._state in ENDED:
            return None, None
        now = time.monotonic()
        if job._state == RUNNING:
            return None, self._left_seconds(job, now)
        # Free-slot times: the running jobs' remaining times, then each queued job ahead takes the first free one.
        slots = sorted(self._left_seconds(j, now) for j in self._running if not j._stop.is_set())
        slots = (slots + [0.0] * self.max_running)[: self.max_running]
        heapq.heapify(slots)
        for queued in self._queue:
            start = heapq.heappop(slots)
            if queued is job:
                return start, start + self._full_seconds(job)
            heapq.heappush(slots, start + self._full_seconds(queued))
        return None, None


class ProcessRunner(Runner):
    """The server's backend: one worker process per running job, from a forkserver that imported torch once.

    Never fork the server itself (a threaded process with torch loaded can deadlock in the child): the forkserver
    is a fresh interpreter that imports the worker module, then forks a cheap copy of itself per job."""

    backend = "process"
    PRELOAD = ("s2s_core.training.preload",)  # never "__main__": see preload.py

    def __init__(
        self,
        train_fn: Trainer | Callable[..., Any] | None = None,
        max_running: int | None = None,
        cache_size: int = CACHE_SIZE,
        grace: float | None = None,
        cap_margin: float = CAP_MARGIN,
        wall_factor: float = WALL_FACTOR,
        pool_idle: float | None = None,
    ) -> None:
        import multiprocessing

        super().__init__(train_fn, max_running, cache_size, grace)
        self.cap_margin = cap_margin
        self.wall_factor = wall_factor
        default_idle = _env_number(POOL_IDLE_ENV, POOL_IDLE_SECONDS, 0.0, 7 * 86400.0)
        self.pool_idle = default_idle if pool_idle is None else pool_idle  # 0: the pool never stops
        self._idle_since = time.monotonic()  # when the last idle timer was set
        self._ctx = multiprocessing.get_context("forkserver")
        self._ctx.set_forkserver_preload(list(self.PRELOAD))

    # --- the pool: one forkserver per process, started on demand, stopped when idle -----------------------------

    def start_pool(self) -> None:
        """Start the forkserver now, in the background (it imports torch and warms up: a few seconds), not when the
        first visitor presses Train; it stops again after pool_idle seconds if no job comes."""
        threading.Thread(target=self._ensure_pool, name="train-forkserver", daemon=True).start()

    def wake(self) -> None:
        """Start a stopped pool in the background; a running, idle one gets a fresh idle period (at most once per
        half period), so a visitor who arrives just before it would have stopped finds it up when they click."""
        if not pool_running():
            self.start_pool()
            return
        with self._lock:
            if not self._queue and not self._running and time.monotonic() - self._idle_since > self.pool_idle / 2:
                self._launches += 1  # the older timer is stale now
                self._went_idle()

    def _ensure_pool(self) -> None:
        from multiprocessing import forkserver

        with _POOL_LOCK:
            forkserver.ensure_running()
        with self._lock:
            self._launches += 1  # the wake-up counts as activity: an older idle timer must not stop this pool
            if not self._queue and not self._running:
                self._went_idle()

    def _went_idle(self) -> None:
        self._idle_since = time.monotonic()
        if self.pool_idle > 0:
            self._after(self.pool_idle, self._stop_pool_if_idle, self._launches)

    def _stop_pool_if_idle(self, launches: int) -> None:
        """The idle timer: stop the forkserver if no job started (and nobody woke the pool) since the timer was set
        and nothing is queued or running, here or in any other runner of this process (the forkserver is shared).
        _POOL_LOCK is held throughout, so a job that is submitted meanwhile starts its worker after the stop, and
        that start brings the forkserver back."""
        global _WORKERS
        with _POOL_LOCK:
            if _WORKERS:
                return
            with self._lock:
                if launches != self._launches or self._queue or self._running:
                    return
            if stop_pool():
                log.info(
                    "training pool: idle for %.0f s; forkserver stopped (it starts again with the next job)",
                    self.pool_idle,
                )

    def cap_seconds(self, config: Any) -> float:
        """The hard cap of a worker, in CPU seconds: its run's own time limit plus a margin. A worker that has
        computed for longer is runaway (its trainer ignores its limit) and is killed."""
        return float(getattr(config, "max_seconds", MAX_SECONDS)) + self.cap_margin

    def _over_cap(self, proc: Any, cap: float, started: float) -> bool:
        """CPU time past the cap, or wall time past the backstop (CPU time from /proc, else wall time)."""
        wall = time.monotonic() - started
        cpu = _cpu_seconds(proc.pid)
        return (wall if cpu is None else cpu) > cap or wall > cap * self.wall_factor

    def _halt(self, job: Job) -> None:
        with job._lock:
            proc = job._process
        if proc is not None:
            proc.terminate()  # the supervisor sees the pipe close and records CANCELLED

    def _launch(self, job: Job) -> None:
        threading.Thread(target=self._supervise, args=(job,), name=f"train-job-{job.id}", daemon=True).start()

    def _supervise(self, job: Job) -> None:
        """One job's supervisor thread in the server: start the worker, relay its progress, enforce the cap,
        then publish the outcome and free the slot. It only waits on a pipe: it holds no CPU while training."""
        from s2s_core.training import worker

        global _WORKERS
        state, result, error = FAILED, None, CRASHED_KEY
        receive = proc = None
        started_worker = False
        try:
            # 1) The worker process (the forkserver forks it; the first start also starts the forkserver).
            receive, send = self._ctx.Pipe(duplex=False)
            proc = self._ctx.Process(
                target=worker.run, args=(job._trainer, job.config, send), name=f"s2s-train-{job.id}", daemon=True
            )
            with _POOL_LOCK:  # never while an idle pool is being stopped (the start brings it back)
                proc.start()
                _WORKERS += 1
                started_worker = True
            send.close()  # ours: now the pipe closes when the worker exits, however it exits
            with job._lock:
                job._process = proc
            if job._stop.is_set():
                proc.terminate()
            # 2) Relay progress until the pipe closes; kill the worker at the hard cap.
            cap, started = self.cap_seconds(job.config), time.monotonic()
            packed, failed, over_cap = None, None, False
            while True:
                if self._over_cap(proc, cap, started):
                    over_cap = True
                    proc.kill()
                    break
                if not receive.poll(0.5):
                    continue
                try:
                    message = receive.recv()
                except (EOFError, OSError):
                    break
                if message[0] == "progress":
                    job._progress_batch(*message[1:])
                elif message[0] == "done":
                    packed = message[1]
                elif message[0] == "error":
                    failed = message[1]
            proc.join(5)
            if proc.is_alive():
                proc.kill()
                proc.join(5)
            # 3) What happened, in the visitor's terms.
            if job._stop.is_set():
                state, error = CANCELLED, None
            elif over_cap:
                error = OVER_CAP_KEY
                log.warning("training job %s ran past its cap of %.0f CPU seconds; stopped", job.id, cap)
            elif packed is not None:
                result = job._trainer.unpack(packed)
                state, error = DONE, None
            elif failed is not None:
                error = FAILED_KEY
                log.error("training job %s failed (%s):\n%s", job.id, job.config, failed)
            else:
                log.error("training job %s: the worker died (exit code %s)", job.id, proc.exitcode)
        except Exception:  # the server side of a job must never leave a slot taken
            log.exception("training job %s: supervising the worker failed", job.id)
            state, error = FAILED, FAILED_KEY
            if proc is not None and proc.is_alive():
                proc.kill()
        finally:
            if receive is not None:
                receive.close()
            if started_worker:
                with _POOL_LOCK:
                    _WORKERS -= 1
            self._done(job, state, result, error)


# The forkserver is one per process (multiprocessing's own singleton), so its lock is too, and so is the count of
# workers it started that have not been seen to end (guarded by the lock): no runner stops the pool under another's.
_POOL_LOCK = threading.Lock()
_WORKERS = 0


def pool_running() -> bool:
    """Whether this process's forkserver is up (as far as multiprocessing knows: one that died on its own is found,
    and replaced, by the next worker start)."""
    from multiprocessing import forkserver

    return forkserver._forkserver._forkserver_pid is not None  # no public accessor


def stop_pool() -> bool:
    """Stop this process's forkserver (the caller holds _POOL_LOCK, and no worker is running: each worker holds a
    copy of the forkserver's "alive" pipe, so the stop would wait for every one to end); True if one was running.
    The next worker start runs the forkserver again (ensure_running).

    multiprocessing has no public way to stop a forkserver: ForkServer._stop() is what its own tests use (closes
    the "alive" pipe, which makes the server exit, then reaps it)."""
    from multiprocessing import forkserver

    if forkserver._forkserver._forkserver_pid is None:
        return False
    forkserver._forkserver._stop()
    return True


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process, from /proc (Linux); None where that cannot be read."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


# --- the process-wide runner and the interface the pages use --------------------------------------------

_RUNNER: Runner | None = None
_RUNNER_LOCK = threading.Lock()


def runner() -> Runner:
    """The server's one runner (created on first use; the backend from default_backend())."""
    global _RUNNER
    with _RUNNER_LOCK:
        if _RUNNER is None:
            _RUNNER = ProcessRunner() if default_backend() == "process" else Runner()
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


def warm_enabled(backend: str | None = None) -> bool:
    """$S2S_TRAIN_WARM if set, else on for the process backend (a real server), off in-process (tests)."""
    raw = os.environ.get(WARM_ENV, "").strip()
    if raw in ("0", "1"):
        return raw == "1"
    return (backend or default_backend()) == "process"


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
