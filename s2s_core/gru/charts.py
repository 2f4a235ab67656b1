"""The GRU page's figures: the gated pages' charts (s2s_core/gated/charts.py) over r, z, n and h, and the
parameter counts of nn.RNN, nn.GRU and nn.LSTM side by side."""

from __future__ import annotations

import altair as alt
import pandas as pd

from s2s_core.chartkit import FIT_X, ordered, records
from s2s_core.gated import charts as gated_charts
from s2s_core.gated.forcing import Force
from s2s_core.gru.compute import GruResult
from s2s_core.gru.fields import FORCEABLE
from s2s_core.gru.frames import gates_frame, override_frame, step_bars

LABELS = (*gated_charts.LABELS, "h_over")  # gru.chart.*: the words of `figure`
PARAMS_LABELS = ("params", "tensor", "cell", "shape", "params_title")  # gru.chart.*: the words of `params_chart`
RUNS = ("natural", "forced")  # gru.*: the two runs' names in the override lines
HEATMAPS = ("z", "r", "n")  # the heatmaps' order: z, which decides what h keeps, first


FIGURES = gated_charts.Figures(
    step_bars, gates_frame, override_frame, HEATMAPS, FORCEABLE, over=("h",), tanh_gates=("n",)
)


def figure(
    kind: str,
    result: GruResult,
    forces: tuple[Force, ...],
    step: int,
    labels: dict[str, str],
    gate_titles: dict[str, str],
    runs: dict[str, str],
) -> list[alt.TopLevelMixin]:
    """One of the page's figures (s2s_core/gated/charts.figure), over this cell's gates and states."""
    return gated_charts.figure(FIGURES, kind, result, forces, step, labels, gate_titles, runs)


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
            y=alt.Y("cell:N", title=None, sort=ordered(frame["cell"])),
            x=alt.X("sum(numel):Q", title=labels["params"]),
            color=alt.Color(
                "name:N",
                title=labels["tensor"],
                sort=ordered(frame["name"]),
                legend=alt.Legend(orient="bottom", columns=2),
            ),
            tooltip=[
                alt.Tooltip("cell:N", title=labels["cell"]),
                alt.Tooltip("name:N", title=labels["tensor"]),
                alt.Tooltip("shape:N", title=labels["shape"]),
                alt.Tooltip("numel:Q", title=labels["params"]),
            ],
        )
    )
