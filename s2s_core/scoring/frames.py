"""Tidy pandas frames and short texts for the Bahdanau-vs-Luong page (long format, ready for Altair)."""

from __future__ import annotations

import pandas as pd

from s2s_core.fmt import num, vec
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


def window_frame(read: Read) -> pd.DataFrame:
    """One row per position of one read: raw score, in window, softmax over the window, Gaussian, final weight."""
    S = read.scores.shape[1]
    return pd.DataFrame(
        [
            {
                "position": position_label(j),
                "score": float(read.scores[0, j]),
                "in_window": bool(read.mask[0, j]),
                "align": float(read.align[0, j]),
                "gauss": None if read.gauss is None else float(read.gauss[0, j]),
                "weight": float(read.weights[0, j]),
            }
            for j in range(S)
        ]
    )


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
