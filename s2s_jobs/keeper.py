"""The keeper: one thread per runner that keeps this replica's claims alive and follows the other replicas' trainings.

A runner with a model store (s2s_jobs/store.py) has two kinds of job that live in the database as well as here:

- claimed: this replica trains it (queued or running). Every lease/4 the keeper renews its row's lease with the
  progress so far (losses, evaluations, the latest map), so a replica watching it draws the same curve. A lease
  that is not renewed (this process died, or lost the database for longer than the lease) lapses, and the next
  replica that looks takes the training over.
- remote: another replica trains it. Every tick the keeper reads all their rows at once and mirrors them: the
  progress while it runs; the model when it is done (loaded, a DONE job, `stored`); the row's message when it
  failed; and when the row was handed back (free) or its lease lapsed, it claims the row for this replica and
  queues the job here, so the visitor still gets the model.

The thread starts on wake() (the runner calls it after every new claimed or remote job) and exits when the runner
has neither; a wake() while it decides to exit makes it tick once more (`_pending`), so no job is left unfollowed.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import TYPE_CHECKING, Any

from s2s_jobs.snapshot import DONE, ENDED, FAILED, FAILED_KEY, QUEUED, RUNNING, Job
from s2s_jobs.store import DONE as STORED_DONE
from s2s_jobs.store import FAILED as STORED_FAILED
from s2s_jobs.store import FREE, Training, pack_progress, unpack_progress

if TYPE_CHECKING:
    from s2s_jobs.runner import Runner

TICK_SECONDS = 1.0  # how often the keeper looks (at most; a short lease makes it look more often)
log = logging.getLogger(__name__)


class Keeper:
    """See the module's docstring. Every database call happens on the keeper's thread, outside the runner's lock."""

    def __init__(self, runner: Runner) -> None:
        self._runner = runner
        self._lock = threading.Lock()  # guards _thread and _pending
        self._thread: threading.Thread | None = None
        self._pending = False  # a wake() since the thread last looked: it looks once more before it exits

    @property
    def tick(self) -> float:
        store = self._runner.store
        return TICK_SECONDS if store is None else min(TICK_SECONDS, store.lease / 4)

    def wake(self) -> None:
        """There may be a new claimed or remote job: make sure the thread runs."""
        if self._runner.store is None:
            return
        with self._lock:
            self._pending = True
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="model-store-keeper", daemon=True)
                self._thread.start()

    def mirror(self, job: Job, row: Training) -> None:
        """Show another replica's row on job (the caller holds the runner's lock): QUEUED until it has a first step
        or second of training, then RUNNING with the row's progress."""
        losses, evals, checkpoint = unpack_progress(row.progress)
        state = QUEUED if row.step == 0 and row.seconds == 0 else RUNNING
        job._mirror(state, row.step, row.total, row.seconds, losses, evals, checkpoint)

    # --- the thread -------------------------------------------------------------------------------------------------

    def _loop(self) -> None:
        while True:
            time.sleep(self.tick)
            try:
                busy = self._look()
            except Exception:  # the keeper never dies of one bad tick: the next one tries again
                log.exception("model store keeper: a tick failed")
                busy = True
            with self._lock:
                if not busy and not self._pending:
                    self._thread = None
                    return
                self._pending = False

    def _look(self) -> bool:
        """One tick: renew what is due, follow what is remote. True while there is anything left to keep."""
        runner = self._runner
        with runner._lock:
            claimed = [j for j in {*runner._queue, *runner._running} if j._claimed and j._state not in ENDED]
            remote = [j for j in runner._live.values() if j._remote and j._state not in ENDED]
        for job in claimed:
            self._renew(job)
        if remote:
            rows = runner.store.read_many(j._key for j in remote)
            for job in remote:
                self._follow(job, rows.get(job._key))
        return bool(claimed or remote)

    def _renew(self, job: Job) -> None:
        now = time.monotonic()
        if now - job._renewed < self._runner.store.lease / 4:
            return
        job._renewed = now
        with job._lock:
            step, total, seconds = job._step, job._total, job._seconds
            losses, evals, checkpoint = list(job._losses), list(job._evals), job._checkpoint
        kept = self._runner.store.renew(job._key, step, total, seconds, pack_progress(losses, evals, checkpoint))
        if kept is False:  # another replica took the row over after a lapse: both train; the first model kept stands
            log.warning("training job %s: its claim lapsed and another replica took it over", job.id)

    def _follow(self, job: Job, row: Training | None) -> None:
        """Mirror, finish or take over a remote job after its row (None: the row is gone)."""
        runner, store = self._runner, self._runner.store
        threads = runner.train_threads()
        if row is not None and row.state == RUNNING and not row.lapsed(time.time()):
            with runner._lock:
                if self._still_remote(job):
                    self.mirror(job, row)
            return
        if row is not None and row.state == STORED_FAILED:
            self._end(job, FAILED, None, row.error or FAILED_KEY)
            return
        if row is not None and row.state == STORED_DONE:
            result = store.result_of(row, job._trainer, job.config, threads)
            if result is not None:
                self._end(job, DONE, result, None)
                return
        # gone, free, lapsed, or a model this code refuses: this replica trains it
        if row is not None and row.state == FREE:
            log.info("training job %s: the replica training it handed it back; claiming it here", job.id)
        elif row is not None and row.state == RUNNING:
            log.warning("training job %s: the replica training it stopped renewing; taking it over", job.id)
        claim = store.claim(job._trainer, job.config, threads, job._total, again=row is not None and row.state == DONE)
        if claim.result is not None:
            self._end(job, DONE, claim.result, None)
        elif claim.elsewhere is not None:
            with runner._lock:
                if self._still_remote(job):
                    self.mirror(job, claim.elsewhere)
        elif claim.mine:
            self._take_over(job)

    def _still_remote(self, job: Job) -> bool:
        """The job is still this runner's live, watched job (the caller holds the runner's lock)."""
        return self._runner._live.get(job.config) is job and job._remote and job._state not in ENDED

    def _end(self, job: Job, state: str, result: Any, error: str | None) -> None:
        runner = self._runner
        with runner._lock:
            if not self._still_remote(job):
                return
            del runner._live[job.config]
            if state == DONE:
                job._restore(result)
            runner._finish(job, state, result, error)

    def _take_over(self, job: Job) -> None:
        """The claim is this replica's now: train the job here from its first step."""
        runner = self._runner
        with runner._lock:
            if not self._still_remote(job):  # cancelled while the claim was made: hand the row back
                job._claimed = True
                runner._give_up_later(job, None)
                return
            job._remote, job._claimed = False, True
            with job._lock:
                job._state, job._step, job._seconds = QUEUED, 0, 0.0
                job._losses, job._evals, job._checkpoint = [], [], None
            runner._queue.append(job)
            runner._pump()
        log.info("training job %s: claimed here and queued", job.id)
