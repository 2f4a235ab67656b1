"""Altair charts and the wiring diagram (Graphviz DOT text) for the Bahdanau-vs-Luong page. No streamlit."""

from __future__ import annotations

from collections.abc import Mapping

import altair as alt
import pandas as pd

from s2s_core.chartkit import FIT_X, records
from s2s_core.fmt import NUM_D3, TWO_D3
from s2s_core.scoring.attend import Read
from s2s_core.scoring.compute import ScoringResult
from s2s_core.scoring.flow import FlowResult
from s2s_core.scoring.picture import (
    F_SCORE_HALF,
    FOCUS_PX,
    FONT,
    THEME,
    band_frame,
    bar_chart,
    bar_frame,
    gauss_line,
    number_row,
    picture_title,
    position_axis,
    row_axis,
    score_bars,
    weight_bars,
    window_band,
)

# The words the window chart takes (catalog keys under "scoring.chart."; its title names the function, so the page
# fills that one in), and the wiring diagram's node and edge names (under "scoring.diagram.").
WINDOW_WORDS = ("position", "weight", "score", "align", "gauss", "exp", "p")
# The window picture's rows, top to bottom, in units of FOCUS_PX (as the main picture's): the scores' name, their
# bars around a zero line (labels outside them), the softmax's name, exp(score − max) per position, its weights
# (bars rising to 1.2 units above their base, values on top); for local-p the Gaussian's name, its factors and the
# final weights.
W_SCORES_NAME, W_SCORE_ZERO = 0.3, 1.5
W_SOFTMAX_NAME, W_EXP, W_ALIGN_BASE = 2.7, 3.1, 5.05
W_GAUSS_NAME, W_GAUSS, W_WEIGHT_BASE = 5.45, 5.85, 7.8
DIAGRAM_WORDS = (
    "y",
    "s_prev",
    "enc",
    "score",
    "weights",
    "context",
    "gru",
    "s_t",
    "combine",
    "combined",
    "logits",
    "keys_edge",
    "values_edge",
)


def window_picture(read: Read, labels: Mapping[str, str]) -> alt.LayerChart:
    """The Global vs local tab's picture, in the main picture's language (s2s_core/scoring/picture.py, whose pieces
    it reuses): the signed scores around a zero line (dashed outside the window, whose score becomes −∞), the window
    over the rows with its centre p, the softmax over the window written out (exp(score − max) per position, then
    its weights as filled bars with their values), and for local-p the Gaussian factor of each position, the
    Gaussian as a dashed line and the final weights it leaves (not renormalised) in a row of their own.

    labels: title, subtitle, description, scores, softmax and gauss_row (row names), and WINDOW_WORDS."""
    local_p = read.gauss is not None
    last_base = W_WEIGHT_BASE if local_p else W_ALIGN_BASE
    units = last_base + 0.45  # room for "p = …" under the window
    S = read.scores.shape[1]
    frame = bar_frame(read, W_SCORE_ZERO, W_WEIGHT_BASE, align_base=W_ALIGN_BASE)
    band = band_frame(read, W_SCORE_ZERO - F_SCORE_HALF - 0.25, last_base + 0.05)
    x, y = position_axis(S, title=labels["position"]), row_axis(units)
    inside = alt.condition("datum.inside", alt.value(1.0), alt.value(0.45))
    tip = [
        alt.Tooltip("position:N", title=labels["position"]),
        alt.Tooltip("score:Q", title=labels["score"], format=NUM_D3),
        alt.Tooltip("exp:Q", title=labels["exp"], format=NUM_D3),
        alt.Tooltip("align:Q", title=labels["align"], format=NUM_D3),
        *([alt.Tooltip("gauss:Q", title=labels["gauss"], format=NUM_D3)] if local_p else []),
        alt.Tooltip("weight:Q", title=labels["weight"], format=NUM_D3),
    ]
    names = [(labels["scores"], W_SCORES_NAME), (labels["softmax"], W_SOFTMAX_NAME)]
    names += [(labels["gauss_row"], W_GAUSS_NAME)] if local_p else []
    bars = bar_chart(frame)
    layers = [
        *window_band(band, x, y, labels["p"]),
        alt.Chart(records(pd.DataFrame([{"text": text, "y": at, "x": 0.55} for text, at in names])))
        .mark_text(color=THEME, align="left", baseline="middle", fontSize=FONT, fontWeight="bold")
        .encode(x=x.channel, y=y.channel, text="text:N"),
        *score_bars(bars, frame["inside"], x, y, S, inside, tip),
        number_row(bars, x, y, S, f"format(datum.exp, '{TWO_D3}')", W_EXP),
        # Before local-p's Gaussian the softmax's weights are the final ones; with it, they stand faded above them.
        *weight_bars(bars, x, y, S, alt.value(0.55) if local_p else inside, tip, field="align", at="a"),
    ]
    if local_p:
        layers += [
            number_row(bars, x, y, S, f"'× ' + format(datum.gauss, '{TWO_D3}')", W_GAUSS),
            gauss_line(bars, x, y, labels["gauss"]),  # behind the final weights, whose numbers stay on top
            *weight_bars(bars, x, y, S, inside, tip),
        ]
    return alt.layer(
        *layers,
        title=picture_title(labels),
        description=labels["description"],
        width="container",
        autosize=FIT_X,
        height=int(units * FOCUS_PX),
    )


def _shape(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(n) for n in shape) + ")"


def flow_dot(flow: FlowResult, labels: dict[str, str]) -> str:
    """The step's data flow with each live tensor's shape. labels: translated node names (no user text)."""
    shapes = dict(flow.shapes)

    def node(name: str, label_key: str, tensor: str | None, style: str = "box") -> str:
        shape = f"\\n{_shape(shapes[tensor])}" if tensor else ""
        text = labels[label_key].replace('"', "'")
        fill = "#fff3e0" if style == "op" else "#e8f0fe"
        kind = "ellipse" if style == "op" else "box"
        return f'  {name} [label="{text}{shape}", shape={kind}, style="rounded,filled", fillcolor="{fill}"];'

    lines = [
        "digraph step {",
        "  rankdir=TB; nodesep=0.25; ranksep=0.3;",
        '  node [fontname="Noto Sans CJK KR, sans-serif", fontsize=11];',
        node("y", "y", "y"),
        node("s_prev", "s_prev", "s_prev"),
        node("enc", "enc", "enc"),
        node("score", "score", None, "op"),
        node("weights", "weights", "weights"),
        node("context", "context", "context"),
        node("gru", "gru", None, "op"),
        node("s_t", "s_t", "s_t"),
        node("logits", "logits", "logits"),
    ]
    edges = [
        ("enc", "score"),
        ("score", "weights"),
        ("weights", "context"),
        ("enc", "context"),
        ("y", "gru"),
        ("s_prev", "gru"),
        ("gru", "s_t"),
    ]
    edges.append(("s_prev", "score") if flow.query_from == "previous" else ("s_t", "score"))
    if flow.context_into == "input":
        edges += [("context", "gru"), ("s_t", "logits")]
    else:
        lines += [node("combine", "combine", None, "op"), node("combined", "combined", "combined")]
        edges += [("context", "combine"), ("s_t", "combine"), ("combine", "combined"), ("combined", "logits")]
    query_edge = ("s_prev", "score") if flow.query_from == "previous" else ("s_t", "score")
    edge_labels = {("enc", "score"): labels["keys_edge"], ("enc", "context"): labels["values_edge"]}
    for a, b in edges:
        attrs = ['color="#ff4b4b"', "penwidth=2"] if (a, b) == query_edge else []
        if (a, b) in edge_labels:
            attrs.append(f'label="{edge_labels[(a, b)]}", fontsize=10')
        lines.append(f"  {a} -> {b}" + (f" [{', '.join(attrs)}]" if attrs else "") + ";")
    lines.append("}")
    return "\n".join(lines)


def page_charts(result: ScoringResult, focus: str, labels: dict[str, str]) -> dict[str, alt.TopLevelMixin]:
    """The page's charts by name (the page caches their Vega-Lite dicts): the window of the function in focus.

    labels: window_picture's (the score functions themselves are compared in s2s_core/scoring/picture.py).
    """
    shown = result.shown(focus)  # the window is the same for all
    return {"window": window_picture(shown.read, labels)}
