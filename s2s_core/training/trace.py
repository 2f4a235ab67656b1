"""A training run's trace (when each step ended, the attention map of the default source at each checkpoint) and
its replay: training is deterministic, so a later visitor can watch the recorded run at its real pace, no new job.

Shapes: T output steps, S source positions.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass, fields

from s2s_core.training.fields import DEFAULT_SOURCES
from s2s_core.training.loop import EvalPoint, Progress, TrainRun
from s2s_core.training.tasks import KO_EN, NAMES_TASK, NUM_TASKS


def source_family(task: str) -> str:
    if task == KO_EN:
        return "sentence"
    if task == NAMES_TASK:
        return "names"
    return "number" if task in NUM_TASKS else "digits"


def default_source_text(task: str) -> str:
    return DEFAULT_SOURCES[source_family(task)]


@dataclass(frozen=True)
class MapPoint:
    """The default source decoded by the model as it was after `step` optimiser steps (0 = untrained)."""

    step: int
    source: tuple[str, ...]  # the source tokens (the map's columns)
    output: tuple[str, ...]  # free-running output, up to and including <eos> if it came (the map's rows)
    weights: tuple[tuple[float, ...], ...] | None  # (T, S) attention weights; None without attention
    exact: bool  # the output is the task's right answer


@dataclass(frozen=True)
class Trace:
    """What a replay needs beyond the run's own history: when each step ended, and the checkpoint maps."""

    times: tuple[float, ...]  # seconds since training started at the end of step k+1 (one per recorded loss)
    maps: tuple[MapPoint, ...]  # step 0 (untrained), then one per held-out evaluation

    def to_plain(self) -> dict:
        """Numbers, text and tuples only: it travels from a worker process with torch.save(weights_only=True)."""
        return {
            "times": self.times,
            "maps": tuple((m.step, m.source, m.output, m.weights, m.exact) for m in self.maps),
        }

    @classmethod
    def from_plain(cls, plain: dict | None) -> Trace | None:
        if plain is None:
            return None
        maps = tuple(
            MapPoint(int(step), tuple(src), tuple(out), None if w is None else tuple(map(tuple, w)), bool(exact))
            for step, src, out, w, exact in plain["maps"]
        )
        return cls(times=tuple(float(x) for x in plain["times"]), maps=maps)


@dataclass(frozen=True)
class CheckpointProgress(Progress):
    """A step's progress that also carries the checkpoint map taken since the last report: a live watcher draws
    the map of the run as it is now (the step-0 map arrives with step 1, then one with every evaluation)."""

    checkpoint: MapPoint | None = None


class Recorder:
    """Wraps a run's progress callback and its checkpoint hook; trace() is the recorded trace afterwards.

    snap(model, step) -> MapPoint is given by the caller (compute.py decodes the default source). A checkpoint map
    rides on the next progress report (CheckpointProgress), so a live watcher sees the maps as they are taken."""

    def __init__(self, on_progress: Callable[[Progress], None] | None, snap: Callable[[object, int], MapPoint]):
        self._on_progress = on_progress
        self._snap = snap
        self._times: list[float] = []
        self._maps: list[MapPoint] = []
        self._reported = 0  # checkpoint maps already handed to on_progress

    def progress(self, p: Progress) -> None:
        self._times.append(p.seconds)
        if self._on_progress is None:
            return
        if len(self._maps) > self._reported:  # a new checkpoint since the last report: the latest travels with it
            self._reported = len(self._maps)
            p = CheckpointProgress(**{f.name: getattr(p, f.name) for f in fields(p)}, checkpoint=self._maps[-1])
        self._on_progress(p)

    def checkpoint(self, model: object, step: int) -> None:
        self._maps.append(self._snap(model, step))

    def trace(self) -> Trace:
        return Trace(times=tuple(self._times), maps=tuple(self._maps))


@dataclass(frozen=True)
class Frame:
    """One moment of a replay, drawn like a live job's snapshot (and the map it had then)."""

    step: int
    total: int
    seconds: float
    losses: tuple[tuple[int, float, float], ...]
    evals: tuple[EvalPoint, ...]
    map: MapPoint | None  # the latest checkpoint map at this moment
    ended: bool  # the replay has reached the run's last step


def duration(trace: Trace) -> float:
    """How long the replay lasts: the run's own training time."""
    return trace.times[-1] if trace.times else 0.0


MIN_REPLAY_SECONDS = 5.0  # the page polls once a second: a shorter run is replayed slowed down to this


def replay_clock(trace: Trace, wall_seconds: float) -> float:
    """The run's own clock `wall_seconds` into a replay: its real pace, except that a run shorter than
    MIN_REPLAY_SECONDS is stretched to that length, so a watcher sees the bar and the map move (a 1 s run at
    its real pace would show one frame)."""
    real = duration(trace)
    return wall_seconds * (real / max(real, MIN_REPLAY_SECONDS)) if real > 0 else wall_seconds


def replay_frame(run: TrainRun, trace: Trace, total: int, elapsed: float) -> Frame:
    """What the live run had shown `elapsed` seconds after it started: every step that had ended by then."""
    done = bisect.bisect_right(trace.times, elapsed)  # steps ended by `elapsed`
    step = run.losses[done - 1][0] if done else 0
    evals = tuple(e for e in run.evals if e.step <= step)
    maps = [m for m in trace.maps if m.step <= step]
    seconds = min(elapsed, duration(trace))
    return Frame(step, total, seconds, run.losses[:done], evals, maps[-1] if maps else None, done >= len(trace.times))
