"""The learning path as one layered Vega-Lite view: rounded boxes (pages) joined by arrows (the order).

Positions are pixels computed in the browser from the chart's live `width` (x and y use no scale), so one
spec serves both screens with no rerun: from WIDE_PX up, the boxes stand in a column on the left with
their summaries printed beside them; below it, the column is centred and takes the width, and the summary
is on hover only (the list of page cards under the picture keeps every summary as text). Time (the
course) runs top to bottom, the one direction that fits a 390 px phone. Each box and its text is a link
(`href`) to its page.
"""

from __future__ import annotations

from collections.abc import Mapping

import altair as alt
import pandas as pd

from s2s_core.chartkit import FIT_X, records

WIDE_PX = 600  # from this chart width the summaries fit beside the boxes
ROW_PX = 48  # one page per row
BOX_H = 34
ARROW = "#8A8A8A"  # a flow between pages: neutral grey, ≥ 3:1 on the light and the dark background
BOX_TEXT = "#000000"  # on every role colour black keeps ≥ 4.5:1 (white would not on vermillion or purple)

# the column of boxes (BW wide) and its centre line, in pixels, from the live chart width
_BW = f"(width >= {WIDE_PX} ? 270 : min(width - 8, 330))"
_MAIN = f"(width >= {WIDE_PX} ? {_BW} / 2 + 4 : width / 2)"


def path_chart(
    nodes: pd.DataFrame, edges: pd.DataFrame, labels: Mapping[str, str], *, text_color: str
) -> alt.LayerChart:
    """labels: {"title", "subtitle", "description", "page", "summary"} in the learner's language;
    text_color: the theme's text colour (the summaries sit on the page's background)."""
    height = ROW_PX * max(len(nodes), 1)
    hover = alt.selection_point(name="path_hover", fields=["ns"], on="pointerover", clear="pointerout", empty=False)
    boxes = (
        alt.Chart(records(nodes))
        .transform_calculate(
            cx=f"{_MAIN} + datum.lane * {_BW} / 4",
            half=f"datum.lane == 0 ? {_BW} / 2 : {_BW} / 4 - 3",
            cy=f"datum.row * {ROW_PX} + {ROW_PX / 2}",
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
        for test, limit in (("==", f"{_BW} - 16"), ("!=", f"{_BW} / 2 - 18"))
    ]
    summaries = (
        boxes.transform_filter(f"width >= {WIDE_PX}")
        .transform_calculate(sx=f"{_MAIN} + {_BW} / 2 + 14")
        .mark_text(
            align="left",
            baseline="middle",
            fontSize=12,
            lineHeight=15,
            lineBreak="\n",
            color=text_color,
            cursor="pointer",
            limit=alt.ExprRef(f"width - {_BW} - 26"),
        )
        .encode(x=alt.X("sx:Q", scale=None), y=alt.Y("cy:Q", scale=None), text="lines:N", **link)
    )
    layers = [_arrows(edges), rects, *names, summaries] if len(edges) else [rects, *names, summaries]
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


def _arrows(edges: pd.DataFrame) -> alt.LayerChart:
    """A line from the bottom of one box to the top of the next, with a head: a flow from page to page."""
    base = alt.Chart(records(edges)).transform_calculate(
        x=f"{_MAIN} + datum.lane * {_BW} / 4",
        y0=f"datum.from_row * {ROW_PX} + {(ROW_PX + BOX_H) / 2}",
        y1=f"datum.to_row * {ROW_PX} + {(ROW_PX - BOX_H) / 2} - 5",
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
