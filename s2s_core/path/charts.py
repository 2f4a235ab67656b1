"""The learning path as one layered Vega-Lite view: rounded boxes (pages) joined by arrows (the order).

Positions are pixels computed in the browser from the chart's live `width` (x and y use no scale), so one
spec serves both screens with no rerun. Where the width holds every page's summary whole in at most
SUMMARY_LINES lines (s2s_core/path/frames.py writes each one out for several line lengths; `layout` picks, per
width, the longest line that fits), the boxes stand in a column on the left with their summaries beside them, the
rows a little taller when a summary takes three lines; below that width the column is centred and takes the width,
and the summary is on hover only (the list of page cards under the picture keeps every summary as text). Nothing
is cut with "…". Time (the course) runs top to bottom, the one direction that fits a 390 px phone. Each box and
its text is a link (`href`) to its page. Rows taller than ROW_PX draw below the chart's height: Vega's fit-x
autosize grows the view downwards to hold them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import altair as alt
import pandas as pd

from s2s_core.chartkit import FIT_X, records
from s2s_core.path.frames import SUMMARY_BUDGETS, SUMMARY_LINES

ROW_PX = 48  # one page per row
BOX_H = 34
BOX_W = 270  # a box of the main line beside the summaries
SUMMARY_FONT = 12
SUMMARY_LINE = 14  # px between the lines of a summary
SUMMARY_GAP = 6  # px at least between two rows' summaries (6: twelve pages fit the first 1280 x 900 screen)
# px per half-width unit of the 12 px summary text: 5.0-5.2 measured in Chromium over every summary (en and ko),
# plus a margin, so a line estimated to fit does fit
UNIT_PX = 5.6
SUMMARY_X = BOX_W + 18  # the summaries' left edge: the box column, then a gap
ARROW = "#8A8A8A"  # a flow between pages: neutral grey, ≥ 3:1 on the light and the dark background
BOX_TEXT = "#000000"  # on every role colour black keeps ≥ 4.5:1 (white would not on vermillion or purple)


@dataclass(frozen=True)
class Layout:
    """Vega expressions of the live `width`: wide or not, the box column, the row pitch and the summary's lines."""

    wide: str
    bw: str  # the main line's box width
    main: str  # the main line's centre
    row: str  # px per row
    lines: str  # the summary, in the wrapping the width holds


def summary_widths(nodes: pd.DataFrame) -> list[tuple[int, int, int]]:
    """(chart width it needs, budget, lines) for every wrapping whose every summary fits SUMMARY_LINES lines,
    longest lines first."""
    out = []
    for budget in SUMMARY_BUDGETS:
        lines = int(nodes[f"lines_{budget}"].str.count("\n").max()) + 1 if len(nodes) else 1
        if lines <= SUMMARY_LINES:
            out.append((math.ceil(SUMMARY_X + 8 + budget * UNIT_PX), budget, lines))
    return sorted(out, reverse=True)


def layout(nodes: pd.DataFrame) -> Layout:
    fits = summary_widths(nodes)
    wide = f"width >= {fits[-1][0]}" if fits else "false"
    row, lines = str(ROW_PX), "''"
    for need, budget, n in reversed(fits):
        pitch = max(ROW_PX, n * SUMMARY_LINE + SUMMARY_GAP)
        row, lines = f"(width >= {need} ? {pitch} : {row})", f"(width >= {need} ? datum.lines_{budget} : {lines})"
    bw = f"(({wide}) ? {BOX_W} : min(width - 8, 330))"
    return Layout(wide=wide, bw=bw, main=f"(({wide}) ? {bw} / 2 + 4 : width / 2)", row=row, lines=lines)


def path_chart(
    nodes: pd.DataFrame, edges: pd.DataFrame, labels: Mapping[str, str], *, text_color: str
) -> alt.LayerChart:
    """labels: {"title", "subtitle", "description", "page", "summary"} in the learner's language;
    text_color: the theme's text colour (the summaries sit on the page's background)."""
    height = ROW_PX * max(len(nodes), 1)
    at = layout(nodes)
    hover = alt.selection_point(name="path_hover", fields=["ns"], on="pointerover", clear="pointerout", empty=False)
    boxes = (
        alt.Chart(records(nodes))
        .transform_calculate(
            cx=f"{at.main} + datum.lane * {at.bw} / 4",
            half=f"datum.lane == 0 ? {at.bw} / 2 : {at.bw} / 4 - 3",
            cy=f"datum.row * {at.row} + {at.row} / 2",
        )
        .transform_calculate(x0="datum.cx - datum.half", x1="datum.cx + datum.half")
    )
    tooltip = [alt.Tooltip("label:N", title=labels["page"]), alt.Tooltip("summary:N", title=labels["summary"])]
    link = {"href": alt.Href("href:N"), "tooltip": tooltip, "description": alt.Description("aria:N")}
    rects = (
        boxes.mark_rect(cornerRadius=10, cursor="pointer", opacity=1)
        .encode(
            x=alt.X("x0:Q", scale=None, axis=None),
            x2="x1:Q",
            y=alt.Y("y0:Q", scale=None, axis=None),
            y2="y1:Q",
            color=alt.Color("color:N", scale=None, legend=None),
            stroke=alt.condition(hover, alt.value(text_color), alt.value(None)),
            strokeWidth=alt.condition(hover, alt.value(3), alt.value(0)),
            **link,
        )
        .transform_calculate(y0=f"datum.cy - {BOX_H / 2}", y1=f"datum.cy + {BOX_H / 2}")
        .add_params(hover)
    )
    names = [  # a title longer than its box ends in "…" (the tooltip and the cards below keep it whole)
        boxes.transform_filter(f"datum.lane {test} 0")
        .mark_text(fontSize=13, fontWeight="bold", color=BOX_TEXT, cursor="pointer", limit=alt.ExprRef(limit))
        .encode(x=alt.X("cx:Q", scale=None), y=alt.Y("cy:Q", scale=None), text="label:N", **link)
        for test, limit in (("==", f"{at.bw} - 16"), ("!=", f"{at.bw} / 2 - 18"))
    ]
    summaries = (
        boxes.transform_filter(at.wide)
        .transform_calculate(sx=f"{at.main} + {at.bw} / 2 + 14", lines=at.lines)
        .mark_text(
            align="left",
            baseline="middle",
            fontSize=SUMMARY_FONT,
            lineHeight=SUMMARY_LINE,
            lineBreak="\n",
            color=text_color,
            cursor="pointer",
            limit=alt.ExprRef(f"width - {at.bw} - 26"),  # a last resort: the lines were wrapped to fit
        )
        .encode(x=alt.X("sx:Q", scale=None), y=alt.Y("cy:Q", scale=None), text="lines:N", **link)
    )
    layers = [_arrows(edges, at), rects, *names, summaries] if len(edges) else [rects, *names, summaries]
    return (
        alt.layer(*layers)
        .properties(
            width="container",
            height=height,
            title=alt.TitleParams(  # two short lines: a Vega title is cut, not wrapped, on a phone
                labels["title"],
                subtitle=labels["subtitle"],
                anchor="start",
                subtitleColor=text_color,
                subtitleFontSize=13,
            ),
            description=labels["description"],
            autosize=FIT_X,
        )
        .configure_view(stroke=None)
    )


def _arrows(edges: pd.DataFrame, at: Layout) -> alt.LayerChart:
    """A line from the bottom of one box to the top of the next, with a head: a flow from page to page."""
    base = alt.Chart(records(edges)).transform_calculate(
        x=f"{at.main} + datum.lane * {at.bw} / 4",
        y0=f"datum.from_row * {at.row} + ({at.row} + {BOX_H}) / 2",
        y1=f"datum.to_row * {at.row} + ({at.row} - {BOX_H}) / 2 - 5",
    )
    line = base.mark_rule(color=ARROW, strokeWidth=2).encode(
        x=alt.X("x:Q", scale=None), y=alt.Y("y0:Q", scale=None), y2="y1:Q"
    )
    head = base.mark_point(shape="triangle-down", filled=True, size=70, color=ARROW, opacity=1).encode(
        x=alt.X("x:Q", scale=None), y=alt.Y("y1:Q", scale=None)
    )
    return alt.layer(line, head)


# Streamlit's own text colour per theme (st.context.theme.type): a chart's marks do not inherit it
THEME_TEXT = {"light": "#31333F", "dark": "#FAFAFA"}
