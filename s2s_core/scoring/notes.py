"""Which sentence the Bahdanau-vs-Luong page says about the current states: each "what to notice" line and the
local-p Try-this note is chosen here from the live result, so no sentence claims what these inputs do not show.

Shapes: S source positions, H_d decoder size, H_e encoder size, A attention size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from s2s_core.fmt import num
from s2s_core.scoring import fields
from s2s_core.scoring.attend import Read
from s2s_core.scoring.compute import ScoringConfig, ScoringResult, compare, parse_config
from s2s_core.scoring.fields import HALF_WIDTH, WINDOW
from s2s_core.scoring.frames import position_label

# The local-p Try-this case: the learner's other inputs are forgotten, so it opens on the defaults plus these.
LOCAL_P_CASE = {WINDOW.key: "local_p", HALF_WIDTH.key: "2"}
# parse_config's arguments and the fields they come from (the typed states: FROM's default is "table").
CONFIG_FIELDS = {
    "dec_text": fields.DEC,
    "enc_rows": fields.ENC,
    "attn_size": fields.ATTN,
    "seed": fields.SEED,
    "scale": fields.SCALE,
    "focus": fields.FOCUS,
    "window": fields.WINDOW,
    "step": fields.STEP,
    "half_width": fields.HALF_WIDTH,
    "query_from": fields.QUERY,
    "context_into": fields.INTO,
}


@dataclass(frozen=True)
class KeysValues:
    """How each function that can score these states relates its keys to its values (notice 2)."""

    values: tuple[int, ...]  # the values' shape, (B, S, H_e): the encoder states themselves
    equal: tuple[str, ...]  # the keys ARE the values (dot, scaled dot)
    same_shape: tuple[str, ...]  # mapped keys that happen to have the values' shape (general at H_d = H_e, ...)
    other_shape: tuple[tuple[str, tuple[int, ...]], ...]  # mapped keys of another shape, with that shape (B, S, ·)


def keys_values(result: ScoringResult) -> KeysValues:
    """Read off the live tensors: which keys are the values, which have their shape, which another."""
    equal, same, other = [], [], []
    values: tuple[int, ...] = ()
    for f in result.functions:
        if f.read is None:
            continue
        keys, vals = f.read.keys, f.read.values  # (B, S, ·), (B, S, H_e)
        values = tuple(vals.shape)
        if f.maps == "none":
            equal.append(f.name)
        elif keys.shape == vals.shape:
            same.append(f.name)
        else:
            other.append((f.name, tuple(keys.shape)))
    return KeysValues(values, tuple(equal), tuple(same), tuple(other))


@dataclass(frozen=True)
class DistinctRows:
    """How many functions score these states, and how many different weight rows they give (notice 1)."""

    scoring: int
    distinct: int


def distinct_rows(result: ScoringResult, tol: float = 1e-9) -> DistinctRows:
    """Weight rows that differ by more than `tol` anywhere count as different (s = 0 gives one flat row)."""
    rows: list[torch.Tensor] = []
    for f in result.functions:
        if f.read is None:
            continue
        w = f.read.weights[0]  # (S,)
        if not any(torch.allclose(w, r, atol=tol, rtol=0) for r in rows):
            rows.append(w)
    return DistinctRows(sum(f.read is not None for f in result.functions), len(rows))


def rows_key(result: ScoringResult) -> str:
    """notice_1: the functions' rows all differ, or some coincide here (e.g. s = 0: every row flat)."""
    d = distinct_rows(result)
    return "scoring.notice_1" if d.distinct == d.scoring else "scoring.notice_1_equal"


def sizes_key(config: ScoringConfig, typed: bool) -> str:
    """notice_3: what typing into s does depends on whether s and the h_j have the same size now, and whether s
    is typed at all (read off an encoder, both have the encoder's size)."""
    if not typed:
        return "scoring.notice_3_encoder"
    same = len(config.dec_state) == len(config.enc_states[0])
    return "scoring.notice_3" if same else "scoring.notice_3_mismatch"


def same_weights(result: ScoringResult, focus: str) -> bool:
    """Does the step-wiring tab's scoring state give the same weights as section 1's typed s? (s_t need not differ
    in where it looks: equal scores everywhere give the same flat row.)"""
    if result.flow is None or result.get(focus).read is None:
        return False
    a, b = result.flow.read.weights[0], result.get(focus).read.weights[0]  # (S,), (S,)
    return bool(torch.allclose(a, b, atol=1e-9, rtol=0))


@dataclass(frozen=True)
class WindowSize:
    """How many positions a local window holds, and why that many (local_p_note)."""

    n: int  # positions inside the window and the sentence
    whole: int  # positions in [p - D, p + D] on a sentence long enough: 2D + 1 for a whole-number p, else 2D
    fractional: bool  # p falls between two positions
    half_width: int  # D


def window_size(result: ScoringResult, half_width: int) -> WindowSize | None:
    """The live window's size (None for global attention)."""
    w = result.window
    if w is None:
        return None
    return WindowSize(w.n_inside, w.n_window, w.center != round(w.center), half_width)


def local_p_case_config() -> ScoringConfig:
    """The state the local-p Try-this case opens: every field at its default (typed states), the case's window
    and half-width read from its link parameters as the page reads them."""
    raw = {f.key: f.default for f in CONFIG_FIELDS.values()} | {
        key: next(f for f in CONFIG_FIELDS.values() if f.key == key).parse(value) for key, value in LOCAL_P_CASE.items()
    }
    args = {name: raw[f.key] for name, f in CONFIG_FIELDS.items()}
    return parse_config(**args)


def window_size_key(size: WindowSize) -> str:
    """The sentence for a window's size: 2D positions around a fractional p, 2D + 1 around a whole one, fewer
    where the sentence ends first."""
    if size.n < size.whole:
        return "scoring.window_size_cut"
    return "scoring.window_size_fractional" if size.fractional else "scoring.window_size_whole"


def local_p_note_key() -> str:
    """The local-p Try-this note, chosen by the window that case really opens (its p is predicted, so usually
    fractional: 2D positions, not 2D + 1)."""
    config = local_p_case_config()
    size = window_size(compare(config), config.half_width)
    if size is None:  # local-p always has a window; a global one would mean the case changed
        raise ValueError("the local-p case opens no window")
    return window_size_key(size).replace("scoring.window_size_", "scoring.try_local_p_note_")


EVEN_SPREAD = 1.0  # scores within 1 of each other: exp keeps every ratio of weights below e ≈ 2.7


@dataclass(frozen=True)
class SoftmaxReading:
    """What the softmax made of this read's scores (the sentence under the one-function picture)."""

    key: str  # scoring.softmax_one | softmax_even | softmax_tie | softmax_peak
    numbers: dict[str, str]  # the sentence's live numbers, written by num()
    gauss: bool = False  # local-p: the Gaussian multiplies these softmax weights afterwards (softmax_before_gauss)


def softmax_reading(read: Read) -> SoftmaxReading:
    """Chosen from the scores inside the window: one position (it gets everything), scores within EVEN_SPREAD
    (nearly even weights), a shared top score (equal weights on it), or a top score whose lead over the runner-up
    becomes a factor exp(lead) between their weights. The weights named are softmax's own (align: before local-p's
    Gaussian)."""
    inside = [j for j in range(read.scores.shape[1]) if bool(read.mask[0, j])]
    order = sorted(inside, key=lambda j: -float(read.scores[0, j]))
    score = [float(read.scores[0, j]) for j in order]  # (n,) highest first
    align = [float(read.align[0, j]) for j in order]
    top = dict(position=position_label(order[0]), top=num(score[0]), weight=num(align[0]))
    gauss = read.gauss is not None
    if len(order) == 1:
        return SoftmaxReading("scoring.softmax_one", top, gauss)
    spread, lead = score[0] - score[-1], score[0] - score[1]
    if spread < EVEN_SPREAD:
        ratio = math.exp(spread)  # the largest weight over the smallest
        even = dict(spread=num(spread), ratio=num(ratio), low=num(align[-1]))
        return SoftmaxReading("scoring.softmax_even", top | even, gauss)
    if num(lead) == "0":  # tied at the top, as printed: softmax gives them the same weight
        tied = [position_label(j) for j, x in zip(order, score, strict=True) if num(score[0] - x) == "0"]
        return SoftmaxReading("scoring.softmax_tie", top | dict(positions=", ".join(tied)), gauss)
    second = dict(second=position_label(order[1]), lead=num(lead), factor=num(math.exp(lead)))
    return SoftmaxReading("scoring.softmax_peak", top | second | dict(second_weight=num(align[1])), gauss)
