"""Which sentence the Training lab says about a run: every line about what a model did (its map, the bottleneck
comparison, the names task's survival, the untrained picture, a run the clock cut short) is chosen here from what
that run measured, so no sentence claims what the run on screen does not show.

Shapes: T output steps, S source positions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from s2s_core.fmt import pct
from s2s_core.training.compute import LossCheck, SourceInput, Survival
from s2s_core.training.loop import TrainRun
from s2s_core.training.tasks import EOS, NUM_TASKS, PAD
from s2s_core.training.trace import MapPoint

TOP = 0.9  # "close to the top": at least 90 % at every length (exact match) or at the longest (survival)
FALL = 0.2  # "falls off": at least 20 points lower at the longest source than at the shortest
EVEN = 1.5  # "spread evenly": no weight above 1.5 times the uniform share 1/S


@dataclass(frozen=True)
class MapReading:
    """Where the map of one source puts each output step's largest weight (notice 2)."""

    steps: int  # output steps before <eos>
    on_copied: int  # of them, steps whose largest weight is on a source position holding the token they write
    line: str | None  # "anti" / "diag": every step t looks hardest at position n-1-t / t, a copy of its token


def map_reading(task: str, point: MapPoint) -> MapReading | None:
    """None where the lab says nothing about the map: no attention, a number task (a word there is read from a
    digit and its place: no token is copied), or an output with no token before <eos>."""
    if point.weights is None or task in NUM_TASKS:
        return None
    written = list(point.output[: point.output.index(EOS)] if EOS in point.output else point.output)
    if not written:
        return None
    n = sum(tok != PAD for tok in point.source)  # the real positions (PAD ones come after, with weight 0)
    rows = point.weights[: len(written)]  # (T, S)
    top = [max(range(len(row)), key=row.__getitem__) for row in rows]  # each step's most-weighted position
    on_copied = sum(point.source[s] == tok for s, tok in zip(top, written, strict=True))
    line = None  # a line is named only when each step also looks hardest at a copy of the token it writes
    if on_copied == len(written) == n and top == [n - 1 - t for t in range(n)]:
        line = "anti"
    elif on_copied == len(written) == n and top == list(range(n)):
        line = "diag"
    return MapReading(len(written), on_copied, line)


def map_notice(reading: MapReading) -> str:
    """notice_2: the anti-diagonal (reverse) or the diagonal (copy) when every step is on it; every step on a copy
    of its token; or how many are."""
    if reading.line is not None:
        return f"training.notice_2_{reading.line}"
    return "training.notice_2_copied" if reading.on_copied == reading.steps else "training.notice_2_partly"


@dataclass(frozen=True)
class BottleneckReading:
    """Exact match by length of the two models, as notice 4 words it."""

    key: str  # training.notice_4, _flat, _both or _weak
    shortest: int
    longest: int
    without_first: float  # the model without attention at the shortest length
    without_last: float  # ... and at the longest
    with_lowest: float  # the model with attention at its worst length
    with_lowest_at: int


def bottleneck_reading(with_att: TrainRun, without: TrainRun) -> BottleneckReading:
    """Does the model without attention fall off with length (FALL), and does the one with attention stay near the
    top at every length (TOP)? Each of the four answers has its own sentence."""
    lowest = min(with_att.by_length, key=lambda row: row[1])
    first, last = without.by_length[0], without.by_length[-1]
    falls = first[1] - last[1] >= FALL
    top = lowest[1] >= TOP
    key = {(True, True): "notice_4", (False, True): "notice_4_flat", (True, False): "notice_4_both"}.get(
        (falls, top), "notice_4_weak"
    )
    return BottleneckReading(f"training.{key}", first[0], last[0], first[1], last[1], lowest[1], lowest[0])


@dataclass(frozen=True)
class SurvivalReading:
    """The names task: what the model without attention loses as sources grow, and whether attention keeps it."""

    key: str  # training.survival_lost, _both, _kept or _low
    lost: str  # training.item_*: what the model without attention loses ("name", "quantity", "both"; "" if none)
    without: tuple[Survival, Survival]  # the shortest and the longest length
    with_att: Survival  # the longest length

    def numbers(self) -> dict[str, object]:
        """The sentence's measured placeholders (lengths and rates as the page writes them); `lost` is translated
        by the caller."""
        (first, last), top = self.without, self.with_att
        return {
            "lo": first.length,
            "hi": last.length,
            "wo_name_lo": pct(first.name),
            "wo_qty_lo": pct(first.quantity),
            "wo_name_hi": pct(last.name),
            "wo_qty_hi": pct(last.quantity),
            "w_name_hi": pct(top.name),
            "w_qty_hi": pct(top.quantity),
        }


def survival_reading(with_att: Sequence[Survival], without: Sequence[Survival]) -> SurvivalReading:
    """An item is lost when its survival without attention is FALL lower at the longest length than at the
    shortest; attention keeps it when both items come through at least TOP of the time at the longest. Without a
    fall, the model without attention keeps both only when they come through at least TOP of the time at the
    shortest and the longest length alike; else both lengths are low (survival_low: too little training)."""
    first, last = without[0], without[-1]
    name_lost = first.name - last.name >= FALL
    qty_lost = first.quantity - last.quantity >= FALL
    lost = "both" if name_lost and qty_lost else "name" if name_lost else "quantity" if qty_lost else ""
    kept = min(with_att[-1].name, with_att[-1].quantity) >= TOP
    if lost:
        key = "survival_lost" if kept else "survival_both"
    else:  # no fall with length: kept throughout, or low already at the shortest (then nothing is "kept")
        key = "survival_kept" if min(first.name, first.quantity, last.name, last.quantity) >= TOP else "survival_low"
    return SurvivalReading(f"training.{key}", f"training.item_{lost}" if lost else "", (first, last), with_att[-1])


@dataclass(frozen=True)
class UntrainedReading:
    """The untrained picture: are its weights near-uniform, and is its output (by chance) already right?"""

    even: bool | None  # None without attention
    largest: float  # the largest weight (0 without attention)
    uniform: float  # 1 / the real (non-PAD) positions
    exact: bool


def untrained_reading(point: MapPoint) -> UntrainedReading:
    # An even split is over the real positions: PAD ones are masked to weight 0, so they take no share of it.
    real = sum(tok != PAD for tok in point.source)
    uniform = 1 / max(1, real)
    if point.weights is None:
        return UntrainedReading(None, 0.0, uniform, point.exact)
    largest = max(max(row) for row in point.weights)
    return UntrainedReading(largest <= EVEN * uniform, largest, uniform, point.exact)


def untrained_keys(reading: UntrainedReading) -> dict[str, str]:
    """The untrained picture's title and the two sentences of its note (weights, output)."""
    title = "training.untrained_map_title" if reading.even else "training.untrained_map_title_uneven"
    weights = {None: "training.untrained_weights_none", True: "training.untrained_weights_even"}.get(
        reading.even, "training.untrained_weights_uneven"
    )
    output = "training.untrained_output_right" if reading.exact else "training.untrained_output_wrong"
    return {"title": title, "weights": weights, "output": output}


def cut_short(run: TrainRun) -> bool:
    """The time limit stopped the run before its last step: its figures are those of a shorter training, and
    another machine (or a quieter moment) would have trained a different model."""
    return run.stopped_by == "time"


def loss_pad_key(check: LossCheck) -> str:
    """The PAD note under the loss check: what leaving PAD targets out changes, or that there are none here."""
    return "training.loss_pad_none" if check.n_real == check.n_total else "training.loss_pad_note"


def quiz_keys(answer: str) -> dict[str, str]:
    """The quiz's explanation and the accuracy tab's gap sentence for what the run measured (compute.quiz_answer):
    teacher forcing higher, about equal, or free-running higher."""
    return {"explain": f"training.quiz_explain_{answer}", "gap": f"training.gap_text_{answer}"}


def checkpoint_keys(point: MapPoint, source: SourceInput | None) -> dict[str, str | None]:
    """A checkpoint's map while its run trains (or replays): the title names its step (step 0: before the first
    update), and a note says so when it decodes the run's checkpoint source, not the source typed above it (the
    typed source's own map comes with the trained model). source: the typed source, None when it is bad."""
    title = "training.checkpoint_map_title_start" if point.step == 0 else "training.checkpoint_map_title"
    other = source is not None and (*source.tokens, *(PAD,) * source.n_pad) != tuple(point.source)
    return {"title": title, "note": "training.checkpoint_source_note" if other else None}
