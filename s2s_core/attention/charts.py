"""Altair charts for the attention page: weights per position per step, and the vectors side by side.

Both charts share one hover selection on the source position, so pointing at s2 in either chart
highlights s2 in both.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from s2s_core.fmt import NUM_D3


def _bars_width(weights: pd.DataFrame) -> int:
    """Wide enough for every (position, step) bar, narrow enough for a 390 px phone screen."""
    return max(160, min(290, 26 * len(weights)))


def attention_charts(weights: pd.DataFrame, vectors: pd.DataFrame, labels: dict[str, str]) -> alt.VConcatChart:
    """labels: translated axis titles {"position", "step", "weight", "vector", "component", "value"}."""
    hover = alt.selection_point(
        name="hover_position", fields=["position"], on="pointerover", clear="pointerout", empty=False
    )

    base = alt.Chart(weights)
    bars = (
        base.mark_bar()
        .encode(
            x=alt.X("position:N", title=labels["position"], sort=None, axis=alt.Axis(labelAngle=0)),
            xOffset=alt.XOffset("step:N", sort=None),
            y=alt.Y("weight:Q", title=labels["weight"], scale=alt.Scale(domain=[0, 1])),
            color=alt.Color("step:N", title=labels["step"], sort=None, legend=alt.Legend(orient="bottom")),
            opacity=alt.condition(hover, alt.value(1.0), alt.value(0.75)),
            stroke=alt.condition(hover, alt.value("#ff4b4b"), alt.value(None)),
            strokeWidth=alt.condition(hover, alt.value(3), alt.value(0)),
            tooltip=[
                alt.Tooltip("step:N", title=labels["step"]),
                alt.Tooltip("position:N", title=labels["position"]),
                alt.Tooltip("weight:Q", title=labels["weight"], format=NUM_D3),
                alt.Tooltip("score:Q", title=labels["score"], format=NUM_D3),
            ],
        )
        .add_params(hover)
        .properties(height=200, width=_bars_width(weights), title=labels["weights_title"])
    )

    heat = alt.Chart(vectors).encode(
        x=alt.X("component:N", title=labels["component"], sort=None, axis=alt.Axis(labelAngle=0)),
        y=alt.Y("vector:N", title=labels["vector"], sort=None),
    )
    cells = (
        heat.mark_rect()
        .encode(
            color=alt.Color(
                "value:Q", title=labels["value"], scale=alt.Scale(scheme="blues"), legend=alt.Legend(orient="bottom")
            ),
            stroke=alt.condition(hover, alt.value("#ff4b4b"), alt.value(None)),
            strokeWidth=alt.condition(hover, alt.value(3), alt.value(0)),
            tooltip=[
                alt.Tooltip("vector:N", title=labels["vector"]),
                alt.Tooltip("component:N", title=labels["component"]),
                alt.Tooltip("value:Q", title=labels["value"], format=NUM_D3),
            ],
        )
        .add_params(hover)
    )
    text = heat.mark_text(fontSize=13).encode(
        text=alt.Text("value:Q", format=NUM_D3),
        color=alt.value("black"),
    )
    vec = (cells + text).properties(height=alt.Step(28), width=alt.Step(64), title=labels["vectors_title"])
    return alt.vconcat(bars, vec).resolve_scale(color="independent")
