"""Altair charts for the RNN page besides its picture (s2s_core/rnn/picture.py): one step's terms as bars."""

from __future__ import annotations

import altair as alt
import pandas as pd

from s2s_core.chartkit import ordered
from s2s_core.fmt import NUM_D3
from s2s_core.rnn.frames import TERMS

# One colour per term of the formula, named in the chart's legend.
TERM_COLORS = ("#1f77b4", "#d62728", "#7f7f7f", "#9467bd", "#2ca02c")
LABELS = ("unit", "value", "term", *(f"term_{i}" for i in range(len(TERMS))))  # rnn.chart.*: step_chart's words


def step_chart(frame: pd.DataFrame, labels: dict[str, str]) -> alt.Chart:
    """One step's terms side by side per unit: the sum can leave (-1, 1), h_t = tanh(sum) cannot."""
    term_names = [labels[f"term_{i}"] for i in range(len(TERMS))]
    frame = frame.assign(term=frame["term"].map(dict(zip(TERMS, term_names, strict=True))))
    return (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("unit:N", title=labels["unit"], sort=ordered(frame["unit"]), axis=alt.Axis(labelAngle=0)),
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
