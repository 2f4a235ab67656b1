"""The math of the attention-weighting page: scores or weights -> masked softmax -> contexts.

Shapes: S source positions, D size of each source (value) vector, T decoder steps.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import torch

from s2s_core.attention import fields
from s2s_core.attention.fields import DEFAULT_SOURCES, DEFAULT_WEIGHTS, MAX_DIM, MAX_POSITIONS, MAX_STEPS
from s2s_core.errors import InputError
from s2s_core.fmt import vec
from s2s_core.validate import parse_matrix

Mode = Literal["weights", "scores"]
SUM_TOL = 1e-6  # a weights row "sums to 1" within this tolerance


@dataclass(frozen=True)
class AttentionConfig:
    """Everything the page's inputs decide (hashable, so it is a cache key)."""

    sources: tuple[tuple[float, ...], ...] = DEFAULT_SOURCES  # (S, D) values
    steps: tuple[tuple[float, ...], ...] = DEFAULT_WEIGHTS  # (T, S) weights or raw scores
    mode: Mode = "weights"
    pad: tuple[bool, ...] = (False, False, False)  # (S,) True marks a PAD position


@dataclass(frozen=True)
class AttentionResult:
    """Every intermediate the page shows, all computed from the config."""

    values: torch.Tensor  # (S, D) source vectors: what gets summed
    scores: torch.Tensor  # (T, S) raw scores (weights mode: log of the weights, as in the seed's script)
    masked_scores: torch.Tensor  # (T, S) PAD positions set to -inf
    weights: torch.Tensor  # (T, S) softmax over source positions; 0 at PAD
    weight_sums: torch.Tensor  # (T,) each row's sum (1 up to rounding)
    terms: torch.Tensor  # (T, S, D) weight[t, s] * value[s, d]: the written-out sum
    contexts: torch.Tensor  # (T, D) the context vector of each decoder step
    given_sums: tuple[float, ...]  # weights mode: each row's sum as typed (over real positions)
    rows_not_one: tuple[int, ...]  # weights mode: 0-based steps whose typed row does not sum to 1
    hand_contexts: tuple[tuple[float, ...], ...]  # the same contexts by plain Python loops
    max_abs_diff: float  # |hand - torch| over all contexts: the on-screen check
    dominant: tuple[int, ...]  # (T,) 0-based source position with the largest weight per step
    distances: torch.Tensor  # (T, S) ||context_t - value_s||; inf at PAD (not a source to compare with)
    runner_up: tuple[int | None, ...]  # (T,) the real position nearest the context other than the dominant one
    dominant_vs_rest: tuple[str, ...]  # (T,) the context is "nearer" the dominant vector than the runner-up,
    #   "tie", "farther", or "alone" (the only real position); selects the quiz's answer and explanation


def parse_config(
    sources_rows: list[list[object]],
    steps_rows: list[list[object]],
    mode: str,
    pad: list[bool] | tuple[bool, ...],
) -> AttentionConfig:
    """Validate raw table cells into a config; the first problem raises InputError naming its field."""
    mode = fields.MODE.check(mode)
    sources = parse_matrix(sources_rows, fields.SOURCES.label, max_rows=MAX_POSITIONS, max_cols=MAX_DIM)
    S = len(sources)
    steps = parse_matrix(steps_rows, fields.STEPS.label, n_cols=S, max_rows=MAX_STEPS, max_cols=MAX_POSITIONS)
    pad = tuple(bool(p) for p in pad)[:S]
    pad = pad + (False,) * (S - len(pad))
    if all(pad):
        raise InputError("attention.error.all_pad", fields.PAD.label)
    if mode == "weights":
        for t, row in enumerate(steps, start=1):
            for s, w in enumerate(row, start=1):
                if w < 0:
                    raise InputError("attention.error.negative_weight", fields.STEPS.label, row=t, col=s)
            real = [w for w, p in zip(row, pad, strict=True) if not p]
            if sum(real) <= 0:
                raise InputError("attention.error.zero_row", fields.STEPS.label, row=t)
    return AttentionConfig(
        sources=tuple(tuple(r) for r in sources),
        steps=tuple(tuple(r) for r in steps),
        mode=mode,  # type: ignore[arg-type]
        pad=pad,
    )


def _hand_contexts(weights: list[list[float]], values: list[list[float]]) -> tuple[tuple[float, ...], ...]:
    """context[t][d] = sum_s weight[t][s] * value[s][d], written as the loops a learner would do by hand."""
    out = []
    for w_row in weights:
        out.append(
            tuple(sum(w * v_row[d] for w, v_row in zip(w_row, values, strict=True)) for d in range(len(values[0])))
        )
    return tuple(out)


def compare_distances(to_dominant: float, to_runner_up: float) -> str:
    """ "nearer", "tie" or "farther": equal up to float rounding counts as a tie (the seed's step t1 is one)."""
    if math.isclose(to_dominant, to_runner_up, rel_tol=1e-9, abs_tol=1e-12):
        return "tie"
    return "nearer" if to_dominant < to_runner_up else "farther"


def attention_weighting(config: AttentionConfig) -> AttentionResult:
    """scores -> mask PAD with -inf -> softmax over source positions -> weights @ values."""
    values = torch.tensor(config.sources, dtype=torch.float64)  # (S, D)
    raw = torch.tensor(config.steps, dtype=torch.float64)  # (T, S)
    real = ~torch.tensor(config.pad, dtype=torch.bool)  # (S,) True at real tokens

    # 1) Scores. Weights mode follows the seed's script: score = log(weight), so softmax gives the
    #    weights back (renormalised over real positions when a row does not sum to 1).
    scores = torch.log(raw) if config.mode == "weights" else raw  # (T, S)
    # 2) PAD positions get -inf before softmax, so exp(-inf) = 0 weight, exactly.
    masked_scores = scores.masked_fill(~real.unsqueeze(0), float("-inf"))  # (T, S)
    # 3) Softmax over the source axis (the last one): each row is a distribution over positions.
    weights = torch.softmax(masked_scores, dim=-1)  # (T, S)
    # 4) Weighted sum of the values: one context vector per decoder step.
    terms = weights.unsqueeze(-1) * values.unsqueeze(0)  # (T, S, 1) * (1, S, D) -> (T, S, D)
    contexts = weights @ values  # (T, S) @ (S, D) -> (T, D)

    given_sums: tuple[float, ...] = ()
    rows_not_one: tuple[int, ...] = ()
    if config.mode == "weights":
        given_sums = tuple(float(raw[t][real].sum()) for t in range(raw.shape[0]))
        rows_not_one = tuple(t for t, s in enumerate(given_sums) if not math.isclose(s, 1.0, abs_tol=SUM_TOL))

    hand = _hand_contexts(weights.tolist(), values.tolist())
    diff = (torch.tensor(hand, dtype=torch.float64) - contexts).abs().max().item()

    # 5) Which source vector each context lands nearest. The largest weight does not decide it: a weighted
    #    average can sit closer to several lighter vectors than to the heaviest one.
    dominant = weights.argmax(dim=-1)  # (T,)
    distances = (contexts.unsqueeze(1) - values.unsqueeze(0)).norm(dim=-1)  # (T, 1, D) - (1, S, D) -> (T, S)
    distances = distances.masked_fill(~real.unsqueeze(0), float("inf"))  # (T, S)
    runner_up, verdicts = [], []
    for t, d in enumerate(dominant.tolist()):
        others = distances[t].clone()  # (S,)
        others[d] = float("inf")
        best = int(others.argmin()) if torch.isfinite(others).any() else None
        runner_up.append(best)
        verdicts.append("alone" if best is None else compare_distances(float(distances[t, d]), float(others[best])))
    return AttentionResult(
        values=values,
        scores=scores,
        masked_scores=masked_scores,
        weights=weights,
        weight_sums=weights.sum(dim=-1),  # (T,)
        terms=terms,
        contexts=contexts,
        given_sums=given_sums,
        rows_not_one=rows_not_one,
        hand_contexts=hand,
        max_abs_diff=float(diff),
        dominant=tuple(int(i) for i in dominant.tolist()),
        distances=distances,
        runner_up=tuple(runner_up),
        dominant_vs_rest=tuple(verdicts),
    )


@dataclass(frozen=True)
class PadWhatIf:
    """The quiz's edit before it is made: mark `position` as PAD and recompute step `step`'s context.

    after: the real recomputation (the PAD score becomes -inf, softmax renormalises the others);
    dropped: the tempting shortcut, the old sum without that position's term (weights not renormalised);
    now: the context as it is. All (D,) as plain tuples.
    """

    step: int  # 0-based decoder step
    position: int  # 0-based source position the learner is asked to mark as PAD
    after: tuple[float, ...]
    dropped: tuple[float, ...]
    now: tuple[float, ...]
    weights_after: tuple[float, ...]  # (S,) the step's weights once the position is PAD
    rest: float  # the other positions' share before the edit (what `dropped` sums with)

    @property
    def answer(self) -> str:
        """The right answer as the question lists it: the recomputed context."""
        return vec(self.after)

    @property
    def options(self) -> tuple[str, ...]:
        """The question's candidates (the real recomputation, the term just deleted, no change), sorted: the
        answer's place in the list says nothing."""
        return tuple(sorted({vec(self.after), vec(self.dropped), vec(self.now)}))


def pad_what_if(config: AttentionConfig, result: AttentionResult, step: int = 0) -> PadWhatIf | None:
    """What marking the heaviest real position of `step` as PAD does to its context.

    None when no such edit is telling: fewer than two real positions, or every candidate would leave the
    other weights summing to 0 (the page would reject that edit) or carry no weight at all.
    """
    if not 0 <= step < result.weights.shape[0]:
        return None
    real = [s for s, p in enumerate(config.pad) if not p]
    for position in sorted(real, key=lambda s: -float(result.weights[step, s])):  # heaviest first
        pad = tuple(p or s == position for s, p in enumerate(config.pad))
        if float(result.weights[step, position]) <= 0 or len(real) < 2:
            return None
        if config.mode == "weights" and sum(config.steps[step][s] for s in real if s != position) <= 0:
            continue  # nothing left to normalise: the page would reject this edit
        redone = attention_weighting(AttentionConfig(config.sources, config.steps, config.mode, pad))
        dropped = result.contexts[step] - result.terms[step, position]  # (D,) - (D,) -> (D,)
        return PadWhatIf(
            step=step,
            position=position,
            after=tuple(redone.contexts[step].tolist()),
            dropped=tuple(dropped.tolist()),
            now=tuple(result.contexts[step].tolist()),
            weights_after=tuple(redone.weights[step].tolist()),
            rest=1.0 - float(result.weights[step, position]),
        )
    return None
