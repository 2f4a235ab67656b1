"""Tidy pandas frames for the attention page (long format, ready for Altair)."""

from __future__ import annotations

import pandas as pd

from s2s_core.attention.compute import AttentionResult
from s2s_core.fmt import num


def position_label(s: int) -> str:
    """0-based source position -> 's1', 's2', ... (the label used in every table and chart)."""
    return f"s{s + 1}"


def step_label(t: int) -> str:
    """0-based decoder step -> 't1', 't2', ..."""
    return f"t{t + 1}"


def weights_frame(result: AttentionResult, pad: tuple[bool, ...]) -> pd.DataFrame:
    """One row per (step, position): score, masked score, weight, PAD flag."""
    T, S = result.weights.shape
    rows = []
    for t in range(T):
        for s in range(S):
            score = float(result.scores[t, s])
            rows.append(
                {
                    "step": step_label(t),
                    "position": position_label(s),
                    "score": score if score != float("-inf") else None,
                    "pad": bool(pad[s]),
                    "weight": float(result.weights[t, s]),
                }
            )
    return pd.DataFrame(rows)


def vectors_frame(result: AttentionResult, context_word: str = "context") -> pd.DataFrame:
    """Source vectors and context vectors, one row per (vector, component), for the side-by-side chart.

    context_word: the learner's word for "context" (the rows read "context t1", "문맥 t1", …).
    """
    rows = []
    S, D = result.values.shape
    for s in range(S):
        for d in range(D):
            rows.append(
                {
                    "vector": position_label(s),
                    "kind": "source",
                    "position": position_label(s),
                    "component": f"d{d + 1}",
                    "value": float(result.values[s, d]),
                }
            )
    for t in range(result.contexts.shape[0]):
        for d in range(D):
            rows.append(
                {
                    "vector": f"{context_word} {step_label(t)}",
                    "kind": "context",
                    "position": None,
                    "component": f"d{d + 1}",
                    "value": float(result.contexts[t, d]),
                }
            )
    return pd.DataFrame(rows)


def weighted_sum_text(result: AttentionResult, t: int, d: int) -> str:
    """'0.2×2 + 0.3×0 + 0.5×6 = 3.4' for step t, component d (numbers rounded for reading)."""
    w = result.weights[t].tolist()
    v = result.values[:, d].tolist()
    parts = " + ".join(f"{num(wi)}×{num(vi)}" for wi, vi in zip(w, v, strict=True))
    return f"{parts} = {num(float(result.contexts[t, d]))}"
