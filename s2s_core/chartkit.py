"""Altair helpers every chart module shares: the fit-to-width autosize, plain-record inline data, cell labels,
titles cut into lines, the shared colour scales with the words that name their ends, and explicit axis orders."""

from __future__ import annotations

import altair as alt
import pandas as pd

from s2s_core.fmt import CELL_D3, NUM_D3, SCI_D3

# Streamlit fits a "container"-wide chart in both directions, squeezing title, legend and axes into the
# height; fitting only x keeps the plot area as tall as asked (and the width follows the page column).
FIT_X = alt.AutoSizeParams(type="fit-x", contains="padding")
# A chart title's line, in Latin characters (lines() below): what a phone's 390 px column holds at Vega's 13 px bold.
TITLE_WIDTH = 44

# --- the shared colour scales (one per kind of quantity) and the words for their ends ---------------------------
# Values in [-1, 1] (states, candidates): "redblue" runs red -> blue; reversed, -1 is blue and +1 is red.
VALUE_SCALE = alt.Scale(domain=[-1, 1], scheme="redblue", reverse=True, clamp=True)
GATE_SCALE = alt.Scale(domain=[0, 1], scheme="greens")  # gates and other 0-1 pass-through ratios
# The colour at the low and the high end of each scheme Vega draws (before `reverse`), as keys of ui.colour.*.
SCHEME_ENDS: dict[str, tuple[str, str]] = {
    "redblue": ("red", "blue"),
    "blueorange": ("blue", "orange"),
    "greens": ("light_green", "dark_green"),
    "blues": ("light_blue", "dark_blue"),
    "oranges": ("light_orange", "dark_orange"),
    "purples": ("light_purple", "dark_purple"),
    "viridis": ("purple", "yellow"),
}


def colour_ends(scale: alt.Scale) -> tuple[str, str]:
    """The colours (ui.colour.<name> keys) that `scale` gives its lowest and its highest value: a legend
    sentence is built from these, so it cannot say red where the picture draws blue."""
    scheme = scale.to_dict().get("scheme")
    name = scheme.get("name") if isinstance(scheme, dict) else scheme
    if name not in SCHEME_ENDS:
        raise KeyError(f"no colour words for scheme {name!r}: add it to chartkit.SCHEME_ENDS")
    low, high = SCHEME_ENDS[name]
    return (high, low) if scale.to_dict().get("reverse") else (low, high)


def ordered(values) -> list:
    """The distinct values in the order given: an ordinal or nominal axis's explicit `sort=` (or a scale's
    `domain=`). Without it Vega orders categories itself, and after Streamlit swaps a chart's data in place the
    old categories can come first (columns s5, s1, s2, ...)."""
    return list(dict.fromkeys(values))


def records(frame: pd.DataFrame) -> alt.InlineData:
    """A tidy frame as plain inline records: Altair sanitises and deep-copies a DataFrame, which costs more
    than building the chart itself."""
    return alt.InlineData(values=frame.to_dict("records"))


# A cell needs about this many pixels for num()'s widest label ("−0.1234" at 11 px); narrower cells (many
# columns on a phone) print two decimals instead. The tooltip always gives the full num().
MIN_CELL_PX = 48


def with_cell_label(chart: alt.Chart, field: str, columns: str, as_name: str = "label") -> alt.Chart:
    """`chart` with a text field `as_name` for the number printed inside each heatmap cell: num()'s 4 decimals
    (fmt.NUM_D3) when a cell is wide enough, fmt.CELL_D3's 2 when it is not. The cell width is the chart's live
    `width` over the number of distinct `columns`, so Vega picks what fits on a phone and on a desktop alike,
    with no rerun; encode the mark with `text=alt.Text("label:N")` and keep the full num() in the tooltip."""
    fits = f"width / max(datum._cols, 1) >= {MIN_CELL_PX}"
    return chart.transform_joinaggregate(_cols=f"distinct({columns})").transform_calculate(
        **{as_name: f"format(datum['{field}'], {fits} ? '{NUM_D3}' : '{CELL_D3}')"}
    )


def sci_label(field: str, as_name: str = "label") -> dict[str, str]:
    """`.transform_calculate(**sci_label(...))`: fmt.sci() as a Vega expression (an exact 0 stays "0", the
    point of a fix's bar; d3 writes the exponent as e-8 where Python writes e-08)."""
    return {as_name: f"datum['{field}'] == 0 ? '0' : format(datum['{field}'], '{SCI_D3}')"}


def text_width(text: str) -> int:
    """Width in Latin characters: a Hangul or CJK character is about two of them wide."""
    return sum(2 if ord(c) >= 0x1100 and not 0x2000 <= ord(c) < 0x2E80 else 1 for c in text)


def title_lines(text: str) -> alt.TitleParams:
    """A chart's title, cut into lines a phone's column holds: Vega cuts a title wider than its chart with "…"
    (a time-limited run's "Trained 1469 of 2000 steps (time limit): where each step …" was read that way)."""
    return alt.TitleParams(lines(text, TITLE_WIDTH))


def lines(text: str, width: int) -> list[str]:
    """A title cut into lines of at most about `width` Latin characters (a word longer than that stays whole):
    Vega cuts a long title short on a phone rather than wrapping it."""
    out: list[str] = []
    for word in text.split(" "):
        if out and text_width(out[-1]) + 1 + text_width(word) <= width:
            out[-1] += " " + word
        else:
            out.append(word)
    return out


STEP_FIELD = "step"  # the data field every stepped picture keys its rows by (1-based)


def step_param(name: str, n_steps: int, value: int, label: str) -> alt.Parameter:
    """The chart's step: a point selection on `step`, bound to a slider 1..n_steps, starting at `value`.

    It never reacts to clicks on marks (the `click[false]` filter): a click belongs to the picture's own
    selections (click to explain), and only the slider and Play move the step.
    """
    # Written as the Vega-Lite dict it is: this is a binding inside the chart, not Streamlit's query-param
    # binding that tests/test_architecture.py keeps out of s2s_ui (the link is written by s2s_ui/steps.step_view).
    slider = {"input": "range", "min": 1, "max": max(1, int(n_steps)), "step": 1, "name": label}
    selection = alt.SelectionParameter.from_dict(
        {
            "name": name,
            "select": {"type": "point", "fields": [STEP_FIELD], "on": "click[false]", "clear": False},
            "bind": {STEP_FIELD: slider},
            "value": [{STEP_FIELD: int(value)}],
        }
    )
    return alt.Parameter(name=name, param=selection, param_type="selection")
