"""Altair charts for the RNN page: the unrolled graph with shared weights, the h_t timeline, one step's terms."""

from __future__ import annotations

import altair as alt
import pandas as pd

from s2s_core.rnn.frames import TERMS

# One colour per shared weight, used in the graph and in the step bars alike.
WEIGHT_COLORS = {"W_x": "#1f77b4", "W_h": "#d62728", "b": "#7f7f7f"}
TERM_COLORS = (WEIGHT_COLORS["W_x"], WEIGHT_COLORS["W_h"], WEIGHT_COLORS["b"], "#9467bd", "#2ca02c")


def unroll_chart(nodes: pd.DataFrame, edges: pd.DataFrame, labels: dict[str, str]) -> alt.LayerChart:
    """x_t → h_t (W_x) and h_(t-1) → h_t (W_h) at every step: the same two colours everywhere = the same weights."""
    S = int(nodes["x"].max())
    xs = alt.Scale(domain=[-0.4, S + 0.5], nice=False)
    ys = alt.Scale(domain=[-0.55, 1.4], nice=False)
    # No legend: every arrow carries its weight's name in the weight's colour.
    color = alt.Color("weight:N", title=labels["weight"],
                      scale=alt.Scale(domain=["W_x", "W_h"], range=[WEIGHT_COLORS["W_x"], WEIGHT_COLORS["W_h"]]),
                      legend=None)
    lines = alt.Chart(edges).mark_rule().encode(
        x=alt.X("x:Q", scale=xs, axis=None), y=alt.Y("y:Q", scale=ys, axis=None), x2="x2:Q", y2="y2:Q",
        color=color,
        strokeWidth=alt.condition("datum.current", alt.value(5), alt.value(2)),
        opacity=alt.condition("datum.current", alt.value(1.0), alt.value(0.55)),
    )
    edge_text = alt.Chart(edges).mark_text(fontSize=12, fontWeight="bold", align="left", dx=-4).encode(
        x=alt.X("lx:Q", scale=xs), y=alt.Y("ly:Q", scale=ys), text="weight:N", color=color,
    )
    dots = alt.Chart(nodes).mark_circle(size=900).encode(
        x=alt.X("x:Q", scale=xs), y=alt.Y("y:Q", scale=ys),
        color=alt.condition("datum.current", alt.value("#ffd166"), alt.value("#eeeeee")),
        stroke=alt.value("#555555"), strokeWidth=alt.value(1),
        tooltip=[alt.Tooltip("label:N", title=labels["node"]), alt.Tooltip("token:N", title=labels["token"])],
    )
    names = alt.Chart(nodes).mark_text(fontSize=12).encode(
        x=alt.X("x:Q", scale=xs), y=alt.Y("y:Q", scale=ys), text="label:N", color=alt.value("black"),
    )
    words = alt.Chart(nodes[nodes["kind"] == "x"]).mark_text(fontSize=13, dy=30, limit=90).encode(
        x=alt.X("x:Q", scale=xs), y=alt.Y("y:Q", scale=ys), text="token:N", color=alt.value("#333333"),
    )
    return (lines + edge_text + dots + names + words).properties(
        height=230, width="container", title=labels["unroll_title"]
    )


def timeline_chart(frame: pd.DataFrame, labels: dict[str, str]) -> alt.LayerChart:
    """Heatmap of every h_t (time × unit); the slider's step is outlined. tanh keeps every cell in (-1, 1)."""
    order = list(dict.fromkeys(frame["step"]))
    base = alt.Chart(frame).encode(
        x=alt.X("step:N", title=labels["step"], sort=order, axis=alt.Axis(labelAngle=0, labelLimit=90)),
        y=alt.Y("unit:N", title=labels["unit"], sort=None),
    )
    cells = base.mark_rect().encode(
        color=alt.Color("value:Q", title="h", scale=alt.Scale(scheme="redblue", domain=[-1, 1], reverse=True)),
        stroke=alt.condition("datum.current", alt.value("black"), alt.value(None)),
        strokeWidth=alt.condition("datum.current", alt.value(2.5), alt.value(0)),
        tooltip=[alt.Tooltip("step:N", title=labels["step"]), alt.Tooltip("unit:N", title=labels["unit"]),
                 alt.Tooltip("value:Q", title="h", format=".4f")],
    )
    text = base.mark_text(fontSize=11).encode(
        text=alt.Text("value:Q", format=".2f"),
        color=alt.condition("abs(datum.value) > 0.6", alt.value("white"), alt.value("black")),
    )
    return (cells + text).properties(height=alt.Step(26), width="container", title=labels["timeline_title"])


def step_chart(frame: pd.DataFrame, labels: dict[str, str]) -> alt.Chart:
    """One step's terms side by side per unit: the sum can leave (-1, 1), h_t = tanh(sum) cannot."""
    term_names = [labels[f"term_{i}"] for i in range(len(TERMS))]
    frame = frame.assign(term=frame["term"].map(dict(zip(TERMS, term_names))))
    return (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("unit:N", title=labels["unit"], sort=None, axis=alt.Axis(labelAngle=0)),
            xOffset=alt.XOffset("term:N", sort=term_names),
            y=alt.Y("value:Q", title=labels["value"]),
            color=alt.Color("term:N", title=None, sort=term_names,
                            scale=alt.Scale(domain=term_names, range=list(TERM_COLORS)),
                            legend=alt.Legend(orient="top", columns=3)),
            tooltip=[alt.Tooltip("term:N", title=labels["term"]), alt.Tooltip("unit:N", title=labels["unit"]),
                     alt.Tooltip("value:Q", title=labels["value"], format=".4f")],
        )
        .properties(height=300, width="container", title=labels["step_title"])
    )
