"""Altair charts for the backprop-through-time page: gradient norm vs steps back (log scale), and clipping."""

from __future__ import annotations

import math

import altair as alt
import pandas as pd

from s2s_core.bptt.frames import cell_order
from s2s_core.bptt.picture import PLAIN_LABEL
from s2s_core.chartkit import ordered
from s2s_core.fmt import SCI_D3

SERIES_COLORS = ("#d62728", "#1f77b4", "#2ca02c", "#9ecae1", "#7f7f7f")  # RNN, LSTM, GRU, LSTM cell, ρ^k

# The "bptt.chart.*" words each builder takes (the page hands them over with s2s_core.catalog.words; tests import
# these tuples). parts_chart also takes a "description"; the clipping frames take WHEN_LABELS as their names.
GRAD_LABELS = ("k", "norm", "series", "t", "ratio", "cut")
CLIP_LABELS = ("norm", "k", "t", "part", "when", "ratio")
WHEN_LABELS = ("before", "after", "total")


def decades(values: pd.Series) -> list[float]:
    """Axis ticks at powers of ten only (a log axis otherwise draws a gridline at every 2, 3, … 9)."""
    values = values[values > 0]
    if values.empty:
        return [1.0]
    lo, hi = math.floor(math.log10(values.min())), math.ceil(math.log10(values.max()))
    step = max(1, math.ceil((hi - lo) / 8))  # at most ~8 labelled decades, even across 1e-20 … 1e+12
    return [10.0**e for e in range(lo, hi + 1, step)]


def grad_chart(frame: pd.DataFrame, cuts: pd.DataFrame, labels: dict[str, str]) -> alt.LayerChart:
    """‖∂L/∂h_(T-k)‖ against k on a log scale: a straight line is a constant factor per step (ρ^k)."""
    order = cell_order()
    # Plain columns with scale=None instead of alt.condition: conditions are slow for Altair to validate.
    frame = frame.assign(
        width=frame["focus"].map({True: 3.5, False: 1.8}),
        dashed=(frame["cell"] == "law") | (frame["series"] == "LSTM cell"),
    )
    line = (
        alt.Chart(frame)
        .mark_line(point=alt.OverlayMarkDef(size=18))
        .encode(
            x=alt.X("k:Q", title=labels["k"], scale=alt.Scale(nice=False)),
            y=alt.Y(
                "norm:Q",
                title=labels["norm"],
                scale=alt.Scale(type="log"),
                axis=alt.Axis(labelExpr=PLAIN_LABEL, values=decades(frame["norm"])),
            ),
            color=alt.Color(
                "series:N",
                title=None,
                sort=order,
                scale=alt.Scale(domain=order, range=list(SERIES_COLORS)),
                legend=alt.Legend(orient="top", columns=3),
            ),
            strokeDash=alt.StrokeDash(
                "dashed:N", legend=None, scale=alt.Scale(domain=[False, True], range=[[1, 0], [5, 4]])
            ),
            strokeWidth=alt.StrokeWidth("width:Q", scale=None),
            tooltip=[
                alt.Tooltip("series:N", title=labels["series"]),
                alt.Tooltip("k:Q", title=labels["k"]),
                alt.Tooltip("t:Q", title=labels["t"]),
                alt.Tooltip("norm:Q", title=labels["norm"], format=SCI_D3),
                alt.Tooltip("ratio:Q", title=labels["ratio"], format=SCI_D3),
            ],
        )
    )
    layers = [line]
    if not cuts.empty:
        rules = alt.Chart(cuts).mark_rule(color="#555555", strokeDash=[2, 2]).encode(x="k:Q")
        text = (
            alt.Chart(cuts)
            .mark_text(align="left", dx=3, dy=-4, fontSize=11, color="#555555")
            .encode(x="k:Q", y=alt.value(8), text=alt.value(labels["cut"]))
        )
        layers += [rules, text]
    # No chart title: the page writes it above the chart, where a phone can wrap it.
    return alt.layer(*layers).properties(height=400, width="container")


def clip_chart(frame: pd.DataFrame, max_norm: float, labels: dict[str, str]) -> alt.LayerChart:
    """Gradient norms before and after clip_grad_norm_, with the max-norm line (log scale: sizes differ a lot)."""
    params = ordered(frame["param"])
    whens = ordered(frame["when"])
    ticks = decades(pd.concat([frame["norm"], frame["base"], pd.Series([max_norm])]))
    bars = (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("param:N", title=None, sort=params, axis=alt.Axis(labelAngle=0, labelLimit=120)),
            xOffset=alt.XOffset("when:N", sort=whens),
            y=alt.Y(
                "norm:Q",
                title=labels["norm"],
                scale=alt.Scale(type="log"),
                axis=alt.Axis(labelExpr=PLAIN_LABEL, values=ticks),
            ),
            y2="base:Q",
            color=alt.Color(
                "when:N",
                title=None,
                sort=whens,
                scale=alt.Scale(range=["#ff7f0e", "#1f77b4"]),
                legend=alt.Legend(orient="top"),
            ),
            tooltip=[alt.Tooltip("param:N"), alt.Tooltip("when:N"), alt.Tooltip("norm:Q", format=SCI_D3)],
        )
    )
    rule = (
        alt.Chart(pd.DataFrame({"max_norm": [max_norm]}))
        .mark_rule(color="black", strokeDash=[4, 3])
        .encode(y="max_norm:Q")
    )
    return alt.layer(bars, rule).properties(height=240, width="container")  # titled by the page


def parts_chart(frame: pd.DataFrame, max_norm: float, labels: dict[str, str]) -> alt.LayerChart:
    """Each step's part of ∂L/∂W_hh before and after clipping, by steps back (log scale): clipping shifts the whole
    curve down by one factor, so its slope (how fast the parts fade with distance) is the same before and after."""
    whens = ordered(frame["when"])
    ticks = decades(pd.concat([frame["norm"], pd.Series([max_norm])]))
    line = (
        alt.Chart(frame)
        .mark_line(point=alt.OverlayMarkDef(size=18))
        .encode(
            x=alt.X("k:Q", title=labels["k"], scale=alt.Scale(nice=False)),
            y=alt.Y(
                "norm:Q",
                title=labels["part"],
                scale=alt.Scale(type="log"),
                axis=alt.Axis(labelExpr=PLAIN_LABEL, values=ticks),
            ),
            color=alt.Color(
                "when:N",
                title=None,
                sort=whens,
                scale=alt.Scale(range=["#ff7f0e", "#1f77b4"]),
                legend=alt.Legend(orient="top"),
            ),
            strokeDash=alt.StrokeDash("when:N", sort=whens, legend=None, scale=alt.Scale(range=[[1, 0], [5, 4]])),
            tooltip=[
                alt.Tooltip("when:N", title=labels["when"]),
                alt.Tooltip("k:Q", title=labels["k"]),
                alt.Tooltip("t:Q", title=labels["t"]),
                alt.Tooltip("norm:Q", title=labels["part"], format=SCI_D3),
                alt.Tooltip("ratio:Q", title=labels["ratio"], format=SCI_D3),
            ],
        )
    )
    return alt.layer(line).properties(height=260, width="container")  # titled by the page
