"""Altair charts for the Training lab: loss, teacher-forced vs free-running accuracy, attention map, bottleneck."""

from __future__ import annotations

from collections.abc import Mapping

import altair as alt
import pandas as pd

from s2s_core.chartkit import ordered, title_lines, with_cell_label
from s2s_core.fmt import NUM_D3, PCT_D3

# Fixed colours and dashes (readable on light and dark themes, and without colour): the page names them in
# a caption instead of a Vega legend, which Streamlit lays out at the cost of most of the plot's height.
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c")
DASHES = ((1, 0), (6, 3), (2, 2))
# training.chart.*: every word the builders below take (the page hands them over with s2s_core.catalog.words);
# m_* name the accuracy curves (frames.METRICS), out_step the map's rows (output steps).
# Room left of a chart with a y-axis title: Vega places the rotated title as if it were fontSize wide, but the font's
# line box is about 1.35 em, so the title stood 2-3 px past the SVG's left edge, where a Korean title's glyphs were
# visibly cut at 390 px (Streamlit's theme gives a chart no left padding).
Y_TITLE_PAD = {"left": 6}
LABELS = (
    "step",
    "loss",
    "tf_ratio",
    "loss_title",
    "accuracy",
    "metric",
    "accuracy_title",
    "position",
    "weight",
    "map_title",
    "length",
    "exact",
    "model",
    "n",
    "bottleneck_title",
    "out_step",
    "m_tf_token_acc",
    "m_free_token_acc",
    "m_free_exact",
    "survival",
    "item",
    "survival_title",
    "item_name",
    "item_quantity",
)


def loss_chart(frame: pd.DataFrame, labels: Mapping[str, str]) -> alt.Chart:
    """Training loss per step (the loss the optimiser saw: under teacher forcing / scheduled sampling)."""
    return (
        alt.Chart(frame)
        .mark_line(strokeWidth=1.5)
        .encode(
            x=alt.X("step:Q", title=labels["step"]),
            y=alt.Y("loss:Q", title=labels["loss"], scale=alt.Scale(zero=True), axis=alt.Axis(format=NUM_D3)),
            tooltip=[
                alt.Tooltip("step:Q", title=labels["step"]),
                alt.Tooltip("loss:Q", title=labels["loss"], format=NUM_D3),
                alt.Tooltip("tf_ratio:Q", title=labels["tf_ratio"], format=NUM_D3),
            ],
        )
        .properties(height=240, width="container", title=title_lines(labels["loss_title"]), padding=Y_TITLE_PAD)
    )


def series_style(field: str, names: list[str]) -> dict[str, alt.Color | alt.StrokeDash]:
    """One colour and one dash per line, in the order of `names` (no legend: the page names the lines): told
    apart without colour too. For `.encode(**series_style(...))`."""
    return {
        "color": alt.Color(f"{field}:N", scale=alt.Scale(domain=names, range=list(PALETTE[: len(names)])), legend=None),
        "strokeDash": alt.StrokeDash(
            f"{field}:N", scale=alt.Scale(domain=names, range=[list(d) for d in DASHES[: len(names)]]), legend=None
        ),
    }


def accuracy_chart(frame: pd.DataFrame, labels: Mapping[str, str]) -> alt.Chart:
    """Held-out accuracy: teacher-forced token accuracy above, free-running below; the gap is the point."""
    names = list(dict.fromkeys(frame["metric"]))
    return (
        alt.Chart(frame)
        .mark_line(point=True, strokeWidth=2)
        .encode(
            x=alt.X("step:Q", title=labels["step"]),
            y=alt.Y("value:Q", title=labels["accuracy"], scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format=PCT_D3)),
            **series_style("metric", names),
            tooltip=[
                alt.Tooltip("step:Q", title=labels["step"]),
                alt.Tooltip("metric:N", title=labels["metric"]),
                alt.Tooltip("value:Q", title=labels["accuracy"], format=PCT_D3),
            ],
        )
        .properties(height=240, width="container", title=title_lines(labels["accuracy_title"]), padding=Y_TITLE_PAD)
    )


def attention_heatmap(frame: pd.DataFrame, labels: Mapping[str, str]) -> alt.LayerChart:
    """Output steps (rows) x source positions (columns); hovering a cell outlines its whole row and column.
    Both axes carry their order (t1 at the top, s1 on the left): without it Vega keeps the labels an earlier map
    had in front when Streamlit swaps the data of the same chart (columns s4, s2, s3, s1 after an edit)."""
    row = alt.selection_point(name="hover_row", fields=["step"], on="pointerover", clear="pointerout", empty=False)
    col = alt.selection_point(name="hover_col", fields=["position"], on="pointerover", clear="pointerout", empty=False)
    base = alt.Chart(frame).encode(
        # No axis titles: the chart title names both axes, and a phone needs the width for the cells.
        # Column labels "s1 · 5" go on two lines ("s1" over "5"), so even a phone's narrow cells keep them all.
        x=alt.X(
            "position:N",
            title=None,
            sort=ordered(frame.sort_values("s", kind="stable")["position"]),
            axis=alt.Axis(
                orient="top", labelAngle=0, labelOverlap=False, labelFontSize=12, labelExpr="split(datum.label, ' · ')"
            ),
        ),
        y=alt.Y(
            "step:N",
            title=None,
            sort=ordered(frame.sort_values("t", kind="stable")["step"]),
            axis=alt.Axis(labelOverlap=False, labelFontSize=12),
        ),
    )
    cells = (
        base.mark_rect()
        .encode(
            # The legend under the map: beside it, it would take a phone's width from the cells (and a map of
            # 3-4 rows is shorter than a vertical legend, which would be clipped).
            color=alt.Color(
                "weight:Q",
                title=labels["weight"],
                scale=alt.Scale(scheme="blues", domain=[0, 1]),
                legend=alt.Legend(orient="bottom", gradientLength=160, tickCount=5, format=NUM_D3, labelFontSize=12),
            ),
            stroke=alt.condition(row | col, alt.value("#ff4b4b"), alt.value("#ffffff")),
            strokeWidth=alt.condition(row | col, alt.value(2.5), alt.value(0.5)),
            tooltip=[
                alt.Tooltip("step:N", title=labels["step"]),
                alt.Tooltip("position:N", title=labels["position"]),
                alt.Tooltip("weight:Q", title=labels["weight"], format=NUM_D3),
            ],
        )
        .add_params(row, col)
    )
    text = (
        with_cell_label(base, "weight", "position")
        .mark_text(fontSize=11)
        .encode(
            text=alt.Text("label:N"),  # num() where a cell is wide enough, two decimals where it is not
            color=alt.condition("datum.weight > 0.5", alt.value("white"), alt.value("black")),
        )
    )
    return (cells + text).properties(height=alt.Step(28), width="container", title=title_lines(labels["map_title"]))


def bottleneck_chart(frame: pd.DataFrame, labels: Mapping[str, str]) -> alt.LayerChart:
    """Exact match against source length, one line per model (the shape of Bahdanau et al.'s Figure 2), each a few
    pixels off its value (LINE_OFFSETS), so two models that both reach 100 % stay two lines."""
    names = list(dict.fromkeys(frame["model"]))
    base = alt.Chart(frame).encode(
        x=alt.X("length:O", title=labels["length"], sort=ordered(sorted(frame["length"])), axis=alt.Axis(labelAngle=0)),
        y=alt.Y("exact:Q", title=labels["exact"], scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format=PCT_D3)),
        color=alt.Color("model:N", scale=alt.Scale(domain=names, range=list(PALETTE[: len(names)])), legend=None),
        strokeDash=alt.StrokeDash(
            "model:N", scale=alt.Scale(domain=names, range=[list(d) for d in DASHES[: len(names)]]), legend=None
        ),
        tooltip=[
            alt.Tooltip("model:N", title=labels["model"]),
            alt.Tooltip("length:O", title=labels["length"]),
            alt.Tooltip("exact:Q", title=labels["exact"], format=PCT_D3),
            alt.Tooltip("n:Q", title=labels["n"]),
        ],
    )
    return alt.layer(*apart(base, [alt.datum.model == m for m in names], 60)).properties(
        height=260, width="container", title=title_lines(labels["bottleneck_title"]), padding=Y_TITLE_PAD
    )


# Lines that coincide (two models both at 100 %, the name and the number both copied every time) would hide one
# another: each line is drawn this many pixels above or below its value, so every one stays in sight (the tooltip and
# the marks' descriptions keep the exact value).
LINE_OFFSETS = {2: (-2.5, 2.5), 4: (-5.5, -2, 2, 5.5)}


def survival_chart(frame: pd.DataFrame, labels: Mapping[str, str]) -> alt.LayerChart:
    """The names task: how often the name and the quantity survive, against source length, with and without
    attention. Colour and point shape name the model (as in the exact-match chart), the dash names the item. One
    layer per line, each a few pixels off its value (LINE_OFFSETS), so lines that meet at 100 % stay apart."""
    models = ordered(frame["model"])
    items = ordered(frame["item"])
    base = alt.Chart(frame).encode(
        x=alt.X("length:O", title=labels["length"], sort=ordered(sorted(frame["length"])), axis=alt.Axis(labelAngle=0)),
        y=alt.Y("rate:Q", title=labels["survival"], scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format=PCT_D3)),
        color=alt.Color("model:N", scale=alt.Scale(domain=models, range=list(PALETTE[: len(models)])), legend=None),
        shape=alt.Shape(
            "model:N", scale=alt.Scale(domain=models, range=["circle", "square"][: len(models)]), legend=None
        ),
        strokeDash=alt.StrokeDash(
            "item:N", scale=alt.Scale(domain=items, range=[list(d) for d in DASHES[: len(items)]]), legend=None
        ),
        detail="item:N",
        tooltip=[
            alt.Tooltip("model:N", title=labels["model"]),
            alt.Tooltip("item:N", title=labels["item"]),
            alt.Tooltip("length:O", title=labels["length"]),
            alt.Tooltip("rate:Q", title=labels["survival"], format=PCT_D3),
            alt.Tooltip("n:Q", title=labels["n"]),
        ],
    )
    lines = [(alt.datum.model == m) & (alt.datum.item == i) for m in models for i in items]
    return alt.layer(*apart(base, lines, 60, filled=True)).properties(
        height=260, width="container", title=title_lines(labels["survival_title"]), padding=Y_TITLE_PAD
    )


def apart(base: alt.Chart, lines: list, size: int, **point) -> list[alt.Chart]:
    """One line layer per predicate of `lines` (a model, or a model and an item), each drawn LINE_OFFSETS pixels
    above or below its value, points included."""
    offsets = LINE_OFFSETS.get(len(lines), (0.0,) * len(lines))
    return [
        base.transform_filter(line).mark_line(
            point=alt.OverlayMarkDef(size=size, yOffset=dy, **point), strokeWidth=2.5, yOffset=dy
        )
        for line, dy in zip(lines, offsets, strict=True)
    ]
