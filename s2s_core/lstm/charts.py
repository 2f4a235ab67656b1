"""Altair charts for the LSTM page (also used by the GRU page): gate heatmaps, one step's bars, h vs c, overrides.

Every chart takes translated `labels`; no streamlit here. Widths are "container", so phones get one column.
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd

GATE_SCALE = alt.Scale(domain=[0, 1], scheme="greens")  # a gate is a 0-1 pass-through ratio
TANH_SCALE = alt.Scale(domain=[-1, 1], scheme="redblue", reverse=True)  # candidates live in (-1, 1)


def _diverging(values: pd.Series) -> alt.Scale:
    """A red-blue scale symmetric around 0 (so white means 0), wide enough for every value."""
    m = max(float(values.abs().max()), 1e-9)
    return alt.Scale(domain=[-m, m], scheme="redblue", reverse=True)


def _heatmap(frame: pd.DataFrame, scale: alt.Scale, title: str, labels: dict[str, str]) -> alt.LayerChart:
    """Steps across, components down, the value written in each cell; a thick outline marks forced cells."""
    base = alt.Chart(frame).encode(
        x=alt.X("step:N", title=labels["step"], sort=None, axis=alt.Axis(labelAngle=0)),
        y=alt.Y("component:N", title=labels["component"], sort=None),
    )
    has_forced = "forced" in frame.columns
    cells = base.mark_rect().encode(
        color=alt.Color("value:Q", title=labels["value"], scale=scale, legend=None),
        stroke=alt.condition("datum.forced", alt.value("#222"), alt.value(None)) if has_forced else alt.value(None),
        strokeWidth=alt.value(3),
        tooltip=[alt.Tooltip("step:N", title=labels["step"]), alt.Tooltip("component:N", title=labels["component"]),
                 alt.Tooltip("value:Q", title=labels["value"], format=".4f")],
    )
    text = base.mark_text(fontSize=11).encode(text=alt.Text("value:Q", format=".2f"), color=alt.value("black"))
    return (cells + text).properties(width="container", height=alt.Step(22), title=title)


def gate_heatmaps(frame: pd.DataFrame, gates: Sequence[str], titles: dict[str, str], labels: dict[str, str],
                  tanh_gates: Sequence[str] = ("g",)) -> alt.VConcatChart:
    """One heatmap per gate (0-1 green), candidates on a -1..1 red-blue scale; stacked, so phones can read them."""
    charts = []
    for gate in gates:
        scale = TANH_SCALE if gate in tanh_gates else GATE_SCALE
        charts.append(_heatmap(frame[frame["gate"] == gate], scale, titles[gate], labels))
    return alt.vconcat(*charts).resolve_scale(color="independent")


def step_charts(gate_bars: pd.DataFrame, state_bars: pd.DataFrame, labels: dict[str, str]) -> alt.VConcatChart:
    """One step: gates as 0-1 bars per component, then the candidate and the states side by side."""
    gates = alt.Chart(gate_bars).mark_bar().encode(
        x=alt.X("component:N", title=labels["component"], sort=None, axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("gate:N", sort=None),
        y=alt.Y("value:Q", title=labels["gate_value"], scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("gate:N", title=labels["gate"], sort=None),
        tooltip=[alt.Tooltip("gate:N", title=labels["gate"]), alt.Tooltip("component:N", title=labels["component"]),
                 alt.Tooltip("value:Q", title=labels["value"], format=".4f")],
    ).properties(width="container", height=180, title=labels["gates_title"])
    rule = alt.Chart(pd.DataFrame({"y": [0.5]})).mark_rule(strokeDash=[4, 4], color="gray").encode(y="y:Q")
    states = alt.Chart(state_bars).mark_bar().encode(
        x=alt.X("component:N", title=labels["component"], sort=None, axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("quantity:N", sort=None),
        y=alt.Y("value:Q", title=labels["value"]),
        color=alt.Color("quantity:N", title=labels["quantity"], sort=None, scale=alt.Scale(scheme="tableau10")),
        tooltip=[alt.Tooltip("quantity:N", title=labels["quantity"]),
                 alt.Tooltip("component:N", title=labels["component"]),
                 alt.Tooltip("value:Q", title=labels["value"], format=".4f")],
    ).properties(width="container", height=200, title=labels["states_title"])
    return alt.vconcat(gates + rule, states).resolve_scale(color="independent")


def states_heatmaps(frame: pd.DataFrame, titles: dict[str, str], labels: dict[str, str]) -> alt.VConcatChart:
    """c (top) and h (bottom) over all steps on one shared scale, so their sizes can be compared."""
    scale = _diverging(frame["value"])
    charts = [_heatmap(frame[frame["state"] == s], scale, titles[s], labels) for s in ("c", "h") if s in titles]
    return alt.vconcat(*charts)


def override_lines(frame: pd.DataFrame, titles: dict[str, str], labels: dict[str, str]) -> alt.VConcatChart:
    """c and h per component over the steps: the natural run dashed, the forced run solid."""
    charts = []
    for state in titles:
        part = frame[frame["state"] == state]
        charts.append(alt.Chart(part).mark_line(point=True).encode(
            x=alt.X("step:N", title=labels["step"], sort=None, axis=alt.Axis(labelAngle=0)),
            y=alt.Y("value:Q", title=labels["value"]),
            color=alt.Color("component:N", title=labels["component"], sort=None),
            strokeDash=alt.StrokeDash("run:N", title=labels["run"], sort=None),
            detail="run:N",
            tooltip=[alt.Tooltip("run:N", title=labels["run"]), alt.Tooltip("step:N", title=labels["step"]),
                     alt.Tooltip("component:N", title=labels["component"]),
                     alt.Tooltip("value:Q", title=labels["value"], format=".4f")],
        ).properties(width="container", height=200, title=titles[state]))
    return alt.vconcat(*charts)
