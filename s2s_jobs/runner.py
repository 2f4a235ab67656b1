"""The queue: one job per configuration, at most `max_running` at once, the rest waiting in order; finished results
kept for everyone (the last `cache_size` configurations, the default models always). This class trains in threads of
this process (the `inprocess` backend); s2s_jobs/process.py trains in worker processes behind the same interface.

Default models (default()): configurations registered with their trainer (s2s_jobs/trainer.py DEFAULT, trained to
their step count). Asking for one, by default() or by a visitor's submit(), gives the one pinned job of that
configuration.

With a model store (s2s_jobs/store.py: the deployment's database), one model per configuration serves the whole
deployment: a new job first claims its row. Claimed: trained here, the lease renewed and the progress published
while it trains (s2s_jobs/keeper.py), the model kept when it is done (a default model only when it ran to its last
step). Already finished (here before a restart, or by another replica): loaded, a DONE job at once. Trained by
another replica now: a job that mirrors its row, and takes the training over if that replica's lease runs out.
find() asks the store too, so a visitor whose replica went away finds their training on the next one.

Shedding: at most `queue_cap` visitors' trainings wait here; a new one beyond it raises QueueFull with the time until
a place frees, instead of a place nobody would wait for. What is already trained, or trained by another replica now,
is served all the same, and the default models are never refused.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from itertools import count
from typing import Any

import torch

from s2s_core.training.loop import TrainingCancelled
from s2s_jobs import estimate
from s2s_jobs.keeper import Keeper
from s2s_jobs.settings import default_workers, grace_seconds, queue_cap
from s2s_jobs.snapshot import CANCELLED, DONE, ENDED, FAILED, FAILED_KEY, RUNNING, Job, JobSnapshot
from s2s_jobs.store import DONE as STORED_DONE
from s2s_jobs.store import FAILED as STORED_FAILED
from s2s_jobs.store import FREE, Claim, ModelStore, Training
from s2s_jobs.trainer import Trainer, as_trainer

CACHE_SIZE = 24  # finished configurations kept (each holds one small model)
log = logging.getLogger(__name__)


class QueueFull(Exception):
    """A new training was refused: `waiting` trainings already wait here (the cap is `cap`); the first place frees in
    about `wait` seconds (the queue's head starts then). Nothing was queued or claimed."""

    def __init__(self, waiting: int, cap: int, wait: float) -> None:
        super().__init__(f"{waiting} trainings wait (cap {cap}); a place frees in about {wait:.0f} s")
        self.waiting, self.cap, self.wait = waiting, cap, wait


class Runner:
    """The in-process backend: a thread per running job, at most max_running at once, the rest queued."""

    backend = "inprocess"

    def __init__(
        self,
        train_fn: Trainer | Callable[..., Any] | None = None,
        max_running: int | None = None,
        cache_size: int = CACHE_SIZE,
        grace: float | None = None,
        store: ModelStore | None = None,
        cap: int | None = None,
    ) -> None:
        self._trainer = as_trainer(train_fn)
        self.store = store  # the deployment's models (None: nothing kept; every start trains its defaults again)
        self.keeper = Keeper(self)  # renews this server's claims and mirrors other replicas' trainings
        self._submit_lock = threading.Lock()  # one new job per configuration at a time (the store's calls included)
        self._defaults: dict[Any, Trainer] = {}  # default configuration -> its trainer (register / default())
        self.max_running = max_running or default_workers()
        self.queue_cap = cap or queue_cap()  # visitors' trainings that may wait here (QueueFull beyond it)
        self.grace = grace_seconds() if grace is None else grace
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
        if (job is None or job._state in (CANCELLED, FAILED)) and self._stores(config):
            # Not here, or stopped here (this server stopped watching another replica's run nobody here watched):
            # the deployment may have it, done or training now.
            job = self._from_store(config) or job
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
        Trainer (or bare train function); the Training lab's by default. pin=True: a warm default.
        A registered default configuration (with no other trainer named) is default(config): the same model for
        everyone, trained to its step count once, never again (`again` does not apply).
        Raises QueueFull when a new training would wait behind `queue_cap` others (not for a pinned one, nor for
        settings the deployment has trained or trains now: those are served)."""
        if trainer is None and config in self._defaults:
            return self.default(config)
        with self._lock:
            found = self._existing(config, again)
            if found is not None:
                found._pinned = found._pinned or pin
                return found
            full = None if pin else self._refusal()
        if full is not None:
            found = self._from_store(config) if self._stores(config) and not again else None
            if found is None:
                raise full
            return found
        return self._new(config, as_trainer(trainer) if trainer else self._trainer, pin, again)

    def register(self, config: Any, trainer: Trainer) -> None:
        """Make config a default model, trained by trainer (jobs.py registers every one of jobs.WARM)."""
        with self._lock:
            self._defaults[config] = trainer

    def train_threads(self) -> int:
        """Torch threads a training of this backend runs on (part of a stored model's code version)."""
        return torch.get_num_threads()

    def default(self, config: Any, trainer: Trainer | None = None) -> Job:
        """The one pinned job of a default model: the live or finished one; else loaded from the store (a DONE job
        at once, nothing trained); else a new job that trains it to its step count and writes it to the store.
        trainer registers config first (else config must be registered already: KeyError)."""
        if trainer is not None:
            self.register(config, trainer)
        trainer = self._defaults[config]
        with self._lock:
            job = self._default_job(config)
        return job if job is not None else self._new(config, trainer, pin=True, again=False)

    def _existing(self, config: Any, again: bool) -> Job | None:
        """The live job of config, or its finished one unless `again` (the caller holds self._lock)."""
        live = self._live.get(config)
        if live is not None:
            return live
        ended = self._ended.get(config)
        if ended is not None and ended._state == DONE and not again:
            self._ended.move_to_end(config)
            return ended
        return None

    def _new(self, config: Any, trainer: Trainer, pin: bool, again: bool) -> Job:
        """A new job for config, after asking the store (see the module's docstring): a finished model, another
        replica's training to watch, or this server's claim to train it (queued here)."""
        with self._submit_lock:
            with self._lock:
                found = self._default_job(config) if pin else self._existing(config, again)
                if found is not None:
                    return found
            job = Job(next(self._ids), config, self, trainer, pinned=pin)
            claim = Claim(down=True)
            if self._stores(config):
                job._key = self.store.key(trainer, config, self.train_threads())
                claim = self.store.claim(trainer, config, self.train_threads(), job._total, again)
            with self._lock:
                if claim.result is not None:
                    job._restore(claim.result)
                    self._finish(job, DONE, claim.result)
                    return job
                full = None if pin or claim.elsewhere is not None else self._refusal()
                if full is None:
                    self._live[config] = job
                    if claim.elsewhere is not None:
                        self._watch(job, claim.elsewhere)
                    else:
                        job._claimed = claim.mine
                        if pin:
                            log.info("default model %s: trained to its %s steps (%s)", job.id, job._total, config)
                        self._queue.append(job)
                        self._pump()
            if full is not None:  # the queue filled while the store answered: refused, the claim handed back
                if claim.mine:
                    self.store.give_up(job._key)
                raise full
        self.keeper.wake()
        return job

    def _stores(self, config: Any) -> bool:
        """Does this configuration's model go through the deployment's store? Not one whose config says it lives in
        memory only (a learner's own sentences: s2s_core/translation/own_train.OwnConfig.memory_only): never
        written to disk, never mirrored to another replica; its job is this server's alone."""
        return self.store is not None and not getattr(config, "memory_only", False)

    def _refusal(self) -> QueueFull | None:
        """QueueFull if a new visitor's training would wait behind queue_cap others, else None (the caller holds
        self._lock). The wait is when the queue's head starts: then the first place frees."""
        if len(self._queue) < self.queue_cap:
            return None
        wait, _ = estimate.estimate(self._queue[0], self._running, self._queue, self.max_running, self._pace)
        return QueueFull(len(self._queue), self.queue_cap, wait or 0.0)

    def _from_store(self, config: Any) -> Job | None:
        """find() for a configuration this server has no job of: the store's finished model (loaded), or another
        replica's training of it (watched); None if the deployment never trained it (or gave it up)."""
        trainer = self._defaults.get(config, self._trainer)
        row = self.store.read(self.store.key(trainer, config, self.train_threads()))
        if row is None or row.state in (FREE, STORED_FAILED) or row.owner == self.store.owner:
            return None
        result = self.store.result_of(row, trainer, config, self.train_threads()) if row.state == STORED_DONE else None
        if row.state == STORED_DONE and result is None:
            return None
        with self._submit_lock, self._lock:
            found = self._existing(config, again=False)
            if found is not None:
                return found
            job = Job(next(self._ids), config, self, trainer, pinned=config in self._defaults)
            job._key = row.key
            if result is not None:
                job._restore(result)
                self._finish(job, DONE, result)
                return job
            self._live[config] = job
            self._watch(job, row)
        self.keeper.wake()
        return job

    def _watch(self, job: Job, row: Training) -> None:
        """job mirrors another replica's training of its row (the caller holds self._lock); keeper.py follows it."""
        job._remote = True
        job._started = time.monotonic()
        self.keeper.mirror(job, row)

    def _default_job(self, config: Any) -> Job | None:
        """The live job of config (now pinned), or its finished default; None if there is none (the caller holds
        self._lock). A default that failed or was stopped is not one: the next ask loads or trains it anew."""
        live = self._live.get(config)
        if live is not None:
            live._pinned = True
            return live
        ended = self._ended.get(config)
        if ended is not None and ended._state == DONE and ended._pinned:
            self._ended.move_to_end(config)
            return ended
        return None

    def snapshot(self, job: Job) -> JobSnapshot:
        with self._lock:
            ahead = next((i for i, queued in enumerate(self._queue) if queued is job), 0)
            starts_in, ends_in = estimate.estimate(job, self._running, self._queue, self.max_running, self._pace)
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
                    stored=job._stored,
                    remote=job._remote and job._state not in ENDED,
                    stopped_by=getattr(getattr(job._result, "run", None), "stopped_by", None),
                    checkpoint=job._checkpoint,
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
            for job in {*self._running, *self._queue, *self._live.values()}:  # live: watched ones too
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

    def shutdown(self, timeout: float = 10.0) -> bool:
        """Cancel every queued and running job and wait for the running ones to stop (the process is exiting).

        An in-process training thread is a daemon: left inside a torch call while the interpreter finalises, it
        aborts the whole process ("terminate called without an active exception", exit code 134)."""
        with self._lock:
            for job in [*self._queue, *self._running]:
                self._cancel(job)
        return self.wait_idle(timeout)

    # --- inside ------------------------------------------------------------------------------------

    def _cancel(self, job: Job) -> None:
        """cancel() with self._lock held."""
        if job._state in ENDED or job._stop.is_set():
            return
        job._stop.set()
        if self._live.get(job.config) is job:
            del self._live[job.config]  # a visitor asking for these settings now gets a fresh job
        if job._remote:  # another replica's training: this server only stops watching it
            self._finish(job, CANCELLED)
        elif job in self._queue:
            self._queue.remove(job)
            self._finish(job, CANCELLED)
            self._give_up_later(job, None)
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
        """Publish a running job's outcome, free its slot, start the next queued job. A default model's finished
        training is written to the store first (only a whole run: a model cut short is never kept)."""
        if job._claimed:
            self._keep_or_give_up(job, state, result, error)
        with self._lock:
            self._running.discard(job)
            if self._live.get(job.config) is job:
                del self._live[job.config]
            if state == DONE and job._step > 0:
                pace = (time.monotonic() - job._started) / job._step  # wall time per step, start-up included
                self._pace.setdefault(job._trainer.name, deque(maxlen=estimate.PACE_SAMPLES)).append(pace)
            self._finish(job, state, result if state == DONE else None, error)
            self._pump()

    def _keep_or_give_up(self, job: Job, state: str, result: Any, error: str | None) -> None:
        """A claimed job ended: its model goes into the store (a default model only if it ran to its last step: one
        cut short is never kept), else its row is handed back (failed: with the message's key)."""
        job._claimed = False  # the keeper renews it no more
        whole = getattr(getattr(result, "run", None), "stopped_by", "steps") == "steps"
        try:
            if state == DONE and result is not None and (whole or not job._pinned):
                with job._lock:
                    step, total, seconds = job._step, job._total, job._seconds
                self.store.finish(job._key, job._trainer.pack(result), step, total, seconds)
                return
            if state == DONE and result is not None:
                log.warning("default model %s stopped before its last step: not stored", job.id)
        except Exception:  # the model is still served from memory; the slot must be freed by the caller
            log.exception("training job %s: keeping it in the model store failed", job.id)
        self.store.give_up(job._key, error if state == FAILED else None)

    def _give_up_later(self, job: Job, error: str | None) -> None:
        """Hand a claimed job's row back from another thread (the caller holds self._lock: no database call here)."""
        if job._claimed:
            job._claimed = False
            threading.Thread(target=self.store.give_up, args=(job._key, error), daemon=True).start()

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
