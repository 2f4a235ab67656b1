"""Altair charts for both gated-cell pages (LSTM, GRU): gate heatmaps, one step's bars, overrides.

Every chart takes translated `labels`; no streamlit here. Each function returns single-view charts (not
concatenations) with width "container": the page draws them one under the other, so they fit any screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import altair as alt
import pandas as pd

from s2s_core.chartkit import FIT_X, GATE_SCALE, VALUE_SCALE, ordered, records, with_cell_label
from s2s_core.fmt import NUM_D3

ROW_PX = 22  # one component row of a heatmap: its 11 px number fits
# The words every chart here reads from `labels` (each page's catalog holds them under "<ns>.chart.*").
LABELS = ("step", "component", "value", "gate", "gate_value", "quantity", "gates_title", "states_title", "run")


def _angle(frame: pd.DataFrame) -> int:
    """Step labels hold words: level while few, slanted once many would collide on a phone."""
    return 0 if frame["step"].nunique() <= 4 else -40


def _heatmap(
    frame: pd.DataFrame,
    scale: alt.Scale,
    title: str,
    labels: dict[str, str],
) -> alt.LayerChart:
    """Steps across, components down, the value written in each cell; a thick outline marks forced cells.

    Per-cell styling comes from data columns read with scale=None, not from alt.condition: building
    conditions costs Altair more than the whole rest of the chart.
    """
    lo, hi = scale.domain
    dark = 0.7 * max(abs(lo), abs(hi))  # white digits on the outer 30 % of the colour scale
    data = frame.assign(
        ink=["white" if (v > dark if lo == 0 else abs(v) > dark) else "black" for v in frame["value"]],
        edge=[3 if f else 0 for f in frame["forced"]] if "forced" in frame.columns else 0,
    )
    x = alt.X("step:N", title=labels["step"], sort=ordered(frame["step"]), axis=alt.Axis(labelAngle=_angle(frame)))
    y = alt.Y("component:N", title=labels["component"], sort=ordered(frame["component"]))
    cells = (
        alt.Chart()
        .mark_rect(stroke="#222")
        .encode(
            x=x,
            y=y,
            color=alt.Color("value:Q", title=labels["value"], scale=scale, legend=None),
            strokeWidth=alt.StrokeWidth("edge:Q", scale=None),
            tooltip=[
                alt.Tooltip("step:N", title=labels["step"]),
                alt.Tooltip("component:N", title=labels["component"]),
                alt.Tooltip("value:Q", title=labels["value"], format=NUM_D3),
            ],
        )
    )
    # fill, not color: a scale-less color here would clash with the cells' colour scale and Vega-Lite
    # would draw nothing at all.
    text = (
        with_cell_label(alt.Chart(), "value", "step")
        .mark_text(fontSize=11)
        .encode(
            x=x,
            y=y,
            text=alt.Text("label:N"),
            fill=alt.Fill("ink:N", scale=None),
        )
    )
    # Plain records (not a DataFrame) and sizes given at construction: both spare Altair deep copies.
    return alt.LayerChart(
        layer=[cells, text], data=records(data), width="container", height=alt.Step(ROW_PX), title=title, autosize=FIT_X
    )


def gate_heatmaps(
    frame: pd.DataFrame,
    gates: Sequence[str],
    titles: dict[str, str],
    labels: dict[str, str],
    tanh_gates: Sequence[str] = ("g",),
) -> list[alt.LayerChart]:
    """One heatmap per gate on chartkit.GATE_SCALE (0-1), candidates on chartkit.VALUE_SCALE (-1..1)."""
    return [
        _heatmap(frame[frame["gate"] == gate], VALUE_SCALE if gate in tanh_gates else GATE_SCALE, titles[gate], labels)
        for gate in gates
    ]


def step_charts(gate_bars: pd.DataFrame, state_bars: pd.DataFrame, labels: dict[str, str]) -> list[alt.TopLevelMixin]:
    """One step: gates as 0-1 bars per component, then the candidate and the states side by side."""
    components, gate_names = ordered(gate_bars["component"]), ordered(gate_bars["gate"])
    quantities = ordered(state_bars["quantity"])
    gates = (
        alt.Chart()
        .mark_bar()
        .encode(
            x=alt.X("component:N", title=labels["component"], sort=components, axis=alt.Axis(labelAngle=0)),
            xOffset=alt.XOffset("gate:N", sort=gate_names),
            y=alt.Y("value:Q", title=labels["gate_value"], scale=alt.Scale(domain=[0, 1])),
            color=alt.Color("gate:N", title=labels["gate"], sort=gate_names, legend=alt.Legend(orient="top")),
            tooltip=[
                alt.Tooltip("gate:N", title=labels["gate"]),
                alt.Tooltip("component:N", title=labels["component"]),
                alt.Tooltip("value:Q", title=labels["value"], format=NUM_D3),
            ],
        )
    )
    rule = alt.Chart().mark_rule(strokeDash=[4, 4], color="gray").encode(y=alt.datum(0.5))
    states = (
        alt.Chart(
            records(state_bars),
            width="container",
            height=200,
            title=labels["states_title"],
            autosize=FIT_X,
        )
        .mark_bar()
        .encode(
            x=alt.X("component:N", title=labels["component"], sort=components, axis=alt.Axis(labelAngle=0)),
            xOffset=alt.XOffset("quantity:N", sort=quantities),
            y=alt.Y("value:Q", title=labels["value"]),
            color=alt.Color(
                "quantity:N",
                title=labels["quantity"],
                sort=quantities,
                scale=alt.Scale(scheme="tableau10"),
                legend=alt.Legend(orient="top"),
            ),
            tooltip=[
                alt.Tooltip("quantity:N", title=labels["quantity"]),
                alt.Tooltip("component:N", title=labels["component"]),
                alt.Tooltip("value:Q", title=labels["value"], format=NUM_D3),
            ],
        )
    )
    layered = alt.LayerChart(
        layer=[gates, rule],
        data=records(gate_bars),
        width="container",
        height=180,
        title=labels["gates_title"],
        autosize=FIT_X,
    )
    return [layered, states]


def override_lines(frame: pd.DataFrame, titles: dict[str, str], labels: dict[str, str]) -> list[alt.Chart]:
    """c and h per component over the steps: the natural run dashed, the forced run solid."""
    charts = []
    for state in titles:
        part = frame[frame["state"] == state]
        charts.append(
            alt.Chart(
                records(part),
                width="container",
                height=200,
                title=titles[state],
                autosize=FIT_X,
            )
            .mark_line(point=True)
            .encode(
                x=alt.X(
                    "step:N", title=labels["step"], sort=ordered(part["step"]), axis=alt.Axis(labelAngle=_angle(part))
                ),
                y=alt.Y("value:Q", title=labels["value"]),
                color=alt.Color(
                    "component:N",
                    title=labels["component"],
                    sort=ordered(part["component"]),
                    legend=alt.Legend(orient="top"),
                ),
                # Natural run first in the frame: computed solid with round points, forced dashed with squares (as
                # in the cell picture); the legend draws each run's own line, so its two marks differ by dash and
                # shape, not by colour (the colour is the component's).
                strokeDash=alt.StrokeDash(
                    "run:N",
                    title=labels["run"],
                    sort=ordered(part["run"]),
                    legend=alt.Legend(orient="top", symbolType="stroke", symbolStrokeWidth=2, symbolSize=400),
                    scale=alt.Scale(range=[[1, 0], [6, 4]]),
                ),
                shape=alt.Shape(
                    "run:N", sort=ordered(part["run"]), scale=alt.Scale(range=["circle", "square"]), legend=None
                ),
                detail=alt.Detail("run:N"),
                tooltip=[
                    alt.Tooltip("run:N", title=labels["run"]),
                    alt.Tooltip("step:N", title=labels["step"]),
                    alt.Tooltip("component:N", title=labels["component"]),
                    alt.Tooltip("value:Q", title=labels["value"], format=NUM_D3),
                ],
            )
        )
    return charts


@dataclass(frozen=True)
class Figures:
    """What one gated cell plugs into `figure`: its frames, its heatmaps' order and the states its override
    lines compare (LSTM: c and h; GRU: h)."""

    step_bars: Callable[[Any, int], tuple]
    gates_frame: Callable[..., pd.DataFrame]
    override_frame: Callable[..., pd.DataFrame]
    heatmaps: tuple[str, ...]
    forceable: tuple[str, ...]
    over: tuple[str, ...]  # the states of the override lines; labels[f"{state}_over"] names each
    tanh_gates: tuple[str, ...] = ("g",)


def figure(
    cell: Figures,
    kind: str,
    result: Any,
    forces: Sequence[Any],
    step: int,
    labels: dict[str, str],
    gate_titles: dict[str, str],
    runs: dict[str, str],
) -> list[alt.TopLevelMixin]:
    """The charts of one figure, drawn one under the other: a step's bars (0-based `step`), every step's gates,
    the natural vs the forced run's states, or the forced run's gates (`forces` marked)."""
    run = result.run
    if kind == "step":
        return step_charts(*cell.step_bars(run, step), labels)
    if kind == "gates":
        frame = cell.gates_frame(run, result.labels)
        return gate_heatmaps(frame, cell.heatmaps, gate_titles, labels, tanh_gates=cell.tanh_gates)
    if result.forced is None:
        raise ValueError(f"figure {kind!r} needs a forced run")
    if kind == "override":
        frame = cell.override_frame(run, result.forced, result.labels, runs)
        return override_lines(frame, {s: labels[f"{s}_over"] for s in cell.over}, labels)
    if kind == "forced_gates":
        frame = cell.gates_frame(result.forced, result.labels, forces)
        return gate_heatmaps(frame, cell.forceable, gate_titles, labels)
    raise ValueError(f"unknown figure {kind!r}")
