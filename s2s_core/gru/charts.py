"""Altair chart for the GRU page's comparison (the gate, step and state charts are in s2s_core.gated.charts)."""

from __future__ import annotations

import altair as alt
import pandas as pd

from s2s_core.chartkit import FIT_X, records


def params_chart(frame: pd.DataFrame, labels: dict[str, str]) -> alt.Chart:
    """Parameters per module, stacked by tensor (weight_ih, weight_hh, biases)."""
    return (
        alt.Chart(
            records(frame),
            width="container",
            height=alt.Step(34),
            title=labels["params_title"],
            autosize=FIT_X,
        )
        .mark_bar()
        .encode(
            y=alt.Y("cell:N", title=None, sort=["nn.RNN", "nn.GRU", "nn.LSTM"]),
            x=alt.X("sum(numel):Q", title=labels["params"]),
            color=alt.Color("name:N", title=labels["tensor"], sort=None, legend=alt.Legend(orient="bottom", columns=2)),
            tooltip=[
                alt.Tooltip("cell:N", title=labels["cell"]),
                alt.Tooltip("name:N", title=labels["tensor"]),
                alt.Tooltip("shape:N", title=labels["shape"]),
                alt.Tooltip("numel:Q", title=labels["params"]),
            ],
        )
    )
