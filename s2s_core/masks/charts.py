"""Altair charts for the padding & masks page: the padded batch, per-token loss, attention, final states.

labels: the learner's words for `LABELS` (catalog keys masks.chart.*: axis, legend and chart titles; final_chart
takes {row}); frames come from s2s_core.masks.frames.
Built the fast way: channel classes instead of shorthand strings or bare condition dicts, inline data and
size given to the constructor (Altair otherwise searches its schema and copies data on every call).
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from s2s_core.chartkit import FIT_X, ordered, records, with_cell_label
from s2s_core.fmt import NUM_D3
from s2s_core.masks import frames
from s2s_core.masks.compute import MasksConfig, MasksResult

PAD_COLOR, REAL_COLOR, PAD_STROKE = "#d9d9d9", "#cfe0fb", "#e8590c"
BOTTOM = alt.Legend(orient="bottom")
STACKED = alt.Legend(orient="bottom", direction="vertical")  # long entries stay inside a phone's width
LABELS = (
    "position",
    "sentence",
    "pad",
    "pad_yes",
    "pad_no",
    "token",
    "id",
    "nll",
    "step",
    "weight",
    "score",
    "share",
    "variant",
    "component",
    "value",
    "state",
    "masked",
    "unmasked",
    "after_pad",
    "true_last",
    "grid_source",
    "grid_dec_in",
    "grid_dec_out",
    "grid_ignore",
    "grid_all",
    "heat_masked",
    "heat_unmasked",
    "share_title",
    "final_chart",
)


def _cond(channel: type, test: str, if_true: object, if_false: object) -> alt.SchemaBase:
    """alt.condition wrapped in its channel class (a bare dict makes Altair search its whole schema)."""
    return channel(**alt.condition(test, if_true, if_false))


def _q(text: str) -> str:
    """A label made safe inside a single-quoted Vega expression string."""
    return text.replace("\\", "\\\\").replace("'", "\\'")


def _grid_axes(labels: dict[str, str], frame: pd.DataFrame) -> dict[str, alt.SchemaBase]:
    """Positions left to right and sentences top to bottom in the frame's order, named explicitly (Vega's own order
    can put an edited batch's old categories first)."""
    return {
        "x": alt.X("position:O", title=labels["position"], sort=_order(frame["position"]), axis=alt.Axis(labelAngle=0)),
        # No rotated y title (sideways Korean is hard to read, and it costs width on a phone): the row
        # labels are the sentence numbers, and the page's caption says so.
        "y": alt.Y("sentence:N", title=None, sort=_order(frame["sentence"])),
    }


def _order(column: pd.Series) -> list:
    """A column's categories in the frame's (reading) order, as plain Python values for the spec."""
    return [v.item() if hasattr(v, "item") else v for v in ordered(column)]


def batch_grid(frame: pd.DataFrame, labels: dict[str, str], title: str) -> alt.LayerChart:
    """The padded id matrix as a grid: one row per sentence, one cell per position, PAD cells grey."""
    pad_legend = alt.Legend(
        orient="bottom", labelExpr=f"datum.value ? '{_q(labels['pad_yes'])}' : '{_q(labels['pad_no'])}'"
    )
    cells = (
        alt.Chart()
        .mark_rect(stroke="white", strokeWidth=2)
        .encode(
            **_grid_axes(labels, frame),
            color=alt.Color(
                "pad:N",
                title=labels["pad"],
                legend=pad_legend,
                scale=alt.Scale(domain=[False, True], range=[REAL_COLOR, PAD_COLOR]),
            ),
            tooltip=[
                alt.Tooltip("sentence:N", title=labels["sentence"]),
                alt.Tooltip("position:O", title=labels["position"]),
                alt.Tooltip("token:N", title=labels["token"]),
                alt.Tooltip("id:Q", title=labels["id"]),
            ],
        )
    )
    text = (
        alt.Chart()
        .mark_text(fontSize=12)
        .encode(**_grid_axes(labels, frame), text=alt.Text("token:N"), color=alt.ColorValue("black"))
    )
    return alt.LayerChart(
        layer=[cells, text], data=records(frame), height=alt.Step(30), width="container", title=title, autosize=FIT_X
    )


def loss_grid(frame: pd.DataFrame, labels: dict[str, str], title: str, *, ignore_pad: bool) -> alt.LayerChart:
    """-log p per target position; with ignore_pad the PAD cells are greyed out (not in the mean)."""
    counted = "datum.counted_ignore" if ignore_pad else "datum.counted_all"
    nll = alt.Color("nll:Q", title=labels["nll"], scale=alt.Scale(scheme="oranges"), legend=BOTTOM)
    cells = (
        alt.Chart()
        .mark_rect(stroke="white", strokeWidth=2)
        .encode(
            **_grid_axes(labels, frame),
            color=_cond(alt.ColorValue, counted, nll, alt.value(PAD_COLOR)),
            tooltip=[
                alt.Tooltip("sentence:N", title=labels["sentence"]),
                alt.Tooltip("token:N", title=labels["token"]),
                alt.Tooltip("nll:Q", title=labels["nll"], format=NUM_D3),
            ],
        )
    )
    text = (
        with_cell_label(alt.Chart(), "nll", "position")
        .mark_text(fontSize=11)
        .encode(
            **_grid_axes(labels, frame),
            text=alt.Text("label:N"),
            color=_cond(alt.ColorValue, counted, alt.value("black"), alt.value("#888888")),
        )
    )
    return alt.LayerChart(
        layer=[cells, text], data=records(frame), height=alt.Step(30), width="container", title=title, autosize=FIT_X
    )


def attention_heatmap(frame: pd.DataFrame, labels: dict[str, str], title: str) -> alt.LayerChart:
    """Decoder steps x source positions; weights on a fixed 0..1 scale so the two variants compare."""
    axes = {
        "x": alt.X(
            "position:N", title=labels["position"], sort=_order(frame["position"]), axis=alt.Axis(labelAngle=-40)
        ),
        "y": alt.Y("step:N", title=None, sort=_order(frame["step"])),  # "t1 thanks": step and token to predict
    }
    cells = (
        alt.Chart()
        .mark_rect()
        .encode(
            **axes,
            color=alt.Color(
                "weight:Q", title=labels["weight"], scale=alt.Scale(domain=[0, 1], scheme="blues"), legend=BOTTOM
            ),
            stroke=_cond(alt.StrokeValue, "datum.pad", alt.value(PAD_STROKE), alt.value("white")),
            strokeWidth=_cond(alt.StrokeWidthValue, "datum.pad", alt.value(2), alt.value(1)),
            strokeDash=_cond(alt.StrokeDashValue, "datum.pad", alt.value([4, 2]), alt.value([1, 0])),
            tooltip=[
                alt.Tooltip("step:N", title=labels["step"]),
                alt.Tooltip("position:N", title=labels["position"]),
                alt.Tooltip("score:Q", title=labels["score"], format=NUM_D3),
                alt.Tooltip("weight:Q", title=labels["weight"], format=NUM_D3),
            ],
        )
    )
    text = (
        with_cell_label(alt.Chart(), "weight", "position")
        .mark_text(fontSize=11)
        .encode(
            **axes,
            text=alt.Text("label:N"),
            color=_cond(alt.ColorValue, "datum.weight > 0.5", alt.value("white"), alt.value("black")),
        )
    )
    return alt.LayerChart(
        layer=[cells, text], data=records(frame), height=alt.Step(28), width="container", title=title, autosize=FIT_X
    )


def pad_share_bars(frame: pd.DataFrame, labels: dict[str, str], title: str) -> alt.LayerChart:
    """Total weight on PAD per decoder step: 0 with the mask, the leak without it (numbers on the bars,
    so the masked 0 is visible too)."""
    variants = _order(frame["variant"])
    axes = {
        "x": alt.X("step:N", title=labels["step"], sort=_order(frame["step"]), axis=alt.Axis(labelAngle=-40)),
        "xOffset": alt.XOffset("variant:N", sort=variants),
        "y": alt.Y("share:Q", title=labels["share"], scale=alt.Scale(domain=[0, 1])),
    }
    bars = (
        alt.Chart()
        .mark_bar()
        .encode(
            **axes,
            color=alt.Color("variant:N", title=labels["variant"], sort=variants, legend=STACKED),
            tooltip=[
                alt.Tooltip("step:N", title=labels["step"]),
                alt.Tooltip("variant:N", title=labels["variant"]),
                alt.Tooltip("share:Q", title=labels["share"], format=NUM_D3),
            ],
        )
    )
    text = alt.Chart().mark_text(dy=-7, fontSize=11).encode(**axes, text=alt.Text("share:Q", format=NUM_D3))
    return alt.LayerChart(
        layer=[bars, text], data=records(frame), height=180, width="container", title=title, autosize=FIT_X
    )


def final_state_bars(frame: pd.DataFrame, labels: dict[str, str], title: str) -> alt.Chart:
    """The final encoder state's components: after the PAD steps vs at the true last token."""
    states = _order(frame["state"])
    return (
        alt.Chart(records(frame), height=220, width="container", title=title, autosize=FIT_X)
        .mark_bar()
        .encode(
            x=alt.X(
                "component:N", title=labels["component"], sort=_order(frame["component"]), axis=alt.Axis(labelAngle=0)
            ),
            xOffset=alt.XOffset("state:N", sort=states),
            y=alt.Y("value:Q", title=labels["value"]),
            color=alt.Color("state:N", title=labels["state"], sort=states, legend=STACKED),
            tooltip=[
                alt.Tooltip("state:N", title=labels["state"]),
                alt.Tooltip("component:N", title=labels["component"]),
                alt.Tooltip("value:Q", title=labels["value"], format=NUM_D3),
            ],
        )
    )


def batch_charts(result: MasksResult, config: MasksConfig, labels: dict[str, str]) -> dict[str, alt.TopLevelMixin]:
    """The charts that show the whole batch: padded grids and per-token loss (labels: axis and chart titles)."""
    loss = frames.loss_frame(result, config)
    return {
        "source": batch_grid(frames.batch_frame(result, config, "source"), labels, labels["grid_source"]),
        "dec_in": batch_grid(frames.batch_frame(result, config, "dec_in"), labels, labels["grid_dec_in"]),
        "dec_out": batch_grid(frames.batch_frame(result, config, "dec_out"), labels, labels["grid_dec_out"]),
        "loss_ignore": loss_grid(loss, labels, labels["grid_ignore"], ignore_pad=True),
        "loss_all": loss_grid(loss, labels, labels["grid_all"], ignore_pad=False),
    }


def sentence_charts(
    result: MasksResult, config: MasksConfig, b: int, labels: dict[str, str]
) -> dict[str, alt.TopLevelMixin]:
    """The charts for one sentence b (0-based): attention masked vs unmasked, PAD share, final states (titled
    with the sentence's row number as typed)."""
    final_title = labels["final_chart"].format(row=config.rows[b])
    shares = {"masked": labels["masked"], "unmasked": labels["unmasked"]}
    states = {"after_pad": labels["after_pad"], "true_last": labels["true_last"]}
    return {
        "masked": attention_heatmap(frames.attention_frame(result, b, masked=True), labels, labels["heat_masked"]),
        "unmasked": attention_heatmap(frames.attention_frame(result, b, masked=False), labels, labels["heat_unmasked"]),
        "share": pad_share_bars(frames.pad_share_frame(result, b, shares), labels, labels["share_title"]),
        "final": final_state_bars(frames.final_state_frame(result, b, states), labels, final_title),
    }
