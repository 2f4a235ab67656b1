"""The attention page's picture: the weighted sum itself, one layered Vega-Lite view at the container's width.

D = 2 ("plane"): each source vector is an arrow from the origin; the chosen decoder step's context is a
purple point, their weighted average, joined to every source by a line whose thickness and opacity are
that source's weight. Other sizes ("lines"): sources on the left, decoder steps on the right, one line
per (step, source) whose thickness is the weight. A step slider inside the chart (the shared step
control's `step_param`) picks the decoder step in the browser; hovering a source lights it and its
lines; clicking a source or a line selects it (`pick`) so the page can write out its arithmetic. The
previous input's lines and context stay faint and dashed behind (before / after an edit); the other steps'
contexts are faint rings named by their step. A key under the plot names the rings.

Under the plot (and the key) the chain of the chosen step, which follows the same slider: one column per source
position, the row the second table gave (scores, or the typed weights), what turned it into weights (softmax,
or ÷ the typed row's sum: weights mode has no scores and no softmax, and says so), the weights as numbers and
bars, and the weighted sum, the step's context. These rows sit below the plot in pixels (the y dimension of the
fit-x autosize grows to hold them); their x is in the plot's own units, so every layer shares one x scale.

Text on the page background uses the theme's text colour: no role colour keeps 4.5:1 on both #ffffff and
#171614 (the graphics keep theirs, ≥ 3:1), so the colour is carried by the arrow, diamond or bar beside it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import altair as alt
import pandas as pd

from s2s_core.attention.frames import Picture
from s2s_core.chartkit import FIT_X, records, text_width
from s2s_core.fmt import CELL_D3, NUM_D3

SOURCE = "#2C7FB8"  # the app's role colours (every page's pictures): source / encoder
DECODER = "#D55E00"  # target / decoder
CONTEXT = "#B8588F"  # attention and context
PAD = "#8A8A8A"  # PAD (always also labelled "PAD")
TEXT = "currentColor"  # the theme's text colour: text standing on the page keeps 4.5:1 on light and dark
STEP_PARAM = "step_sel"  # the step control's selection (s2s_ui/steps.py reads it by this name)
PICK_PARAM = "pick"  # click to explain: the picked source position
HOVER_PARAM = "hover"
HEIGHT = 320  # the plot; the key and the chain below it add ~130 px (a phone's first screen holds the slider)
FONT = 12  # every text in the picture is at least 11 px
_AXIS = {"grid": True, "labelFontSize": FONT, "titleFontSize": FONT}
# The chain under the plot, in pixels below the plot's top: where it starts (below the x axis and its title on the
# plane; the lines layout has no axes), the key's row, and each chain row's offset from the chain's top.
STRIP_TOP = {"plane": HEIGHT + 62, "lines": HEIGHT + 4}
KEY_ROW = 22  # the key takes this much when it has an entry
ROWS = {"head": 0, "given": 19, "arrow": 36, "weight": 53, "bar": 65, "sum": 88}
BAR_PX = 7  # the weight bar's thickness
LABEL_FRAC = 0.2  # the row names' share of the width; the source columns share the rest
CELL_GAP = 0.06  # of a column's width, left free on each side of its cells
MIN_NUM_PX, MIN_CELL_PX = 48, 30  # a column this wide prints num() (4 decimals), two decimals, or leaves it to hovers
CHAR_PX = 7  # about one Latin character's width at the chain's 12 px (bold)
# The words `attention_picture` takes (catalog keys under "attention.chart."): the title, subtitle and description
# come in one version per layout, and the picture takes the one of its own.
LABELS = (
    "axis_x",
    "axis_y",
    "position",
    "weight",
    "key_other",
    "key_before",
    "chain_scores",
    "chain_typed",
    "chain_softmax",
    "chain_weights",
    "chain_context",
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


def _key_layers(
    picture: Picture, labels: Mapping[str, str], x: alt.X, at: Callable[[float], float], top: int
) -> list[alt.Chart]:
    """Under the plot: what the faint rings are (the other steps' contexts) and the dashed ones (before the edit).

    An entry is there only when its marks are: a key never names what the picture does not draw. `at(frac)`
    is the x (in the plot's units) a share of the width from the left.
    """
    entries = []
    if picture.layout == "plane" and len(picture.contexts) > 1:
        entries.append({"text": labels["key_other"], "kind": "other"})
    if not picture.before_contexts.empty:
        entries.append({"text": labels["key_before"], "kind": "before"})
    if not entries:
        return []
    for n, entry in enumerate(entries):
        entry["x"] = at(0.5 * n)
    key = alt.Chart(records(pd.DataFrame(entries)))
    y = alt.value(top + 6)
    symbol = {
        "other": dict(shape="circle", size=90, strokeWidth=2, color=CONTEXT, opacity=0.35),
        "before": dict(shape="circle", size=140, strokeWidth=2, strokeDash=[3, 2], color=PAD, opacity=0.7),
    }
    marks = [
        key.transform_filter(f"datum.kind == '{kind}'").mark_point(xOffset=8, aria=False, **style).encode(x=x, y=y)
        for kind, style in symbol.items()
        if any(e["kind"] == kind for e in entries)
    ]
    words = key.mark_text(fontSize=FONT, align="left", dx=20, color=TEXT).encode(x=x, y=y, text="text:N")
    return [*marks, words]


def _chain_layers(
    picture: Picture,
    labels: Mapping[str, str],
    step_param: alt.SelectionParameter,
    x_of: Callable[[str], alt.X],
    at: Callable[[float], float],
    top: int,
) -> list[alt.Chart]:
    """The chosen step's chain, one column per source: given → (softmax | ÷ sum) → weights → weighted sum."""
    S = len(picture.sources)
    column = (1 - LABEL_FRAC) / S  # one source's share of the width
    # Each cell's centre, left and right edge (in the plot's x units), and the text that fits its live width.
    frame = picture.chain.merge(picture.sources[["position", "name"]], on="position")
    frame = frame.assign(
        cx=[at(LABEL_FRAC + (c + 0.5) * column) for c in frame["col"]],
        left=[at(LABEL_FRAC + (c + CELL_GAP) * column) for c in frame["col"]],
        right=[at(LABEL_FRAC + (c + 1 - CELL_GAP) * column) for c in frame["col"]],
    )
    frame["bar"] = frame["left"] + (frame["right"] - frame["left"]) * frame["weight"]
    # The pixels a name or a word needs at the chain's font; narrower columns print the position's number (the
    # header) or leave the word to the hover (a PAD cell).
    frame["short"] = [str(c + 1) for c in frame["col"]]
    frame["need_name"] = [CHAR_PX * text_width(n) + 4 for n in frame["name"]]
    frame["need_given"] = [CHAR_PX * text_width(g) + 4 for g in frame["given_text"]]
    px = f"width * {column}"  # a column's live width in pixels
    fits = f"{px} >= {MIN_NUM_PX} ? '{NUM_D3}' : {px} >= {MIN_CELL_PX} ? '{CELL_D3}' : ''"
    cells = (
        alt.Chart(records(frame))
        .transform_filter(step_param)
        .transform_calculate(
            head=f"{px} >= datum.need_name ? datum.name : datum.short",
            weight_text=f"({fits}) == '' ? '' : format(datum.weight, {fits})",
            given_shown=f"datum.masked ? ({px} >= datum.need_given ? datum.given_text : '') : {px} >= {MIN_NUM_PX} "
            f"? datum.given_text : {px} >= {MIN_CELL_PX} ? format(datum.given, '{CELL_D3}') : ''",
        )
    )
    x, cx = x_of("x"), x_of("cx")

    def row(name: str) -> alt.ValueChannelMixin:
        return alt.value(top + ROWS[name])

    heads = cells.mark_text(fontSize=FONT, fontWeight="bold", color=TEXT).encode(x=cx, y=row("head"), text="head:N")
    given = cells.mark_text(fontSize=FONT, color=TEXT).encode(x=cx, y=row("given"), text="given_shown:N")
    arrows = cells.mark_text(fontSize=FONT, color=TEXT, aria=False).encode(x=cx, y=row("arrow"), text=alt.value("↓"))
    weights = cells.mark_text(fontSize=FONT, fontWeight="bold", color=TEXT).encode(
        x=cx, y=row("weight"), text="weight_text:N"
    )
    bar_y = alt.value(top + ROWS["bar"])
    bar_y2 = alt.value(top + ROWS["bar"] + BAR_PX)
    track = cells.mark_rect(fill=None, stroke=TEXT, strokeOpacity=0.45, strokeWidth=1, aria=False).encode(
        x=x_of("left"), x2="right:Q", y=bar_y, y2=bar_y2
    )
    bars = cells.mark_rect(color=CONTEXT).encode(
        x=x_of("left"),
        x2="bar:Q",
        y=bar_y,
        y2=bar_y2,
        description=alt.Description("aria:N"),
        tooltip=alt.Tooltip("aria:N", title=labels["chain_weights"]),
    )

    # The row names on the left, and per step its name, how its weights were made and its weighted sum.
    given_name = labels["chain_scores"] if picture.mode == "scores" else labels["chain_typed"]
    rows = {"given": given_name, "weight": labels["chain_weights"], "sum": labels["chain_context"]}
    if picture.mode == "scores":
        rows["arrow"] = labels["chain_softmax"]
    names = alt.Chart(records(pd.DataFrame([{"x": at(0), **rows}])))
    row_names = [
        names.mark_text(fontSize=FONT, align="left", color=TEXT).encode(x=x, y=row(name), text=f"{name}:N")
        for name in rows
    ]
    steps = alt.Chart(records(picture.chain_steps.assign(x=at(0), sx=at(LABEL_FRAC + CELL_GAP * column))))
    steps = steps.transform_filter(step_param)
    step_name = steps.mark_text(fontSize=FONT, fontWeight="bold", align="left", color=TEXT).encode(
        x=x, y=row("head"), text="name:N"
    )
    layers = [*row_names, step_name, heads, given, arrows, weights, track, bars]
    if picture.mode == "weights":  # weights mode: no softmax, the typed row divided by its sum
        layers.append(
            steps.mark_text(fontSize=FONT, align="left", color=TEXT).encode(x=x, y=row("arrow"), text="divide:N")
        )
    diamond = steps.mark_point(shape="diamond", filled=True, size=110, color=CONTEXT, opacity=1, xOffset=5)
    total = steps.mark_text(fontSize=FONT + 1, fontWeight="bold", align="left", dx=14, color=TEXT)
    layers += [
        diamond.encode(x=x_of("sx"), y=row("sum")),
        total.encode(x=x_of("sx"), y=row("sum"), text="sum:N"),
    ]
    return layers


def attention_picture(
    picture: Picture, labels: Mapping[str, str], step_param: alt.SelectionParameter, picked: str | None = None
) -> alt.LayerChart:
    """labels: the learner's words, one for each of LABELS.

    step_param: the shared step control's point selection on "step" (s2s_ui.steps.step_param), bound to the
    slider; it filters which decoder step's lines and context are drawn at full strength, and the chain.
    picked: the source the picture starts with as picked ("s2", from the link or an earlier click), or None.
    """
    x_scale, y_scale = _scales(picture)
    plane = picture.layout == "plane"
    # The plane's axes are components of the vectors; the lines layout has no meaningful axes.
    axis_x = alt.Axis(title=labels["axis_x"], description=labels["axis_x"], **_AXIS) if plane else None
    axis_y = alt.Axis(title=labels["axis_y"], description=labels["axis_y"], **_AXIS) if plane else None

    def x_of(field: str) -> alt.X:
        """An x channel on the plot's one x scale (every layer repeats the axis: Vega-Lite merges a layer's
        missing axis into none)."""
        return alt.X(f"{field}:Q", scale=x_scale, axis=axis_x)

    x = x_of("x")
    y = alt.Y("y:Q", scale=y_scale, axis=axis_y)
    lo, hi = x_scale.domain

    def at(frac: float) -> float:
        """The x (in the plot's units) a share `frac` of the plot's width from its left edge."""
        return lo + (hi - lo) * frac

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

    # 1) The previous input's lines and context, faint and dashed: drawn only after an edit (a layer with no data
    #    would leave an empty, unnamed mark group for screen readers). The key under the plot names them. A faded
    #    copy says nothing of its own to a screen reader (aria: false), and its step filter can leave it empty (an
    #    edit that added a step: the old input has no such step).
    before_layers = []
    if not picture.before_contexts.empty:
        before_links = (
            alt.Chart(records(picture.before_links))
            .mark_rule(strokeDash=[4, 3], color=PAD, opacity=0.45, aria=False)
            .encode(x=x, y=y, x2="x2:Q", y2="y2:Q", strokeWidth=alt.StrokeWidth("weight:Q", scale=weight, legend=None))
            .transform_filter(step_param)
        )
        before_context = (
            alt.Chart(records(picture.before_contexts))
            .mark_point(shape="circle", size=140, strokeWidth=2, strokeDash=[3, 2], color=PAD, opacity=0.7, aria=False)
            .encode(x=x, y=y)
            .transform_filter(step_param)
        )
        before_layers = [before_links, before_context]

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
    # The names in the theme's text colour (the arrow beside each one carries its role colour).
    names = base.mark_text(
        fontSize=FONT,
        fontWeight="bold",
        align="left" if plane else "right",
        dx=10 if plane else -14,
        dy=-12 if plane else 0,
        color=TEXT,
    ).encode(x=x, y=y, text="label:N" if plane else "name:N", description=alt.Description("label:N"))

    # 4) The context of the chosen step: a purple point with its numbers (the decoder steps' nodes on lines); the
    #    other steps' contexts as faint rings, each named by its step.
    contexts = alt.Chart(records(picture.contexts))
    if plane:
        unchosen = alt.condition(step_param, alt.value(0), alt.value(0.35))
        others = contexts.mark_point(shape="circle", size=90, strokeWidth=2, color=CONTEXT).encode(
            x=x, y=y, opacity=unchosen, description=alt.Description("label:N")
        )
        other_names = contexts.mark_text(fontSize=FONT - 1, align="left", dx=8, dy=-8, color=TEXT).encode(
            x=x,
            y=y,
            text=alt.condition(step_param, alt.value(""), alt.Text("node:N")),
            description=alt.Description("label:N"),
        )
        point = (
            contexts.mark_point(shape="diamond", filled=True, size=260, color=CONTEXT, opacity=1)
            .encode(x=x, y=y, description=alt.Description("label:N"), tooltip=alt.Tooltip("label:N"))
            .transform_filter(step_param)
        )
        label = point.mark_text(fontSize=FONT + 1, fontWeight="bold", align="center", dy=22, color=TEXT).encode(
            text="label:N"
        )
        context_layers = [others, other_names, point, label]
    else:
        nodes = contexts.mark_circle(size=220, color=DECODER).encode(
            x=x,
            y=y,
            opacity=alt.condition(step_param, alt.value(1), alt.value(0.35)),
            description=alt.Description("label:N"),
            tooltip=alt.Tooltip("label:N"),
        )
        node_names = contexts.mark_text(fontSize=FONT, align="left", dx=12, color=TEXT).encode(
            x=x, y=y, text="node:N", description=alt.Description("label:N")
        )
        context_layers = [nodes, node_names]

    # 5) Under the plot: the key, then the chosen step's chain (it follows the same slider).
    top = STRIP_TOP[picture.layout]
    key = _key_layers(picture, labels, x, at, top)
    chain = _chain_layers(picture, labels, step_param, x_of, at, top + (KEY_ROW if key else 0))

    layers = [*before_layers, links, *([shafts] if plane else []), marker, target, ring, names, *context_layers]
    return alt.layer(
        *layers,
        *key,
        *chain,
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
