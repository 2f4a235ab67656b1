"""The server's backend: one worker PROCESS per running job, forked from the pool's forkserver (s2s_jobs/pool.py).

Training never holds the server's interpreter: progress arrives over a pipe as plain data, the model as state_dict
bytes (Trainer.pack / unpack). Cancel terminates the process; a process past its hard time cap is killed; a process
that dies gives the visitor a clear message and frees its slot. The forkserver stops after $S2S_POOL_IDLE seconds
with nothing queued or running (an idle server then holds no second copy of torch) and starts again for the next
job, or as soon as a visitor's page shows a Train button (wake()).
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
import time
from collections.abc import Callable
from typing import Any

from s2s_jobs import pool, worker
from s2s_jobs.estimate import time_limit
from s2s_jobs.runner import CACHE_SIZE, Runner
from s2s_jobs.settings import pool_idle_seconds
from s2s_jobs.snapshot import CANCELLED, CRASHED_KEY, DONE, FAILED, FAILED_KEY, OVER_CAP_KEY, Job
from s2s_jobs.trainer import DEFAULT_CPU_SECONDS, Trainer

CAP_MARGIN = 20.0  # hard cap = the run's own time limit + this, in CPU seconds of the worker (start-up, final check);
#                   a default model's (no wall-clock limit of its own): DEFAULT_CPU_SECONDS + this
WALL_FACTOR = 5.0  # ...and a wall-clock backstop at this many times the cap (a worker starved by a busy machine
#                    is slow, not runaway: its own wall-clock limit ends the training; this only catches a hang)
log = logging.getLogger(__name__)


class ProcessRunner(Runner):
    """The server's backend: one worker process per running job, from a forkserver that imported torch once.

    Never fork the server itself (a threaded process with torch loaded can deadlock in the child): the forkserver
    is a fresh interpreter that imports the worker module, then forks a cheap copy of itself per job."""

    backend = "process"
    PRELOAD = ("s2s_jobs.preload",)  # never "__main__": see preload.py

    def __init__(
        self,
        train_fn: Trainer | Callable[..., Any] | None = None,
        max_running: int | None = None,
        cache_size: int = CACHE_SIZE,
        grace: float | None = None,
        cap_margin: float = CAP_MARGIN,
        wall_factor: float = WALL_FACTOR,
        pool_idle: float | None = None,
        store: Any = None,
        default_cpu_seconds: float = DEFAULT_CPU_SECONDS,
        cap: int | None = None,
    ) -> None:
        super().__init__(train_fn, max_running, cache_size, grace, store, cap)
        self.cap_margin = cap_margin
        self.default_cpu_seconds = default_cpu_seconds  # a default model's hard cap, before the margin
        self.wall_factor = wall_factor
        self.pool_idle = pool_idle_seconds() if pool_idle is None else pool_idle  # 0: the pool never stops
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
        if not pool.pool_running():
            self.start_pool()
            return
        with self._lock:
            if not self._queue and not self._running and time.monotonic() - self._idle_since > self.pool_idle / 2:
                self._launches += 1  # the older timer is stale now
                self._went_idle()

    def _ensure_pool(self) -> None:
        pool.ensure_running()
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
        pool.LOCK is held throughout, so a job that is submitted meanwhile starts its worker after the stop, and
        that start brings the forkserver back."""
        with pool.LOCK:
            if pool.workers():
                return
            with self._lock:
                if launches != self._launches or self._queue or self._running:
                    return
            if pool.stop_pool():
                log.info(
                    "training pool: idle for %.0f s; forkserver stopped (it starts again with the next job)",
                    self.pool_idle,
                )

    def train_threads(self) -> int:
        return 1  # every worker (worker.run)

    def cap_seconds(self, config: Any, trainer: Trainer | None = None) -> float:
        """The hard cap of a worker, in CPU seconds: its run's own time limit plus a margin (a default model's
        trainer has no wall-clock limit: DEFAULT_CPU_SECONDS). A worker that has computed for longer is runaway
        (its trainer ignores its limit) and is killed."""
        if trainer is not None and not trainer.capped:
            return self.default_cpu_seconds + self.cap_margin
        return time_limit(config) + self.cap_margin

    def _over_cap(self, proc: Any, cap: float, started: float) -> str | None:
        """Which limit the worker is past: "cpu" (CPU time past the cap; wall time where /proc cannot be read),
        "wall" (wall time past the backstop, cap × wall_factor), or None."""
        wall = time.monotonic() - started
        cpu = pool.cpu_seconds(proc.pid)
        if (wall if cpu is None else cpu) > cap:
            return "cpu"
        if wall > cap * self.wall_factor:
            return "wall"
        return None

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
        state, result, error = FAILED, None, CRASHED_KEY
        receive = proc = None
        started_worker = False
        try:
            # 1) The worker process (the forkserver forks it; the first start also starts the forkserver).
            receive, send = self._ctx.Pipe(duplex=False)
            proc = self._ctx.Process(
                target=worker.run, args=(job._trainer, job.config, send), name=f"s2s-train-{job.id}", daemon=True
            )
            with pool.LOCK:  # never while an idle pool is being stopped (the start brings it back)
                proc.start()
                pool.worker_started()
                started_worker = True
            send.close()  # ours: now the pipe closes when the worker exits, however it exits
            with job._lock:
                job._process = proc
            if job._stop.is_set():
                proc.terminate()
            # 2) Relay progress until the pipe closes; kill the worker at the hard cap.
            cap, started = self.cap_seconds(job.config, job._trainer), time.monotonic()
            if not job._trainer.capped:
                log.info(
                    "training job %s (a default model): no wall-clock limit, trained to its last step; hard cap "
                    "%.0f CPU seconds (DEFAULT_CPU_SECONDS + CAP_MARGIN), wall-clock backstop %.0f s",
                    job.id,
                    cap,
                    cap * self.wall_factor,
                )
            packed, failed, over_cap = None, None, None
            while True:
                over_cap = self._over_cap(proc, cap, started)
                if over_cap:
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
                log.warning(
                    "training job %s ran past its %s; stopped",
                    job.id,
                    f"cap of {cap:.1f} CPU seconds"
                    if over_cap == "cpu"
                    else f"wall-clock backstop of {cap * self.wall_factor:.1f} s",
                )
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
                with pool.LOCK:
                    pool.worker_ended()
            self._done(job, state, result, error)
