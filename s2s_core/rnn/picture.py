"""The RNN page's main picture: the unrolled chain, one layered Vega-Lite view at the container's width.

Time runs left to right: h_0 at x = 0, step t at x = t. Each step has its x_t (a column of E squares) under
its h_t (a column of H squares); colour = value on the one diverging scale, the number printed where the
square is wide enough and always on hover. Arrows x_t → h_t are labelled W_x and h_(t-1) → h_t W_h at every
step: the same two names everywhere, because they are the same weights. The shared step control
(s2s_ui.steps.step_param, field "step") picks the step in the browser: its x_t, h_(t-1), h_t and arrows at full
strength, the rest faded, and the step's formula written with its numbers under the chain. The previous input's
h_t (before an edit) are small dots in the corner of each square.

x is in step units; y is in pixels from the top (a fixed height that follows H and E).

The formula is written out in several wrappings, one per line budget (characters per line), and the chart
keeps the one that fits its live width: on a 390 px phone each term breaks over two or three lines instead
of ending in "…". The height is the widest wrapping's (five lines); a narrower one draws more lines below it,
and Vega's fit-x autosize grows the view downwards to hold them (it pads in y), so no space is wasted on a
desktop and nothing is cut on a phone.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import altair as alt
import pandas as pd
import torch

from s2s_core.catalog import translate, words
from s2s_core.chartkit import FIT_X, VALUE_SCALE, colour_ends, records
from s2s_core.fmt import CELL_D3, NUM_D3, vec
from s2s_core.rnn.compute import RnnResult

STATE = "#2C7FB8"  # the role colour of an encoder's states (s2s_ui/charts.py): h and the W_h that carries it
WIRE = "#666666"  # the input's arrow: neutral (charts.finish keeps text readable on both themes)
TEXT = "currentColor"  # the theme's text colour: charts.finish leaves text beside shapes as it is given
# The description's colour words (ui.colour.* keys) for −1 and 1, read off the one scale the squares use.
LEGEND = dict(zip(("low", "high"), (f"ui.colour.{c}" for c in colour_ends(VALUE_SCALE)), strict=True))
COL_W = 0.46  # a vector column's width in step units (the rest of the step is the W_h arrow)
CELL = 16  # px per square (text of 11 px fits)
TOP = 30  # px above the h row (its column names)
GAP = 46  # px between the h row and the x row (the W_x arrow and its name)
TOKEN_H = 24  # px of a token's box
LINE = 18  # px per formula line
FONT = 12
FORMULA_FONT = FONT + 1
# px per character of the 13 px formula text: a digit of the theme's sans-serif is ≈ 6.5 px and ", " "." much
# narrower (a filled-in line measured 5.2 px a character in Chromium), so a line estimated to fit does fit.
CHAR_PX = 6.4
INDENT_PX = 22  # a wrapped term's continuation lines start this far right of its first line
# Line budgets (characters) below the one-line-per-term layout: the chart keeps the widest that fits its width.
# 36 characters (230 px) fits a 320 px phone's chart; the step's headline (at most 33 characters) fits in all.
BUDGETS = (110, 90, 74, 62, 52, 44, 36)
STEP_PARAM = "step_sel"  # the shared step control's selection name (s2s_ui/steps.py reads it)


@dataclass(frozen=True)
class Geometry:
    """Pixel rows that depend on H and E (the chart's height follows them)."""

    S: int
    H: int
    E: int

    @property
    def h_top(self) -> float:
        return TOP

    @property
    def x_top(self) -> float:
        return TOP + self.H * CELL + GAP

    @property
    def token_top(self) -> float:
        return self.x_top + self.E * CELL + 8

    @property
    def formula_top(self) -> float:
        return self.token_top + TOKEN_H + 22

    @property
    def height(self) -> int:
        return int(self.formula_top + 5 * LINE + 6)


@dataclass(frozen=True)
class Picture:
    """The tidy frames the chart draws (every row that follows the step carries its 1-based `step`)."""

    geo: Geometry
    cells: pd.DataFrame  # one row per square; h_(t-1) rows appear again with step = t (dup) to light up then
    columns: pd.DataFrame  # one row per column: its name above it and its outline
    arrows: pd.DataFrame  # one row per arrow (W_x, W_h) with its head and name
    tokens: pd.DataFrame  # one row per step: the word in its box
    formulas: pd.DataFrame  # five rows per step: the step's formula with its numbers


def _ink(value: float) -> str:
    return "white" if abs(value) > 0.6 else "black"  # digits readable on the scale's dark ends


def _cells(result: RnnResult, geo: Geometry, before: torch.Tensor | None) -> pd.DataFrame:
    """Squares of h_0…h_S and x_1…x_S; `before` is the previous input's (S', H') states where they exist."""
    rows = []
    h_all = torch.cat([torch.zeros(1, geo.H, dtype=result.h.dtype), result.h])  # (S + 1, H): h_0 = 0
    for t in range(geo.S + 1):
        for k in range(geo.H):
            value = float(h_all[t, k])
            was = None
            if before is not None and 1 <= t <= before.shape[0] and k < before.shape[1]:
                was = float(before[t - 1, k])
            base = {"vector": f"h{t}", "k": k + 1, "x": t, "y": geo.h_top + k * CELL, "value": value}
            base |= {"ink": _ink(value), "before": was, "kind": "h"}
            rows.append(base | {"step": t, "dup": False})
            if t < geo.S:  # h_t is also the state handed in at step t + 1
                rows.append(base | {"step": t + 1, "dup": True, "before": None})
        if t == 0:
            continue
        for k in range(geo.E):
            value = float(result.x[t - 1, k])
            rows.append(
                {"vector": f"x{t}", "k": k + 1, "x": t, "y": geo.x_top + k * CELL, "value": value}
                | {"ink": _ink(value), "before": None, "kind": "x", "step": t, "dup": False}
            )
    frame = pd.DataFrame(rows)
    return frame.assign(
        x1=frame["x"] - COL_W / 2, x2=frame["x"] + COL_W / 2, y2=frame["y"] + CELL, yc=frame["y"] + CELL / 2
    )


def _columns(geo: Geometry) -> pd.DataFrame:
    rows = [{"name": "h0", "x": 0, "y": geo.h_top, "y2": geo.h_top + geo.H * CELL, "step": 0, "kind": "h"}]
    for t in range(1, geo.S + 1):
        rows.append({"name": f"h{t}", "x": t, "y": geo.h_top, "y2": geo.h_top + geo.H * CELL, "step": t, "kind": "h"})
        rows.append({"name": f"x{t}", "x": t, "y": geo.x_top, "y2": geo.x_top + geo.E * CELL, "step": t, "kind": "x"})
    frame = pd.DataFrame(rows)
    return frame.assign(x1=frame["x"] - COL_W / 2, x2=frame["x"] + COL_W / 2)


def _arrows(geo: Geometry) -> pd.DataFrame:
    """W_h from h_(t-1)'s right edge to h_t's left edge (mid height); W_x from x_t's top to h_t's bottom."""
    mid = geo.h_top + geo.H * CELL / 2
    rows = []
    for t in range(1, geo.S + 1):
        rows.append(
            {"weight": "W_h", "step": t, "x": t - 1 + COL_W / 2, "y": mid, "x2": t - COL_W / 2 - 0.03, "y2": mid}
            | {"lx": t - 0.5, "ly": mid - 9, "angle": 90, "color": STATE}
        )
        top, bottom = geo.x_top, geo.h_top + geo.H * CELL
        rows.append(
            {"weight": "W_x", "step": t, "x": t, "y": top - 20, "x2": t, "y2": bottom + 8}
            | {"lx": t + COL_W / 2 + 0.02, "ly": (top - 20 + bottom) / 2, "angle": 0, "color": WIRE}
        )
    return pd.DataFrame(rows)


def formula_terms(result: RnnResult, step: int) -> list[tuple[str, ...]]:
    """The step's formula, then each of its terms with the step's numbers (fmt.vec): one tuple per formula line,
    holding the line's parts (the last line's two: tanh of the sum, then its value, which may go on new lines)."""
    t = step + 1
    return [
        (f"h{t} = tanh(W_x·x{t} + W_h·h{t - 1} + b)",),
        (f"W_x·x{t} = {vec(result.wx[step])}",),
        (f"W_h·h{t - 1} = {vec(result.wh[step])}",),
        (f"b = {vec(result.weights.b)}",),
        (f"h{t} = tanh({vec(result.pre[step])})", f"= {vec(result.h[step])}"),
    ]


def wrap_line(text: str, budget: int, indent: int) -> list[str]:
    """Words (the text split at its spaces) in lines of at most `budget` characters, the lines after the first
    `indent` characters shorter (they start further right); a word longer than a line stays whole."""
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        candidate = f"{current} {word}" if current else word
        room = budget - (indent if lines else 0)
        if len(candidate) <= room or not current:
            current = candidate
        else:
            lines.append(current)
            current = word
    return [*lines, current]


def wrapped(parts: tuple[str, ...], budget: int | None) -> list[tuple[str, bool]]:
    """One formula line as (text, continues) rows for a budget (None: the whole line on one row)."""
    whole = " ".join(parts)
    if budget is None or len(whole) <= budget:
        return [(whole, False)]
    indent = round(INDENT_PX / CHAR_PX)
    rows: list[tuple[str, bool]] = []
    for i, part in enumerate(parts):
        room = budget - (indent if i else 0)
        lines = wrap_line(part, room, indent)
        # Balanced: the shortest budget that still needs as many lines, so a vector does not end in one number.
        while room > 1 and len(shorter := wrap_line(part, room - 1, indent)) == len(lines):
            room, lines = room - 1, shorter
        rows += [(line, bool(i or j)) for j, line in enumerate(lines)]
    return rows


def layouts(result: RnnResult) -> list[int | None]:
    """The budgets drawn for this result: None (a term per line), then every budget shorter than its longest line."""
    longest = max(len(" ".join(parts)) for s in range(result.h.shape[0]) for parts in formula_terms(result, s))
    return [None, *(b for b in BUDGETS if b < longest)]


def _formulas(result: RnnResult, geo: Geometry) -> pd.DataFrame:
    """Every step's formula in every wrapping: one row per drawn line, with its budget (0 = unwrapped)."""
    rows, last = [], math.inf
    for budget in layouts(result):
        drawn = [
            [row for parts in formula_terms(result, t - 1) for row in wrapped(parts, budget)]
            for t in range(1, geo.S + 1)
        ]
        need = max(len(text) * CHAR_PX + cont * INDENT_PX for lines in drawn for text, cont in lines)
        if need >= last:
            continue  # no narrower than a wider budget's lines: that one is drawn at every width this one fits
        last = need
        for t, lines in enumerate(drawn, start=1):
            for i, (text, cont) in enumerate(lines):
                rows.append(
                    {"step": t, "budget": budget or 0, "line": i + 1, "text": text, "indent": int(cont)}
                    | {"y": geo.formula_top + i * LINE}
                )
    return pd.DataFrame(rows)


def wrap_thresholds(formulas: pd.DataFrame) -> list[tuple[float, int]]:
    """(px its longest line needs, budget) per drawn wrapping, widest first: a line is estimated at CHAR_PX a
    character, a continuation line from its indent."""
    need = (formulas["text"].str.len() * CHAR_PX + formulas["indent"] * INDENT_PX).groupby(formulas["budget"]).max()
    return sorted(((float(px), int(budget)) for budget, px in need.items()), reverse=True)


def chosen_budget(formulas: pd.DataFrame) -> str:
    """A Vega expression: the budget of the widest wrapping that fits the live `width` (the narrowest if none)."""
    ordered = wrap_thresholds(formulas)
    expr = str(ordered[-1][1])
    for px, budget in reversed(ordered[:-1]):
        expr = f"(width >= {math.ceil(px)} ? {budget} : {expr})"
    return expr


def picture_data(result: RnnResult, before: RnnResult | None = None) -> Picture:
    S, H = result.h.shape
    E = result.x.shape[1]
    geo = Geometry(S=S, H=H, E=E)
    tokens = pd.DataFrame(
        [{"step": t + 1, "x": t + 1, "word": w, "y": geo.token_top + TOKEN_H / 2} for t, w in enumerate(result.tokens)]
    )
    return Picture(
        geo=geo,
        cells=_cells(result, geo, before.h if before is not None else None),
        columns=_columns(geo),
        arrows=_arrows(geo),
        tokens=tokens,
        formulas=_formulas(result, geo),
    )


def _px(units: float, S: int) -> str:
    """A Vega expression: `units` step units in pixels at the chart's live width (the x domain spans S + 1)."""
    return f"(width * {units} / {S + 1})"


# rnn.picture.*; "description" takes LEGEND's words as {low} and {high} (the page fills them in).
WORDS = ("title", "subtitle", "description", "vector", "component", "value", "before", "token")


def unroll_picture(pic: Picture, words: Mapping[str, str], step_param: alt.Parameter) -> alt.LayerChart:
    """words: the learner's words: title, subtitle, description, vector, component, value, before, step, token."""
    geo = pic.geo
    xs = alt.Scale(domain=[-0.5, geo.S + 0.5], nice=False, zero=False)
    ys = alt.Scale(domain=[0, geo.height], reverse=True, nice=False, zero=False)

    def at(x_field: str, y_field: str) -> dict:
        return {"x": alt.X(f"{x_field}:Q", scale=xs, axis=None), "y": alt.Y(f"{y_field}:Q", scale=ys, axis=None)}

    col_px = _px(COL_W, geo.S)
    gap_px = _px(1 - COL_W, geo.S)

    # 1) The chosen step's band behind its columns: h_(t-1), the W_h arrow, h_t and x_t.
    band = (
        alt.Chart(records(pic.tokens))
        .transform_calculate(x1=f"datum.x - 1 - {COL_W / 2 + 0.06}", x2=f"datum.x + {COL_W / 2 + 0.06}")
        .transform_filter(step_param)
        .mark_rect(color=STATE, opacity=0.09, cornerRadius=6)
        .encode(**at("x1", "y0"), x2="x2:Q", y2="y1:Q")
        .transform_calculate(y0=f"{TOP - 22}", y1=f"{geo.token_top + TOKEN_H + 4}")
    )
    # 2) Arrows: every step's faint, the chosen step's strong; the weight's name beside each.
    arrows = alt.Chart(records(pic.arrows))
    shaft = arrows.mark_rule(strokeWidth=2, strokeCap="round").encode(
        **at("x", "y"), x2="x2:Q", y2="y2:Q", color=alt.Color("color:N", scale=None)
    )
    faint_shafts = shaft.encode(opacity=alt.value(0.35))
    strong_shafts = shaft.mark_rule(strokeWidth=3.5, strokeCap="round").transform_filter(step_param)
    heads = (
        arrows.mark_point(shape="triangle-up", filled=True, size=70)
        .encode(
            **at("x2", "y2"),
            angle=alt.Angle("angle:Q", scale=None),
            color=alt.Color("color:N", scale=None),
            opacity=alt.condition(step_param, alt.value(1.0), alt.value(0.35)),
        )
        .transform_calculate(y2="datum.weight == 'W_x' ? datum.y2 - 4 : datum.y2")
    )
    # The names are text on the page's background: the theme's text colour (the arrows' blue and grey are
    # 4.2:1 and 3.2:1 on the dark theme, under the 4.5:1 text needs); each stands beside its arrow.
    names = (
        arrows.transform_calculate(
            name=f"datum.weight == 'W_h' ? ({gap_px} >= 34 ? 'W_h' : '') : ({gap_px} >= 30 ? 'W_x' : '')"
        )
        .mark_text(fontSize=FONT, fontStyle="italic", align="left", baseline="middle", color=TEXT)
        .encode(
            **at("lx", "ly"),
            text="name:N",
            opacity=alt.condition(step_param, alt.value(1.0), alt.value(0.7)),  # faded, still ≥ 4.5:1 on white
        )
        .transform_calculate(lx="datum.weight == 'W_h' ? datum.lx - 0.08 : datum.lx")
    )
    # 3) The squares: faded everywhere, at full strength where the chosen step uses them.
    tooltip = [
        alt.Tooltip("vector:N", title=words["vector"]),
        alt.Tooltip("k:O", title=words["component"]),
        alt.Tooltip("value:Q", title=words["value"], format=NUM_D3),
    ]
    cells = alt.Chart(records(pic.cells))
    square = dict(**at("x1", "y"), x2="x2:Q", y2="y2:Q", color=alt.Color("value:Q", scale=VALUE_SCALE, legend=None))
    faint = (
        cells.transform_filter("!datum.dup")
        .mark_rect(stroke="#ffffff", strokeWidth=0.5, opacity=0.4)
        .encode(**square, tooltip=tooltip)
        .add_params(step_param)
    )
    strong = cells.transform_filter(step_param).mark_rect(stroke="#ffffff", strokeWidth=0.5).encode(**square)
    label = f"{col_px} >= 48 ? format(datum.value, '{NUM_D3}') : {col_px} >= 30 ? format(datum.value, '{CELL_D3}') : ''"
    numbers = (
        cells.transform_filter(step_param)
        .transform_calculate(label=label, xc="datum.x", yc=f"datum.y + {CELL / 2}")
        .mark_text(fontSize=11)
        .encode(**at("xc", "yc"), text="label:N", fill=alt.Fill("ink:N", scale=None))
    )
    before = (
        cells.transform_filter("!datum.dup && isValid(datum.before)")
        .transform_calculate(xb=f"datum.x2 - {COL_W / 8}", yc=f"datum.y + {CELL / 2}")
        .mark_point(shape="circle", filled=True, size=22, opacity=0.85, stroke="#ffffff", strokeWidth=0.5)
        .encode(
            **at("xb", "yc"),
            color=alt.Color("before:Q", scale=VALUE_SCALE, legend=None),
            tooltip=[alt.Tooltip("vector:N", title=words["vector"]), alt.Tooltip("before:Q", title=words["before"])],
        )
    )
    # 4) Column outlines (h in the state colour) and their names above them.
    columns = alt.Chart(records(pic.columns))
    outlines = columns.mark_rect(filled=False).encode(
        **at("x1", "y"),
        x2="x2:Q",
        y2="y2:Q",
        stroke=alt.condition("datum.kind == 'h'", alt.value(STATE), alt.value(WIRE)),
        strokeWidth=alt.condition(step_param, alt.value(2.0), alt.value(1.0)),
    )
    heads_text = (
        columns.transform_calculate(ny="datum.y - 5")
        .mark_text(fontSize=FONT, fontWeight="bold", baseline="bottom", color=TEXT)
        .encode(
            **at("x", "ny"),
            text="name:N",
            opacity=alt.condition(step_param, alt.value(1.0), alt.value(0.65)),
        )
    )
    # 5) The words in rounded boxes under their x_t; user text, drawn as text (never HTML).
    tokens = alt.Chart(records(pic.tokens))
    boxes = (
        tokens.transform_calculate(x1=f"datum.x - {COL_W / 2 + 0.04}", x2=f"datum.x + {COL_W / 2 + 0.04}")
        .transform_calculate(y1=f"datum.y - {TOKEN_H / 2}", y2=f"datum.y + {TOKEN_H / 2}")
        .mark_rect(filled=False, cornerRadius=8, stroke=WIRE)
        .encode(
            **at("x1", "y1"),
            x2="x2:Q",
            y2="y2:Q",
            strokeWidth=alt.condition(step_param, alt.value(2.0), alt.value(1.0)),
        )
    )
    words_text = tokens.mark_text(
        fontSize=FONT, color=TEXT, limit=alt.ExprRef(f"{_px(COL_W + 0.08, geo.S)} - 4")
    ).encode(
        **at("x", "y"),
        text="word:N",
        opacity=alt.condition(step_param, alt.value(1.0), alt.value(0.7)),
        tooltip=alt.Tooltip("word:N", title=words["token"]),
    )
    # 6) The chosen step's formula, written with its numbers, in the wrapping that fits the live width (the
    # unwrapped one, budget 0, from where its longest line fits); continuation lines indented.
    formula_data = (
        alt.Chart(records(pic.formulas))
        .transform_filter(step_param)
        .transform_filter(f"datum.budget == {chosen_budget(pic.formulas)}")
        .transform_calculate(x0=f"-0.45 + datum.indent * {INDENT_PX} * {geo.S + 1} / width")
    )
    limit = alt.ExprRef("width")  # a last resort: every line was wrapped to fit
    formula_head = (
        formula_data.transform_filter("datum.line == 1")
        .mark_text(fontSize=FORMULA_FONT, fontWeight="bold", align="left", baseline="middle", limit=limit, color=TEXT)
        .encode(**at("x0", "y"), text="text:N")
    )
    formula_terms = (
        formula_data.transform_filter("datum.line > 1")
        .mark_text(fontSize=FORMULA_FONT, align="left", baseline="middle", limit=limit, color=TEXT)
        .encode(**at("x0", "y"), text="text:N")
    )
    # The previous input's dots exist only after an edit: before one the layer is left out, not drawn empty (an
    # empty mark group with a role and no name fails axe's svg-img-alt).
    had = pic.cells["before"].notna().any()
    layers = [band, faint_shafts, strong_shafts, heads, names, faint, strong, *([before] if had else []), numbers]
    layers += [outlines]
    layers += [heads_text, boxes, words_text, formula_head, formula_terms]
    # Top-level settings as arguments, not chained: each chained call copies the layered chart and validates.
    return alt.layer(
        *layers,
        resolve=alt.Resolve(scale=alt.ScaleResolveMap(color="independent")),
        width="container",
        height=geo.height,
        autosize=FIT_X,
        title=alt.Title(
            words["title"], subtitle=words["subtitle"], fontSize=FONT + 3, subtitleFontSize=FONT, anchor="start"
        ),
        description=words["description"],
    )


def picture_words(language: str) -> dict[str, str]:
    """The picture's words in `language` (the page's and the notebook's: s2s_core/show); the description names
    the colours at the value scale's ends."""
    names = words(language, "rnn.picture", WORDS)
    colours = {end: translate(language, key) for end, key in LEGEND.items()}  # the scale's own ends
    names["description"] = translate(language, "rnn.picture.description", **colours)
    return names
