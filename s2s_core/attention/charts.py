"""The attention page's picture: the weighted sum itself, one layered Vega-Lite view at the container's width.

D = 2 ("plane"): each source vector is an arrow from the origin; the chosen decoder step's context is a
purple point, their weighted average, joined to every source by a line whose thickness and opacity are
that source's weight. Other sizes ("lines"): sources on the left, decoder steps on the right, one line
per (step, source) whose thickness is the weight. A step slider inside the chart (the shared step
control's `step_param`) picks the decoder step in the browser; hovering a source lights it and its
lines; clicking a source or a line selects it (`pick`) so the page can write out its arithmetic. The
previous input's lines and context stay faint and dashed behind (before / after an edit).
"""

from __future__ import annotations

from collections.abc import Mapping

import altair as alt
import pandas as pd

from s2s_core.attention.frames import Picture
from s2s_core.chartkit import FIT_X, records

SOURCE = "#2C7FB8"  # the app's role colours (every page's pictures): source / encoder
DECODER = "#D55E00"  # target / decoder
CONTEXT = "#B8588F"  # attention and context
PAD = "#8A8A8A"  # PAD (always also labelled "PAD")
STEP_PARAM = "step_sel"  # the step control's selection (s2s_ui/steps.py reads it by this name)
PICK_PARAM = "pick"  # click to explain: the picked source position
HOVER_PARAM = "hover"
HEIGHT = 380
FONT = 12  # every text in the picture is at least 11 px
_AXIS = {"grid": True, "labelFontSize": FONT, "titleFontSize": FONT}
# The words `attention_picture` takes (catalog keys under "attention.chart."): the title, subtitle and description
# come in one version per layout, and the picture takes the one of its own.
LABELS = (
    "axis_x",
    "axis_y",
    "position",
    "weight",
    "before",
    *(f"{part}_{layout}" for part in ("title", "subtitle", "description") for layout in ("plane", "lines")),
)


def _domain(values: list[float], pad: float = 0.12) -> list[float]:
    lo, hi = min(values), max(values)
    span = hi - lo or 1.0
    return [lo - pad * span, hi + pad * span]


def _scales(picture: Picture) -> tuple[alt.Scale, alt.Scale]:
    """Shared x / y scales: the plane includes the origin and every point, old and new; lines are fixed."""
    if picture.layout == "lines":
        n = max(1, len(picture.sources) - 1)
        return alt.Scale(domain=[-0.35, 1.35]), alt.Scale(domain=[-0.9, n + 0.6], reverse=True)
    frames = [picture.sources, picture.contexts, picture.before_contexts]
    xs = [0.0, *(x for f in frames for x in f["x"].tolist())]
    ys = [0.0, *(y for f in frames for y in f["y"].tolist())]
    return alt.Scale(domain=_domain(xs), nice=False), alt.Scale(domain=_domain(ys, 0.18), nice=False)


def attention_picture(
    picture: Picture, labels: Mapping[str, str], step_param: alt.SelectionParameter, picked: str | None = None
) -> alt.LayerChart:
    """labels: the learner's words, one for each of LABELS.

    step_param: the shared step control's point selection on "step" (s2s_ui.steps.step_param), bound to the
    slider; it filters which decoder step's lines and context are drawn at full strength.
    picked: the source the picture starts with as picked ("s2", from the link or an earlier click), or None.
    """
    x_scale, y_scale = _scales(picture)
    plane = picture.layout == "plane"
    # The plane's axes are components of the vectors; the lines layout has no meaningful axes.
    axis_x = alt.Axis(title=labels["axis_x"], description=labels["axis_x"], **_AXIS) if plane else None
    axis_y = alt.Axis(title=labels["axis_y"], description=labels["axis_y"], **_AXIS) if plane else None
    x = alt.X("x:Q", scale=x_scale, axis=axis_x)
    y = alt.Y("y:Q", scale=y_scale, axis=axis_y)
    hover = alt.selection_point(
        name=HOVER_PARAM, fields=["position"], on="pointerover", clear="pointerout", empty=False
    )
    # The pick starts where the learner left it (a shared link reopens with that source ringed and explained). A
    # click on another source moves it; nothing in the browser clears it (no double-click clear): the chart reports
    # no clear of a pick it started with, so the line under the picture and the link could not follow one.
    start = {"value": [{"position": picked}]} if picked is not None else {}
    pick = alt.selection_point(name=PICK_PARAM, fields=["position"], on="click", clear=False, empty=False, **start)
    role = alt.condition("datum.pad", alt.value(PAD), alt.value(SOURCE))
    weight = alt.Scale(domain=[0, 1])

    # 1) The previous input's lines and context, faint and dashed (empty until there was an edit).
    before_links = (
        alt.Chart(records(picture.before_links))
        .mark_rule(strokeDash=[4, 3], color=PAD, opacity=0.45)
        .encode(
            x=x,
            y=y,
            x2="x2:Q",
            y2="y2:Q",
            strokeWidth=alt.StrokeWidth("weight:Q", scale=weight, legend=None),
            description=alt.Description("aria:N"),
        )
        .transform_filter(step_param)
    )
    before_context = (
        alt.Chart(records(picture.before_contexts))
        .mark_point(shape="circle", size=140, strokeWidth=2, strokeDash=[3, 2], color=PAD, opacity=0.7)
        .encode(x=x, y=y, description=alt.Description("label:N"))
        .transform_filter(step_param)
    )
    before_text = before_context.mark_text(dy=16, fontSize=FONT, color=PAD).encode(
        text=alt.value(labels["before"]), description=alt.Description("label:N")
    )

    by_weight = alt.Opacity("weight:Q", scale=alt.Scale(domain=[0, 1], range=[0.25, 0.95]), legend=None)

    # 2) The lines of the weighted sum: thickness and opacity are the weight; the other steps' lines faint.
    links = (
        alt.Chart(records(picture.links))
        .mark_rule(color=CONTEXT, strokeCap="round")
        .encode(
            x=x,
            y=y,
            x2="x2:Q",
            y2="y2:Q",
            strokeWidth=alt.StrokeWidth("weight:Q", scale=alt.Scale(domain=[0, 1], range=[0.5, 12]), legend=None),
            # Hovering a source (or one of its lines) brings its lines to full strength; on the lines layout the
            # chosen step's lines are strong and the others faint.
            opacity=(
                alt.when(hover).then(alt.value(1)).otherwise(by_weight)
                if plane
                else alt.condition(step_param, by_weight, alt.value(0.08))
            ),
            description=alt.Description("aria:N"),
            tooltip=alt.Tooltip("aria:N", title=labels["weight"]),
        )
    )
    if plane:  # on the plane only the chosen step's lines are drawn: all of them would cross in a tangle
        links = links.transform_filter(step_param)

    # 3) The sources: arrows from the origin on the plane, dots on the left otherwise; PAD grey and named.
    origin = pd.DataFrame({"x": [0.0] * len(picture.sources)})
    source_frame = picture.sources.assign(x0=origin["x"].values, y0=origin["x"].values)
    base = alt.Chart(records(source_frame))
    shafts = base.mark_rule(strokeWidth=2).encode(
        x="x0:Q", y="y0:Q", x2="x:Q", y2="y:Q", color=role, description=alt.Description("label:N")
    )
    heads = base.mark_point(shape="triangle-up", filled=True, size=150, opacity=1).encode(
        x=x,
        y=y,
        angle=alt.Angle("angle:Q", scale=None),
        color=role,
        description=alt.Description("label:N"),
        tooltip=alt.Tooltip("label:N", title=labels["position"]),
    )
    marker = (
        heads
        if plane
        else base.mark_circle(size=220, opacity=1).encode(
            x=x, y=y, color=role, description=alt.Description("label:N"), tooltip=alt.Tooltip("label:N")
        )
    )
    # A generous, invisible target for hover and click; it carries the picture's three selections.
    target = (
        base.mark_circle(size=900, opacity=0.01)
        .encode(
            x=x, y=y, description=alt.Description("label:N"), tooltip=alt.Tooltip("label:N", title=labels["position"])
        )
        .add_params(step_param, hover, pick)
    )
    ring = base.mark_point(size=520, strokeWidth=3, filled=False).encode(
        x=x,
        y=y,
        color=role,
        opacity=alt.when(pick).then(alt.value(1)).when(hover).then(alt.value(0.7)).otherwise(alt.value(0)),
        description=alt.Description("label:N"),
    )
    names = base.mark_text(
        fontSize=FONT,
        fontWeight="bold",
        align="left" if plane else "right",
        dx=10 if plane else -14,
        dy=-12 if plane else 0,
    ).encode(x=x, y=y, text="label:N" if plane else "name:N", color=role, description=alt.Description("label:N"))

    # 4) The context of the chosen step: a purple point with its numbers (the decoder steps' nodes on lines).
    contexts = alt.Chart(records(picture.contexts))
    if plane:
        others = contexts.mark_point(shape="circle", size=90, strokeWidth=2, color=CONTEXT).encode(
            x=x,
            y=y,
            opacity=alt.condition(step_param, alt.value(0), alt.value(0.35)),
            description=alt.Description("label:N"),
        )
        point = (
            contexts.mark_point(shape="diamond", filled=True, size=260, color=CONTEXT, opacity=1)
            .encode(x=x, y=y, description=alt.Description("label:N"), tooltip=alt.Tooltip("label:N"))
            .transform_filter(step_param)
        )
        label = point.mark_text(fontSize=FONT + 1, fontWeight="bold", align="center", dy=22, color=CONTEXT).encode(
            text="label:N"
        )
        context_layers = [others, point, label]
    else:
        nodes = contexts.mark_circle(size=220, color=DECODER).encode(
            x=x,
            y=y,
            opacity=alt.condition(step_param, alt.value(1), alt.value(0.35)),
            description=alt.Description("label:N"),
            tooltip=alt.Tooltip("label:N"),
        )
        node_names = contexts.mark_text(fontSize=FONT, align="left", dx=12, color=DECODER).encode(
            x=x, y=y, text="node:N", description=alt.Description("label:N")
        )
        label = (
            contexts.mark_text(
                fontSize=FONT + 1,
                fontWeight="bold",
                color=CONTEXT,
                align="left",
                baseline="top",
                limit=alt.ExprRef("width"),
            )
            .encode(x=alt.value(0), y=alt.value(2), text="label:N", description=alt.Description("label:N"))
            .transform_filter(step_param)
        )
        context_layers = [nodes, node_names, label]

    layers = [before_links, links, *([shafts] if plane else []), before_context, before_text, marker, target, ring]
    layers = [*layers, names, *context_layers]
    return alt.layer(
        *layers,
        width="container",
        height=HEIGHT,
        autosize=FIT_X,
        title=alt.Title(
            labels[f"title_{picture.layout}"],
            subtitle=labels[f"subtitle_{picture.layout}"].split("\n"),
            fontSize=FONT + 3,
            subtitleFontSize=FONT,
            anchor="start",
        ),
        description=labels[f"description_{picture.layout}"],
    )
