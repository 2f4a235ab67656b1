"""Altair charts for the RNN page: the unrolled graph with shared weights, the h_t timeline, one step's terms.

Highlights (the current step) come from plain data columns with scale=None, not alt.condition: Altair
validates every condition against the Vega-Lite schema, which made these charts slow to build.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from s2s_core.chartkit import with_cell_label
from s2s_core.fmt import NUM_D3
from s2s_core.rnn.frames import TERMS

# One colour per shared weight, used in the graph and in the step bars alike.
WEIGHT_COLORS = {"W_x": "#1f77b4", "W_h": "#d62728", "b": "#7f7f7f"}
TERM_COLORS = (WEIGHT_COLORS["W_x"], WEIGHT_COLORS["W_h"], WEIGHT_COLORS["b"], "#9467bd", "#2ca02c")
CURRENT_FILL, OTHER_FILL = "#ffd166", "#eeeeee"


def unroll_chart(nodes: pd.DataFrame, edges: pd.DataFrame, labels: dict[str, str]) -> alt.LayerChart:
    """x_t → h_t (W_x) and h_(t-1) → h_t (W_h) at every step: the same two colours everywhere = the same weights.

    Three layers only (arrows, nodes, all text): each layer costs a schema validation when Streamlit draws it.
    """
    S = int(nodes["x"].max())
    xs = alt.Scale(domain=[-0.4, S + 0.5], nice=False)
    ys = alt.Scale(domain=[-0.55, 1.35], nice=False)
    edges = edges.assign(
        color=edges["weight"].map(WEIGHT_COLORS),
        width=edges["current"].map({True: 5.0, False: 2.0}),
        opacity=edges["current"].map({True: 1.0, False: 0.55}),
    )
    nodes = nodes.assign(fill=nodes["current"].map({True: CURRENT_FILL, False: OTHER_FILL}))
    # All text in one frame: node names on the nodes, words under the x nodes, weight names by the arrows.
    words = nodes[nodes["kind"] == "x"]
    text = pd.concat(
        [
            pd.DataFrame({"x": nodes["x"], "y": nodes["y"], "text": nodes["label"], "color": "black"}),
            pd.DataFrame({"x": words["x"], "y": words["y"] - 0.32, "text": words["token"], "color": "#333333"}),
            pd.DataFrame(
                {
                    "x": edges["lx"] + (edges["weight"] == "W_x") * 0.1,
                    "y": edges["ly"],
                    "text": edges["weight"],
                    "color": edges["color"],
                }
            ),
        ],
        ignore_index=True,
    )
    # No legend: every arrow carries its weight's name in the weight's colour.
    lines = (
        alt.Chart(edges)
        .mark_rule()
        .encode(
            x=alt.X("x:Q", scale=xs, axis=None),
            y=alt.Y("y:Q", scale=ys, axis=None),
            x2="x2:Q",
            y2="y2:Q",
            color=alt.Color("color:N", scale=None),
            strokeWidth=alt.StrokeWidth("width:Q", scale=None),
            opacity=alt.Opacity("opacity:Q", scale=None),
        )
    )
    dots = (
        alt.Chart(nodes)
        .mark_circle(size=900, stroke="#555555", strokeWidth=1, opacity=1)
        .encode(
            x=alt.X("x:Q", scale=xs),
            y=alt.Y("y:Q", scale=ys),
            color=alt.Color("fill:N", scale=None),
            tooltip=[alt.Tooltip("label:N", title=labels["node"]), alt.Tooltip("token:N", title=labels["token"])],
        )
    )
    texts = (
        alt.Chart(text)
        .mark_text(fontSize=12, limit=90)
        .encode(
            x=alt.X("x:Q", scale=xs),
            y=alt.Y("y:Q", scale=ys),
            text="text:N",
            color=alt.Color("color:N", scale=None),
        )
    )
    # No chart title: the page writes it above the chart, where a phone can wrap it.
    return (lines + dots + texts).properties(height=200, width="container")


def timeline_chart(frame: pd.DataFrame, labels: dict[str, str]) -> alt.LayerChart:
    """Heatmap of every h_t (time × unit); the slider's step is outlined. tanh keeps every cell in (-1, 1)."""
    order = list(dict.fromkeys(frame["step"]))
    frame = frame.assign(
        outline=frame["current"].map({True: 2.5, False: 0.0}),
        ink=["white" if abs(v) > 0.6 else "black" for v in frame["value"]],
    )
    base = alt.Chart(frame).encode(
        x=alt.X("step:N", title=labels["step"], sort=order, axis=alt.Axis(labelAngle=0, labelLimit=90)),
        # No y title: the rows read h1, h2, … and the title above names them; a rotated Korean title reads badly.
        y=alt.Y("unit:N", title=None, sort=None),
    )
    cells = base.mark_rect(stroke="black").encode(
        color=alt.Color("value:Q", title="h", scale=alt.Scale(scheme="redblue", domain=[-1, 1], reverse=True)),
        strokeWidth=alt.StrokeWidth("outline:Q", scale=None),
        tooltip=[
            alt.Tooltip("step:N", title=labels["step"]),
            alt.Tooltip("unit:N", title=labels["unit"]),
            alt.Tooltip("value:Q", title="h", format=NUM_D3),
        ],
    )
    text = (
        with_cell_label(base, "value", "step")
        .mark_text(fontSize=11)
        .encode(
            text=alt.Text("label:N"),
            color=alt.Color("ink:N", scale=None),
        )
    )
    # The text's colour column is literal (scale=None): keep it off the heatmap's colour scale.
    return (cells + text).resolve_scale(color="independent").properties(height=alt.Step(26), width="container")


def step_chart(frame: pd.DataFrame, labels: dict[str, str]) -> alt.Chart:
    """One step's terms side by side per unit: the sum can leave (-1, 1), h_t = tanh(sum) cannot."""
    term_names = [labels[f"term_{i}"] for i in range(len(TERMS))]
    frame = frame.assign(term=frame["term"].map(dict(zip(TERMS, term_names, strict=True))))
    return (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("unit:N", title=labels["unit"], sort=None, axis=alt.Axis(labelAngle=0)),
            xOffset=alt.XOffset("term:N", sort=term_names),
            y=alt.Y("value:Q", title=labels["value"]),
            color=alt.Color(
                "term:N",
                title=None,
                sort=term_names,
                scale=alt.Scale(domain=term_names, range=list(TERM_COLORS)),
                legend=alt.Legend(orient="top", columns=3),
            ),
            tooltip=[
                alt.Tooltip("term:N", title=labels["term"]),
                alt.Tooltip("unit:N", title=labels["unit"]),
                alt.Tooltip("value:Q", title=labels["value"], format=NUM_D3),
            ],
        )
        .properties(height=280, width="container")  # titled by the page (wraps on a phone)
    )
