"""Tidy pandas frames and short texts for the Bahdanau-vs-Luong page (long format, ready for Altair)."""

from __future__ import annotations

import pandas as pd

from s2s_core.scoring.attend import Read
from s2s_core.scoring.compute import ScoringResult
from s2s_core.seq2seq.frames import fmt, matrix_frame, vector_text

__all__ = ["comparison_frame", "fmt", "masked_text", "matrix_frame", "position_label", "vector_text", "window_frame"]


def position_label(j: int) -> str:
    """0-based source position -> 's1', 's2', …"""
    return f"s{j + 1}"


def comparison_frame(result: ScoringResult, names: dict[str, str]) -> pd.DataFrame:
    """One row per (function, position) for every function that can score: score, weight, in window."""
    rows = []
    for f in result.functions:
        if f.read is None:
            continue
        for j in range(result.S):
            rows.append({
                "function": names[f.name],
                "position": position_label(j),
                "score": float(f.read.scores[0, j]),
                "weight": float(f.read.weights[0, j]),
                "in_window": bool(f.read.mask[0, j]),
            })
    return pd.DataFrame(rows)


def window_frame(read: Read) -> pd.DataFrame:
    """One row per position of one read: raw score, in window, softmax over the window, Gaussian, final weight."""
    S = read.scores.shape[1]
    return pd.DataFrame([{
        "position": position_label(j),
        "score": float(read.scores[0, j]),
        "in_window": bool(read.mask[0, j]),
        "align": float(read.align[0, j]),
        "gauss": None if read.gauss is None else float(read.gauss[0, j]),
        "weight": float(read.weights[0, j]),
    } for j in range(S)])


def masked_text(read: Read) -> str:
    """[0.61, −∞, …]: the scores the softmax actually sees."""
    return vector_text(read.masked_scores[0]).replace("-inf", "−∞")
