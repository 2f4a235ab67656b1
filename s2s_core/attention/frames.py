"""Tidy pandas frames for the attention page (long format, ready for Altair)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd

from s2s_core.attention.compute import AttentionConfig, AttentionResult
from s2s_core.fmt import num, vec

# The learner's text templates `picture_frames` fills in (catalog keys under "attention.chart.").
WORDS = ("context", "term", "source", "pad", "link_aria", "divide", "chain_sum", "chain_aria", "pad_cell")


def position_label(s: int) -> str:
    """0-based source position -> 's1', 's2', ... (the label used in every table and chart)."""
    return f"s{s + 1}"


def step_label(t: int) -> str:
    """0-based decoder step -> 't1', 't2', ..."""
    return f"t{t + 1}"


def position_index(result: AttentionResult, label: object) -> int | None:
    """The 0-based source position a label names ('s2' -> 1), or None when these sources have no such one
    (nothing picked, or a pick from a link or an earlier input with more rows)."""
    names = [position_label(s) for s in range(result.values.shape[0])]
    return names.index(label) if label in names else None


def weighted_sum_text(result: AttentionResult, t: int, d: int) -> str:
    """'0.2×2 + 0.3×0 + 0.5×6 = 3.4' for step t, component d (numbers rounded for reading)."""
    w = result.weights[t].tolist()
    v = result.values[:, d].tolist()
    parts = " + ".join(f"{num(wi)}×{num(vi)}" for wi, vi in zip(w, v, strict=True))
    return f"{parts} = {num(float(result.contexts[t, d]))}"


# --- the picture: the weighted sum itself ------------------------------------------------------------------


@dataclass(frozen=True)
class Picture:
    """The attention picture's data, one tidy frame per layer (steps are 1-based: the slider's values).

    layout: "plane" when D = 2 (sources are points in the plane, each context their weighted average),
    "lines" otherwise (sources on the left, decoder steps on the right, one line per (step, source)).
    Frames: sources (one row per position), links (one per step × position, ending at that step's context
    or step node), contexts (one per step), and the same links/contexts of the previous input (`before_*`,
    empty until there was an edit), drawn faintly behind.
    The chain of the chosen step, drawn under the plot: `chain` holds one row per step × position (what the
    second table gave that position, the weight it got), `chain_steps` one row per step (what turned the given
    row into weights, the weighted sum). `mode` says what the given row is: "scores" (softmax makes the weights)
    or "weights" (typed directly: divided by their sum, no scores and no softmax).
    """

    layout: str
    mode: str
    sources: pd.DataFrame
    links: pd.DataFrame
    contexts: pd.DataFrame
    before_links: pd.DataFrame
    before_contexts: pd.DataFrame
    chain: pd.DataFrame
    chain_steps: pd.DataFrame


def layout_of(result: AttentionResult) -> str:
    """ "plane" for 2-component sources (drawn where they are), "lines" for any other size."""
    return "plane" if result.values.shape[1] == 2 else "lines"


def _points(result: AttentionResult) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Where each source and each step's end point sit: the vectors themselves on the plane; on the lines
    layout sources at x = 0 (top to bottom) and decoder steps at x = 1, spread over the same height."""
    T, S = result.weights.shape
    if layout_of(result) == "plane":
        sources = [(float(v[0]), float(v[1])) for v in result.values]
        ends = [(float(c[0]), float(c[1])) for c in result.contexts]
        return sources, ends
    sources = [(0.0, float(s)) for s in range(S)]
    spread = (S - 1) / (T - 1) if T > 1 else 0.0
    ends = [(1.0, float(t) * spread if T > 1 else (S - 1) / 2) for t in range(T)]
    return sources, ends


def _link_rows(result: AttentionResult, pad: tuple[bool, ...], words: Mapping[str, str]) -> list[dict]:
    """One row per (step, source): from the source to the step's end, with its weight and its term."""
    sources, ends = _points(result)
    rows = []
    T, S = result.weights.shape
    for t in range(T):
        for s in range(S):
            w = float(result.weights[t, s])
            term = words["term"].format(weight=num(w), vector=vec(result.values[s]), product=vec(result.terms[t, s]))
            rows.append(
                {
                    "step": t + 1,
                    "position": position_label(s),
                    "x": sources[s][0],
                    "y": sources[s][1],
                    "x2": ends[t][0],
                    "y2": ends[t][1],
                    "weight": w,
                    "pad": bool(pad[s]),
                    "aria": words["link_aria"].format(step=step_label(t), position=position_label(s), term=term),
                }
            )
    return rows


def _context_rows(result: AttentionResult, words: Mapping[str, str]) -> list[dict]:
    _, ends = _points(result)
    rows = []
    for t in range(result.contexts.shape[0]):
        label = words["context"].format(step=step_label(t), vector=vec(result.contexts[t]))
        rows.append({"step": t + 1, "x": ends[t][0], "y": ends[t][1], "label": label, "node": step_label(t)})
    return rows


def _chain_rows(result: AttentionResult, config: AttentionConfig, words: Mapping[str, str]) -> list[dict]:
    """One row per (step, position): the value the second table gave it and the weight it got.

    In scores mode a PAD position's score is shown as the −∞ it becomes before the softmax; in weights mode a
    PAD position's typed weight is left out of the sum (`masked`), so its weight is 0 either way.
    """
    rows = []
    T, S = result.weights.shape
    for t in range(T):
        for s in range(S):
            masked = bool(config.pad[s])
            given = float(result.masked_scores[t, s]) if config.mode == "scores" else float(config.steps[t][s])
            given_text = num(given) if not masked or config.mode == "scores" else words["pad_cell"]
            weight = float(result.weights[t, s])
            rows.append(
                {
                    "step": t + 1,
                    "position": position_label(s),
                    "col": s,
                    "given": given if not masked else 0.0,
                    "given_text": given_text,
                    "masked": masked,
                    "weight": weight,
                    "aria": words["chain_aria"].format(
                        step=step_label(t), position=position_label(s), given=given_text, weight=num(weight)
                    ),
                }
            )
    return rows


def _chain_step_rows(result: AttentionResult, config: AttentionConfig, words: Mapping[str, str]) -> list[dict]:
    """One row per step: the step's name, what made its weights (weights mode: ÷ the typed row's sum), its sum."""
    rows = []
    for t in range(result.weights.shape[0]):
        divide = words["divide"].format(total=num(result.given_sums[t])) if config.mode == "weights" else ""
        rows.append(
            {
                "step": t + 1,
                "name": step_label(t),
                "divide": divide,
                "sum": words["chain_sum"].format(step=step_label(t), vector=vec(result.contexts[t])),
            }
        )
    return rows


def picture_frames(
    result: AttentionResult,
    config: AttentionConfig,
    words: Mapping[str, str],
    before: tuple[AttentionResult, AttentionConfig] | None = None,
) -> Picture:
    """The picture's data from the live result (and the previous input's result, drawn faintly).

    words: the learner's text templates: "context" ({step}, {vector}), "term" ({weight}, {vector},
    {product}), "source" ({position}, {vector}), "pad" ({position}), "link_aria" ({step}, {position}, {term}),
    "divide" ({total}), "chain_sum" ({step}, {vector}), "chain_aria" ({step}, {position}, {given}, {weight}),
    "pad_cell" (a PAD position's typed weight, left out of the sum).
    The previous picture is kept only when it has the same layout (its points mean the same thing).
    """
    pad = config.pad
    src, _ = _points(result)
    sources = []
    for s in range(result.values.shape[0]):
        x, y = src[s]
        name = words["pad"].format(position=position_label(s)) if pad[s] else position_label(s)
        sources.append(
            {
                "position": position_label(s),
                "x": x,
                "y": y,
                "pad": bool(pad[s]),
                "name": name,
                "label": words["source"].format(position=name, vector=vec(result.values[s])),
                # The arrow's head points away from the origin (0 degrees = up, clockwise).
                "angle": 90.0 - math.degrees(math.atan2(y, x)) if (x or y) else 0.0,
            }
        )
    keep_before = before is not None and layout_of(before[0]) == layout_of(result)
    empty_links = pd.DataFrame(columns=["step", "position", "x", "y", "x2", "y2", "weight", "pad", "aria"])
    empty_contexts = pd.DataFrame(columns=["step", "x", "y", "label", "node"])
    return Picture(
        layout=layout_of(result),
        mode=config.mode,
        sources=pd.DataFrame(sources),
        links=pd.DataFrame(_link_rows(result, pad, words)),
        contexts=pd.DataFrame(_context_rows(result, words)),
        before_links=pd.DataFrame(_link_rows(before[0], before[1].pad, words)) if keep_before else empty_links,
        before_contexts=pd.DataFrame(_context_rows(before[0], words)) if keep_before else empty_contexts,
        chain=pd.DataFrame(_chain_rows(result, config, words)),
        chain_steps=pd.DataFrame(_chain_step_rows(result, config, words)),
    )


def step_sum_text(result: AttentionResult, t: int) -> str:
    """'0.2×[2, 0] + 0.3×[0, 4] + 0.5×[6, 2] = [3.4, 2.2]' for step t (0-based): the weighted sum in one line."""
    parts = " + ".join(
        f"{num(float(result.weights[t, s]))}×{vec(result.values[s])}" for s in range(result.values.shape[0])
    )
    return f"{parts} = {vec(result.contexts[t])}"
