"""Altair charts for the padding & masks page: the padded batch, per-token loss, attention, final states.

labels: translated axis/legend titles from the page; frames come from s2s_core.masks.frames.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

PAD_COLOR, REAL_COLOR, PAD_STROKE = "#d9d9d9", "#cfe0fb", "#e8590c"


def _q(text: str) -> str:
    """A label made safe inside a single-quoted Vega expression string."""
    return text.replace("\\", "\\\\").replace("'", "\\'")


def batch_grid(frame: pd.DataFrame, labels: dict[str, str], title: str) -> alt.LayerChart:
    """The padded id matrix as a grid: one row per sentence, one cell per position, PAD cells grey."""
    base = alt.Chart(frame).encode(
        x=alt.X("position:O", title=labels["position"], axis=alt.Axis(labelAngle=0)),
        y=alt.Y("sentence:N", title=labels["sentence"], sort=None),
    )
    cells = base.mark_rect(stroke="white", strokeWidth=2).encode(
        color=alt.Color("pad:N", title=labels["pad"],
                        scale=alt.Scale(domain=[False, True], range=[REAL_COLOR, PAD_COLOR]),
                        legend=alt.Legend(labelExpr=f"datum.value ? '{_q(labels['pad_yes'])}' : '{_q(labels['pad_no'])}'",
                                          orient="bottom")),
        tooltip=[alt.Tooltip("sentence:N", title=labels["sentence"]), alt.Tooltip("position:O", title=labels["position"]),
                 alt.Tooltip("token:N", title=labels["token"]), alt.Tooltip("id:Q", title=labels["id"])],
    )
    text = base.mark_text(fontSize=12).encode(text="token:N", color=alt.value("black"))
    return (cells + text).properties(height=alt.Step(30), width="container", title=title)


def loss_grid(frame: pd.DataFrame, labels: dict[str, str], title: str, *, ignore_pad: bool) -> alt.LayerChart:
    """-log p per target position; with ignore_pad the PAD cells are greyed out (not in the mean)."""
    counted = "datum.counted_ignore" if ignore_pad else "datum.counted_all"
    base = alt.Chart(frame).encode(
        x=alt.X("position:O", title=labels["position"], axis=alt.Axis(labelAngle=0)),
        y=alt.Y("sentence:N", title=labels["sentence"], sort=None),
    )
    cells = base.mark_rect(stroke="white", strokeWidth=2).encode(
        color=alt.condition(counted, alt.Color("nll:Q", title=labels["nll"], scale=alt.Scale(scheme="oranges"),
                                               legend=alt.Legend(orient="bottom")), alt.value(PAD_COLOR)),
        tooltip=[alt.Tooltip("sentence:N", title=labels["sentence"]), alt.Tooltip("token:N", title=labels["token"]),
                 alt.Tooltip("nll:Q", title=labels["nll"], format=".4f")],
    )
    text = base.mark_text(fontSize=11).encode(
        text=alt.Text("nll:Q", format=".2f"),
        color=alt.condition(counted, alt.value("black"), alt.value("#888888")),
    )
    return (cells + text).properties(height=alt.Step(30), width="container", title=title)


def attention_heatmap(frame: pd.DataFrame, labels: dict[str, str], title: str) -> alt.LayerChart:
    """Decoder steps x source positions; weights on a fixed 0..1 scale so the two variants compare."""
    base = alt.Chart(frame).encode(
        x=alt.X("position:N", title=labels["position"], sort=None, axis=alt.Axis(labelAngle=-40)),
        y=alt.Y("step:N", title=labels["step"], sort=None),
    )
    cells = base.mark_rect().encode(
        color=alt.Color("weight:Q", title=labels["weight"], scale=alt.Scale(domain=[0, 1], scheme="blues"),
                        legend=alt.Legend(orient="bottom")),
        stroke=alt.condition("datum.pad", alt.value(PAD_STROKE), alt.value("white")),
        strokeWidth=alt.condition("datum.pad", alt.value(2), alt.value(1)),
        strokeDash=alt.condition("datum.pad", alt.value([4, 2]), alt.value([1, 0])),
        tooltip=[alt.Tooltip("step:N", title=labels["step"]), alt.Tooltip("position:N", title=labels["position"]),
                 alt.Tooltip("score:Q", title=labels["score"], format=".4f"),
                 alt.Tooltip("weight:Q", title=labels["weight"], format=".4f")],
    )
    text = base.mark_text(fontSize=11).encode(
        text=alt.Text("weight:Q", format=".2f"),
        color=alt.condition("datum.weight > 0.5", alt.value("white"), alt.value("black")),
    )
    return (cells + text).properties(height=alt.Step(28), width="container", title=title)


def pad_share_bars(frame: pd.DataFrame, labels: dict[str, str], title: str) -> alt.Chart:
    """Total weight on PAD per decoder step: 0 with the mask, the leak without it."""
    return (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("step:N", title=labels["step"], sort=None, axis=alt.Axis(labelAngle=-40)),
            xOffset=alt.XOffset("variant:N", sort=None),
            y=alt.Y("share:Q", title=labels["share"], scale=alt.Scale(domain=[0, 1])),
            color=alt.Color("variant:N", title=labels["variant"], sort=None, legend=alt.Legend(orient="bottom")),
            tooltip=[alt.Tooltip("step:N", title=labels["step"]), alt.Tooltip("variant:N", title=labels["variant"]),
                     alt.Tooltip("share:Q", title=labels["share"], format=".4f")],
        )
        .properties(height=220, width="container", title=title)
    )


def final_state_bars(frame: pd.DataFrame, labels: dict[str, str], title: str) -> alt.Chart:
    """The final encoder state's components: after the PAD steps vs at the true last token."""
    return (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("component:N", title=labels["component"], sort=None, axis=alt.Axis(labelAngle=0)),
            xOffset=alt.XOffset("state:N", sort=None),
            y=alt.Y("value:Q", title=labels["value"]),
            color=alt.Color("state:N", title=labels["state"], sort=None, legend=alt.Legend(orient="bottom")),
            tooltip=[alt.Tooltip("state:N", title=labels["state"]), alt.Tooltip("component:N", title=labels["component"]),
                     alt.Tooltip("value:Q", title=labels["value"], format=".4f")],
        )
        .properties(height=220, width="container", title=title)
    )
