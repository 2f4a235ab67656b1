"""Altair charts and the wiring diagram (Graphviz DOT text) for the Bahdanau-vs-Luong page. No streamlit."""

from __future__ import annotations

import altair as alt
import pandas as pd

from s2s_core.chartkit import ordered
from s2s_core.fmt import NUM_D3
from s2s_core.scoring.compute import ScoringResult
from s2s_core.scoring.flow import FlowResult
from s2s_core.scoring.frames import window_frame

# The words the window chart takes (catalog keys under "scoring.chart."; its title names the function, so the page
# fills that one in), and the wiring diagram's node and edge names (under "scoring.diagram.").
WINDOW_WORDS = ("position", "weight", "score", "align", "gauss")
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


def window_chart(frame: pd.DataFrame, labels: dict[str, str]) -> alt.LayerChart:
    """Final weights as bars (grey outside the window); Luong's Gaussian as a line when there is one."""
    order = ordered(frame["position"])  # s1 … sS, left to right, whatever Vega saw before
    bars = (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("position:N", title=labels["position"], sort=order),
            y=alt.Y("weight:Q", title=labels["weight"], scale=alt.Scale(domain=[0, 1])),
            color=alt.condition("datum.in_window", alt.value("#ff8c42"), alt.value("#d0d0d0")),
            tooltip=[
                alt.Tooltip("position:N", title=labels["position"]),
                alt.Tooltip("score:Q", title=labels["score"], format=NUM_D3),
                alt.Tooltip("align:Q", title=labels["align"], format=NUM_D3),
                alt.Tooltip("weight:Q", title=labels["weight"], format=NUM_D3),
            ],
        )
    )
    layers = [bars]
    if frame["gauss"].notna().any():
        layers.append(
            alt.Chart(frame)
            .mark_line(point=True, color="#1f77b4", strokeDash=[5, 3])
            .encode(
                x=alt.X("position:N", sort=order),
                y="gauss:Q",
                tooltip=[alt.Tooltip("gauss:Q", title=labels["gauss"], format=NUM_D3)],
            )
        )
    return alt.layer(*layers).properties(title=labels["title"], height=220, width="container")


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

    labels: translated titles and axis names: window_title, position, weight, score, align, gauss (the score
    functions themselves are compared in s2s_core/scoring/picture.py).
    """
    shown = result.shown(focus)  # the window is the same for all
    return {"window": window_chart(window_frame(shown.read), {**labels, "title": labels["window_title"]})}
