"""The GRU page's figures: the gated pages' charts (s2s_core/gated/charts.py) over r, z, n and h, and the
parameter counts of nn.RNN, nn.GRU and nn.LSTM side by side."""

from __future__ import annotations

import altair as alt
import pandas as pd

from s2s_core.chartkit import FIT_X, records
from s2s_core.gated import charts as gated_charts
from s2s_core.gated.forcing import Force
from s2s_core.gru.compute import GruResult
from s2s_core.gru.fields import FORCEABLE
from s2s_core.gru.frames import gates_frame, override_frame, step_bars

LABELS = (*gated_charts.LABELS, "h_over")  # gru.chart.*: the words of `figure`
PARAMS_LABELS = ("params", "tensor", "cell", "shape", "params_title")  # gru.chart.*: the words of `params_chart`
RUNS = ("natural", "forced")  # gru.*: the two runs' names in the override lines
HEATMAPS = ("z", "r", "n")  # the heatmaps' order: z, which decides what h keeps, first


def figure(
    kind: str,
    result: GruResult,
    forces: tuple[Force, ...],
    step: int,
    labels: dict[str, str],
    gate_titles: dict[str, str],
    runs: dict[str, str],
) -> list[alt.TopLevelMixin]:
    """The charts of one figure, drawn one under the other: a step's bars (0-based `step`), every step's gates,
    the natural vs the forced run's h, or the forced run's gates (`forces` marked)."""
    run = result.run
    if kind == "step":
        return gated_charts.step_charts(*step_bars(run, step), labels)
    if kind == "gates":
        frame = gates_frame(run, result.labels)
        return gated_charts.gate_heatmaps(frame, HEATMAPS, gate_titles, labels, tanh_gates=("n",))
    if result.forced is None:
        raise ValueError(f"figure {kind!r} needs a forced run")
    if kind == "override":
        frame = override_frame(run, result.forced, result.labels, runs)
        return gated_charts.override_lines(frame, {"h": labels["h_over"]}, labels)
    if kind == "forced_gates":
        frame = gates_frame(result.forced, result.labels, forces)
        return gated_charts.gate_heatmaps(frame, FORCEABLE, gate_titles, labels)
    raise ValueError(f"unknown figure {kind!r}")


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
