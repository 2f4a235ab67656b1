"""Altair charts for the shapes page: tensors as rows of axis blocks, padding errors, the packed grid.

Each chart is built by Altair once per language, on a named data source ("table"), and validated
then; a rerun only drops the current frame's rows into a copy of that spec (`with_rows`). Building
and validating four layered Altair charts costs far more than the forward pass they draw.
"""

from __future__ import annotations

from functools import lru_cache

import altair as alt
import pandas as pd

from s2s_core.chartkit import ordered, sci_label, with_cell_label
from s2s_core.fmt import NUM_D3, SCI_D3
from s2s_core.shapes.frames import METHODS

# What an axis means, one hue each; each keeps >= 3:1 (WCAG, graphics) on the light and the dark background
# (the picture draws them as bars; its text is in the theme colour, as no hue keeps 4.5:1 on both).
ROLE_COLORS = {"batch": "#4c78a8", "time": "#d4730b", "feature": "#54a24b", "stack": "#b279a2", "rows": "#9d755d"}
TABLE = alt.Data(name="table")
Labels = tuple[tuple[str, str], ...]  # a labels dict as sorted items, so specs can be cached per language
# shapes.padding.chart.*: the words of padding_error_chart and padding_diff_chart (diff_title: the second's title)
PADDING_LABELS = (
    "title",
    "sentence",
    "error",
    "length",
    "method",
    "method_through_pad",
    "method_gathered",
    "method_packed",
    "unit",
    "difference",
    "through_pad",
    "true_last",
    "diff_title",
)
PACKED_LABELS = ("title", "step", "sentence", "token", "row", "pad", "real")  # shapes.packed.chart.*: packed_chart's


def _spec(chart: alt.TopLevelMixin) -> dict:
    # fit-x: the width follows the container, the height is the plot's own (Streamlit's default "fit"
    # would squeeze the plot to make room for the title and legend, down to nothing on a phone).
    spec = chart.properties(autosize=alt.AutoSizeParams(type="fit-x", contains="padding")).to_dict()  # validates once
    spec.pop("config", None)  # Altair's default theme only adds a 300 px view size: Streamlit sizes charts itself
    return spec


def with_rows(spec: dict, frame: pd.DataFrame) -> dict:
    """A copy of a cached spec with the frame's rows as its "table" data (NaN -> null for JSON)."""
    rows = frame.astype(object).where(frame.notna(), None).to_dict(orient="records")
    return {**spec, "datasets": {"table": rows}}


Order = tuple  # an axis's categories in reading order (chartkit.ordered of the frame's column), part of the cache key


@lru_cache(maxsize=16)
def _error_spec(labels: Labels, sentences: Order) -> dict:
    lab = dict(labels)
    methods = [lab[f"method_{m}"] for m in METHODS]
    base = alt.Chart().encode(
        x=alt.X("sentence:N", title=lab["sentence"], sort=list(sentences), axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("method_label:N", sort=methods),
        y=alt.Y("max_abs_diff:Q", title=None),  # the chart's title says what is measured; no sideways text
    )
    bars = base.mark_bar().encode(
        color=alt.Color(
            "method_label:N",
            title=None,
            sort=methods,
            scale=alt.Scale(domain=methods, range=["#e45756", "#4c78a8", "#54a24b"]),
            legend=alt.Legend(orient="bottom", columns=1, labelLimit=260),
        ),
        tooltip=[
            alt.Tooltip("sentence:N", title=lab["sentence"]),
            alt.Tooltip("length:Q", title=lab["length"]),
            alt.Tooltip("method_label:N", title=lab["method"]),
            alt.Tooltip("max_abs_diff:Q", title=lab["error"], format=SCI_D3),
        ],
    )
    # The value on each bar: the fixes' bars are too short to see, their "1.2e-7" is the point.
    text = base.transform_calculate(**sci_label("max_abs_diff")).mark_text(dy=-6, fontSize=10).encode(text="label:N")
    return _spec(alt.layer(bars, text, data=TABLE).properties(height=200, width="container", title=lab["title"]))


def padding_error_chart(frame: pd.DataFrame, labels: dict[str, str]) -> dict:
    """Per sentence: how far each reading is from the true last state (the two fixes sit at 0)."""
    data = frame.assign(method_label=frame["method"].map(lambda m: labels[f"method_{m}"]))
    return with_rows(_error_spec(tuple(sorted(labels.items())), tuple(ordered(data["sentence"]))), data)


@lru_cache(maxsize=16)
def _diff_spec(labels: Labels, units: Order, sentences: Order) -> dict:
    lab = dict(labels)
    base = alt.Chart().encode(
        x=alt.X("unit:N", title=lab["unit"], sort=list(units), axis=alt.Axis(labelAngle=0)),
        y=alt.Y("sentence:N", title=None, sort=list(sentences)),  # "#1, #2": a rotated title reads badly in Korean
    )
    cells = base.mark_rect().encode(
        color=alt.Color(
            "difference:Q",
            title=lab["difference"],
            scale=alt.Scale(scheme="redblue", domainMid=0, reverse=True),
            legend=alt.Legend(orient="bottom", direction="horizontal"),
        ),
        tooltip=[
            alt.Tooltip("sentence:N", title=lab["sentence"]),
            alt.Tooltip("unit:N", title=lab["unit"]),
            alt.Tooltip("through_pad:Q", title=lab["through_pad"], format=NUM_D3),
            alt.Tooltip("true_last:Q", title=lab["true_last"], format=NUM_D3),
            alt.Tooltip("difference:Q", title=lab["difference"], format=NUM_D3),
        ],
    )
    text = (
        with_cell_label(base, "difference", "unit")
        .mark_text(fontSize=11)
        .encode(text=alt.Text("label:N"), color=alt.value("black"))
    )
    return _spec(
        alt.layer(cells, text, data=TABLE).properties(height=alt.Step(28), width="container", title=lab["title"])
    )


def padding_diff_chart(frame: pd.DataFrame, labels: dict[str, str]) -> dict:
    """Heatmap of (state after PAD steps) - (true last state): zero rows are sentences without PAD."""
    orders = tuple(ordered(frame["unit"])), tuple(ordered(frame["sentence"]))
    return with_rows(_diff_spec(tuple(sorted(labels.items())), *orders), frame)


@lru_cache(maxsize=16)
def _packed_spec(labels: Labels, steps: Order, sentences: Order) -> dict:
    lab = dict(labels)
    base = alt.Chart().encode(
        x=alt.X("step:O", title=lab["step"], sort=list(steps), axis=alt.Axis(labelAngle=0)),
        y=alt.Y("sentence:N", title=None, sort=list(sentences)),
    )
    cells = base.mark_rect(stroke="white", strokeWidth=2).encode(
        color=alt.Color(
            "kind:N",
            title=None,
            scale=alt.Scale(domain=[lab["real"], lab["pad"]], range=["#4c78a8", "#d9d9d9"]),
            legend=alt.Legend(orient="bottom"),
        ),
        tooltip=[
            alt.Tooltip("sentence:N", title=lab["sentence"]),
            alt.Tooltip("step:O", title=lab["step"]),
            alt.Tooltip("token:Q", title=lab["token"]),
            alt.Tooltip("label:N", title=lab["row"]),
        ],
    )
    text = base.mark_text(fontSize=12).encode(
        text="label:N",
        color=alt.Color("pad:N", scale=alt.Scale(domain=[True, False], range=["#555555", "white"]), legend=None),
    )
    return _spec(
        alt.layer(cells, text, data=TABLE)
        .resolve_scale(color="independent")
        .properties(height=alt.Step(30), width="container", title=lab["title"])
    )


def packed_chart(frame: pd.DataFrame, labels: dict[str, str]) -> dict:
    """The padded batch as a grid; each real cell shows the row of packed.data that stores it."""
    data = frame.assign(kind=frame["pad"].map(lambda p: labels["pad"] if p else labels["real"]))
    orders = tuple(int(s) for s in ordered(sorted(data["step"]))), tuple(ordered(data["sentence"]))
    return with_rows(_packed_spec(tuple(sorted(labels.items())), *orders), data)
