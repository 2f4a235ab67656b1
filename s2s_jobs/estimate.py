"""When a queued job should start and when a job should end, from the measured pace of recent finished jobs.

The caller (the runner) holds its lock: the jobs' fields read here do not move meanwhile.
"""

from __future__ import annotations

import heapq
import statistics
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from s2s_core.training.fields import MAX_SECONDS
from s2s_jobs.snapshot import ENDED, RUNNING, Job
from s2s_jobs.trainer import DEFAULT_CPU_SECONDS

DEFAULT_PACE = 0.03  # seconds per step before any job has been measured (the default run: 160 steps in ~4 s)
PACE_SAMPLES = 8  # recent finished jobs whose pace makes the estimate


def time_limit(config: Any, trainer: Any = None) -> float:
    """A run's own limit: its config's wall-clock limit (a config without one gets the training cap); a default
    model's trainer has none, only the hard cap of DEFAULT_CPU_SECONDS."""
    if trainer is not None and not trainer.capped:
        return DEFAULT_CPU_SECONDS
    return float(getattr(config, "max_seconds", MAX_SECONDS))


def full_seconds(job: Job, paces: Mapping[str, Sequence[float]]) -> float:
    """A whole run of job, estimated from the recent pace of its trainer, within its own time limit."""
    recent = paces.get(job._trainer.name)
    pace = statistics.median(recent) if recent else DEFAULT_PACE
    return min(job._total * pace, time_limit(job.config, job._trainer) + 1.0)


def left_seconds(job: Job, paces: Mapping[str, Sequence[float]], now: float) -> float:
    """A running job's remaining time: its own pace so far, else the recent pace."""
    if job._step > 0 and job._seconds > 0:
        pace = job._seconds / job._step  # the run's own clock: a slow start (a cold pool) is not its pace
        left = min((job._total - job._step) * pace, time_limit(job.config, job._trainer) - job._seconds)
    else:
        left = full_seconds(job, paces) - (now - job._started)
    return max(0.0, left)


def estimate(
    job: Job, running: Iterable[Job], queue: Sequence[Job], slots: int, paces: Mapping[str, Any]
) -> tuple[float | None, float | None]:
    """(starts_in, ends_in) in seconds for a queued or running job; (None, None) once it has ended."""
    if job._state in ENDED:
        return None, None
    now = time.monotonic()
    if job._state == RUNNING:
        return None, left_seconds(job, paces, now)
    # Free-slot times: the running jobs' remaining times, then each queued job ahead takes the first free one.
    free = sorted(left_seconds(j, paces, now) for j in running if not j._stop.is_set())
    free = (free + [0.0] * slots)[:slots]
    heapq.heapify(free)
    for queued in queue:
        start = heapq.heappop(free)
        if queued is job:
            return start, start + full_seconds(job, paces)
        heapq.heappush(free, start + full_seconds(queued, paces))
    return None, None
