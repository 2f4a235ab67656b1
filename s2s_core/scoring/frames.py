"""Tidy pandas frames and short texts for the Bahdanau-vs-Luong page (long format, ready for Altair)."""

from __future__ import annotations

import math
from collections.abc import Mapping

import pandas as pd

from s2s_core.fmt import num, two, vec
from s2s_core.scoring.attend import Read


def position_label(j: int) -> str:
    """0-based source position -> 's1', 's2', …"""
    return f"s{j + 1}"


def peak(read: Read) -> tuple[int, float]:
    """Where a read looks hardest: the 0-based position with the largest weight, and that weight."""
    j = int(read.weights[0].argmax())  # (B=1, S) -> the first row's argmax
    return j, float(read.weights[0, j])


def position_parts(read: Read, j: int) -> dict[str, str] | None:
    """Position j's (0-based) part of the context, as the page writes it (score, weight, value, term = weight ×
    value, context); None when the window leaves j out (its score became −∞)."""
    if not bool(read.mask[0, j]):
        return None
    weight = float(read.weights[0, j])
    term = weight * read.values[0, j]  # () * (H_e,) -> (H_e,)
    return dict(
        score=num(float(read.scores[0, j])),
        weight=num(weight),
        value=vec(read.values[0, j]),
        term=vec(term),
        context=vec(read.context[0]),
    )


def softmax_steps(read: Read) -> tuple[list[float], float]:
    """The softmax written out, as the picture draws it between the scores and the weights: e_j = exp(score_j −
    max score) over the window (0 outside it), and their sum; align_j = e_j / sum. Subtracting the largest score
    changes nothing in the ratio and keeps every e_j in (0, 1] (PyTorch's softmax does the same)."""
    masked = read.masked_scores[0]  # (S,) −inf outside the window
    top = float(masked.max())
    exps = [0.0 if math.isinf(float(x)) else math.exp(float(x) - top) for x in masked.tolist()]
    return exps, sum(exps)


def comparison_tables(
    result, names: Mapping[str, str], columns: Mapping[str, str], missing: str
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, list[str | None]]:
    """The All-functions tab's compact tables, one row per score function (a ScoringResult's functions): the signed
    scores, the weights, and the context (its own table: beside S weights it would not fit a phone's width);
    numbers by two(). Also each row's dominant position (its largest weight; None for a function that cannot
    score), which the page highlights. columns: function, context.
    """
    positions = [position_label(j) for j in range(result.S)]
    scores, weights, contexts, peaks = [], [], [], []
    for f in result.functions:
        head = {columns["function"]: names[f.name]}
        read = f.read
        if read is None:
            blank = dict.fromkeys(positions, "") | {positions[0]: missing}
            scores.append(head | blank)
            weights.append(head | blank)
            contexts.append(head | {columns["context"]: missing})
            peaks.append(None)
            continue
        scores.append(head | {p: two(read.masked_scores[0, j], sign=True) for j, p in enumerate(positions)})
        context = "[" + ", ".join(two(x) for x in read.context[0].tolist()) + "]"
        weights.append(head | {p: two(read.weights[0, j]) for j, p in enumerate(positions)})
        contexts.append(head | {columns["context"]: context})
        peaks.append(position_label(peak(read)[0]))
    return pd.DataFrame(scores), pd.DataFrame(weights), pd.DataFrame(contexts), peaks


def masked_text(read: Read) -> str:
    """[0.61, −∞, …]: the scores the softmax actually sees."""
    return vec(read.masked_scores[0])


def total(tensor) -> str:
    """The sum of a weights row, as the page prints it."""
    return num(tensor.sum())


def states_table(rows: tuple[tuple[float, ...], ...]) -> pd.DataFrame:
    """Encoder states as a small read-only table: one row per source position."""
    return pd.DataFrame(
        [[position_label(j), *r] for j, r in enumerate(rows)], columns=["", *[f"h{i + 1}" for i in range(len(rows[0]))]]
    )


def param_tables(params) -> list[tuple[str, tuple[int, ...], list[list[str]]]]:
    """Each learned weight as (name, shape, rows of short numbers); a vector becomes one row."""
    out = []
    for name, tensor in params:
        matrix = tensor if tensor.dim() == 2 else tensor.unsqueeze(0)
        out.append((name, tuple(tensor.shape), [[num(x) for x in row] for row in matrix.tolist()]))
    return out
