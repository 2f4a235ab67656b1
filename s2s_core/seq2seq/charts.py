"""Altair charts for the encoder–decoder page: state heatmaps, top-k bars, the bottleneck curve. No streamlit."""

from __future__ import annotations

import altair as alt
import pandas as pd

from s2s_core.chartkit import VALUE_SCALE, ordered, with_cell_label
from s2s_core.fmt import NUM_D3, SCI_D3
from s2s_core.seq2seq.frames import (
    bottleneck_frame,
    decoder_states_frame,
    encoder_outputs_frame,
    final_state_frame,
)
from s2s_core.seq2seq.run import Seq2SeqResult

# seq2seq.chart.*: the words of page_charts (heatmap titles and axes, then bottleneck_chart's) and of topk_chart,
# whose title also names the step (seq2seq.chart.topk_title, formatted by the caller).
LABELS = (
    "outputs_title",
    "final_title",
    "cell_title",
    "states_title",
    "axis_component",
    "axis_position",
    "axis_layer",
    "axis_step",
    "bn_title",
    "length",
    "delta",
    "series",
    "direction",
    "first",
    "last",
    "norm",
    "yours",
)
TOPK_LABELS = ("p", "token")
MAX_LABELLED_COLUMNS = 16  # beyond this (the trained model's 64 components) a cell is too narrow for a number


def heatmap(frame: pd.DataFrame, title: str, x_title: str, y_title: str) -> alt.LayerChart:
    """A (row, col, value) frame as coloured cells (the shared diverging scale) with their numbers where the
    columns leave room; rows and columns in the frame's order (component 1 first, position 1 on top)."""
    base = alt.Chart(frame).encode(
        x=alt.X("col:N", title=x_title, sort=ordered(frame["col"])),
        y=alt.Y("row:N", title=y_title, sort=ordered(frame["row"])),
    )
    cells = base.mark_rect().encode(
        color=alt.Color("value:Q", title=None, scale=VALUE_SCALE),
        tooltip=[
            alt.Tooltip("row:N", title=y_title),
            alt.Tooltip("col:N", title=x_title),
            alt.Tooltip("value:Q", format=NUM_D3),
        ],
    )
    if frame["col"].nunique() > MAX_LABELLED_COLUMNS:  # the tooltip keeps every number
        return cells.properties(title=title, height=alt.Step(26), width="container")
    text = (
        with_cell_label(base, "value", "col")
        .mark_text(fontSize=11)
        .encode(text=alt.Text("label:N"), color=alt.value("black"))
    )
    return (cells + text).properties(title=title, height=alt.Step(26), width="container")


def topk_chart(frame: pd.DataFrame, labels: dict[str, str]) -> alt.Chart:
    """The k most likely next words; the chosen (greedy) one highlighted."""
    return (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("p:Q", title=labels["p"], scale=alt.Scale(domain=[0, 1])),
            y=alt.Y("token:N", title=labels["token"], sort=ordered(frame["token"])),  # most likely first
            color=alt.condition("datum.chosen", alt.value("#ff4b4b"), alt.value("#8fb3d9")),
            tooltip=[
                alt.Tooltip("token:N", title=labels["token"]),
                alt.Tooltip("p:Q", title=labels["p"], format=NUM_D3),
            ],
        )
        .properties(title=labels["title"], height=alt.Step(24), width="container")
    )


def bottleneck_chart(frame: pd.DataFrame, learner_length: int, labels: dict[str, str]) -> alt.LayerChart:
    """||Δh_last|| against sentence length, log scale: one line per (replaced word, direction).

    The learner's own length is marked with large points on every line (not a rule: a rule without y
    would stretch the shared log scale).
    """
    data = frame.assign(
        replaced=frame["edit"].map({"first": labels["first"], "last": labels["last"]}),
        series=frame["edit"].map({"first": labels["first"], "last": labels["last"]}) + " " + frame["direction"],
        delta=frame["delta"].clip(lower=1e-12),  # log scale: an exact 0 would vanish
    )
    base = alt.Chart(data).encode(
        x=alt.X(
            "length:Q", title=labels["length"], scale=alt.Scale(domain=[1, int(frame["length"].max())], nice=False)
        ),
        y=alt.Y("delta:Q", title=labels["delta"], scale=alt.Scale(type="log"), axis=alt.Axis(format=".0e")),
        color=alt.Color(
            "replaced:N",
            title=labels["series"],
            sort=[labels["first"], labels["last"]],
            scale=alt.Scale(range=["#1f77b4", "#d62728"]),
            legend=alt.Legend(orient="bottom"),
        ),
        strokeDash=alt.StrokeDash(
            "direction:N", title=labels["direction"], sort=["→", "←"], legend=alt.Legend(orient="bottom")
        ),
        detail="series:N",
        tooltip=[
            alt.Tooltip("length:Q", title=labels["length"]),
            alt.Tooltip("series:N", title=labels["series"]),
            alt.Tooltip("delta:Q", title=labels["delta"], format=SCI_D3),
            alt.Tooltip("norm:Q", title=labels["norm"], format=NUM_D3),
        ],
    )
    lines = base.mark_line(point=True)
    yours = base.transform_filter(alt.datum.length == learner_length).mark_point(size=160, filled=False, strokeWidth=2)
    # Streamlit fits title, axes and legend inside this height, so it is the whole figure, not the plot.
    return (lines + yours).properties(title=labels["title"], height=440, width="container")


def page_charts(result: Seq2SeqResult, K: int, L_e: int, labels: dict[str, str]) -> dict[str, alt.TopLevelMixin]:
    """Every chart of the page except the per-step top-k, by name (the page caches their Vega-Lite dicts).

    labels: the words of LABELS (translated titles and axis names; bn_title is the bottleneck chart's title).
    """
    enc = result.encoder
    comp = labels["axis_component"]
    bn = bottleneck_frame(result.bottleneck)
    charts = {
        "outputs": heatmap(encoder_outputs_frame(enc, K), labels["outputs_title"], comp, labels["axis_position"]),
        "h_n": heatmap(final_state_frame(enc.h_n, L_e, K), labels["final_title"], comp, labels["axis_layer"]),
        "bottleneck": bottleneck_chart(bn, result.bottleneck.learner_length, {**labels, "title": labels["bn_title"]}),
    }
    if enc.c_n is not None:
        charts["c_n"] = heatmap(final_state_frame(enc.c_n, L_e, K), labels["cell_title"], comp, labels["axis_layer"])
    if result.decoding is not None:
        charts["states"] = heatmap(
            decoder_states_frame(result.decoding, "h0"), labels["states_title"], comp, labels["axis_step"]
        )
    return charts
