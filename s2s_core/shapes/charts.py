"""Altair charts for the shapes page: tensors as rows of axis blocks, padding errors, the packed grid.

Layered charts keep their data on the layer, not on the parts, and colour by field rather than
alt.condition: Altair then does far less work per rerun (same picture).
"""

from __future__ import annotations

import altair as alt
import pandas as pd

ROLE_COLORS = {"batch": "#4c78a8", "time": "#f58518", "feature": "#54a24b", "stack": "#b279a2", "rows": "#9d755d"}


def shapes_chart(frame: pd.DataFrame, labels: dict[str, str]) -> alt.Chart:
    """Each tensor is a row, each axis a block "B = 2" coloured by what it means.

    Toggling batch_first visibly swaps the batch and time blocks in x and outputs but not in h_n.
    labels: translated {"tensor", "dim", "role", "title"} and one entry per role name.
    """
    data = frame.assign(role_label=frame["role"].map(lambda r: labels[f"role_{r}"]))
    order = list(dict.fromkeys(frame["tensor"]))
    roles = [r for r in ROLE_COLORS if r in set(frame["role"])]
    base = alt.Chart().encode(
        x=alt.X("dim:O", title=labels["dim"], axis=alt.Axis(labelAngle=0)),
        y=alt.Y("tensor:N", title=None, sort=order, axis=alt.Axis(labelFontSize=13, labelFont="monospace")),
    )
    blocks = base.mark_rect(cornerRadius=4, stroke="white", strokeWidth=3).encode(
        color=alt.Color("role_label:N", title=labels["role"],
                        scale=alt.Scale(domain=[labels[f"role_{r}"] for r in roles],
                                        range=[ROLE_COLORS[r] for r in roles]),
                        legend=alt.Legend(orient="bottom", columns=2, title=None, labelLimit=200)),
        tooltip=[alt.Tooltip("tensor:N", title=labels["tensor"]), alt.Tooltip("dim:O", title=labels["dim"]),
                 alt.Tooltip("label:N", title=labels["axis"]), alt.Tooltip("role_label:N", title=labels["role"])],
    )
    text = base.mark_text(fontSize=13, color="white", fontWeight="bold").encode(text="label:N")
    return alt.layer(blocks, text, data=data).properties(height=alt.Step(34), width="container", title=labels["title"])


def padding_error_chart(frame: pd.DataFrame, labels: dict[str, str]) -> alt.Chart:
    """Per sentence: how far each reading is from the true last state (the two fixes sit at 0)."""
    data = frame.assign(method_label=frame["method"].map(lambda m: labels[f"method_{m}"]))
    methods = [labels[f"method_{m}"] for m in ("through_pad", "gathered", "packed")]
    return alt.Chart(data).mark_bar().encode(
        x=alt.X("sentence:N", title=labels["sentence"], sort=None, axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("method_label:N", sort=methods),
        y=alt.Y("max_abs_diff:Q", title=labels["error"]),
        color=alt.Color("method_label:N", title=None, sort=methods,
                        scale=alt.Scale(domain=methods, range=["#e45756", "#4c78a8", "#54a24b"]),
                        legend=alt.Legend(orient="bottom", columns=1)),
        tooltip=[alt.Tooltip("sentence:N", title=labels["sentence"]), alt.Tooltip("length:Q", title=labels["length"]),
                 alt.Tooltip("method_label:N", title=labels["method"]),
                 alt.Tooltip("max_abs_diff:Q", title=labels["error"], format=".2e")],
    ).properties(height=200, width="container", title=labels["title"])


def padding_diff_chart(frame: pd.DataFrame, labels: dict[str, str]) -> alt.Chart:
    """Heatmap of (state after PAD steps) - (true last state): zero rows are sentences without PAD."""
    base = alt.Chart().encode(
        x=alt.X("unit:N", title=labels["unit"], sort=None, axis=alt.Axis(labelAngle=0)),
        y=alt.Y("sentence:N", title=None, sort=None),  # "#1, #2": a rotated title reads badly in Korean
    )
    cells = base.mark_rect().encode(
        color=alt.Color("difference:Q", title=labels["difference"],
                        scale=alt.Scale(scheme="redblue", domainMid=0, reverse=True),
                        legend=alt.Legend(orient="bottom", direction="horizontal")),
        tooltip=[alt.Tooltip("sentence:N", title=labels["sentence"]), alt.Tooltip("unit:N", title=labels["unit"]),
                 alt.Tooltip("through_pad:Q", title=labels["through_pad"], format=".4f"),
                 alt.Tooltip("true_last:Q", title=labels["true_last"], format=".4f"),
                 alt.Tooltip("difference:Q", title=labels["difference"], format=".4f")],
    )
    text = base.mark_text(fontSize=11).encode(text=alt.Text("difference:Q", format=".2f"), color=alt.value("black"))
    return alt.layer(cells, text, data=frame).properties(height=alt.Step(28), width="container",
                                                         title=labels["title"])


def packed_chart(frame: pd.DataFrame, labels: dict[str, str]) -> alt.Chart:
    """The padded batch as a grid; each real cell shows the row of packed.data that stores it."""
    data = frame.assign(kind=frame["pad"].map(lambda p: labels["pad"] if p else labels["real"]))
    base = alt.Chart().encode(
        x=alt.X("step:O", title=labels["step"], axis=alt.Axis(labelAngle=0)),
        y=alt.Y("sentence:N", title=None, sort=None),
    )
    cells = base.mark_rect(stroke="white", strokeWidth=2).encode(
        color=alt.Color("kind:N", title=None, scale=alt.Scale(domain=[labels["real"], labels["pad"]],
                                                              range=["#4c78a8", "#d9d9d9"]),
                        legend=alt.Legend(orient="bottom")),
        tooltip=[alt.Tooltip("sentence:N", title=labels["sentence"]), alt.Tooltip("step:O", title=labels["step"]),
                 alt.Tooltip("token:Q", title=labels["token"]), alt.Tooltip("label:N", title=labels["row"])],
    )
    text = base.mark_text(fontSize=12).encode(
        text="label:N", color=alt.Color("pad:N", scale=alt.Scale(domain=[True, False], range=["#555555", "white"]),
                                        legend=None))
    return alt.layer(cells, text, data=data).resolve_scale(color="independent").properties(
        height=alt.Step(30), width="container", title=labels["title"])


def vega_spec(chart: alt.TopLevelMixin) -> dict:
    """The chart as a Vega-Lite dict (validated once here), without Altair's default view size.

    The page caches these dicts by (config, language): a rerun then draws them with no Altair work.
    """
    spec = chart.to_dict()
    spec.pop("config", None)  # Altair's default theme only adds a 300 px view size: Streamlit sizes charts itself
    return spec
