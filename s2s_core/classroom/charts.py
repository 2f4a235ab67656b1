"""The class's answers to a question, drawn for the teacher after the reveal: one bar per option, its count
printed, the option the live computation makes right marked (colour and a ✓ in its label, so not by colour alone)."""

from __future__ import annotations

from collections.abc import Mapping

import altair as alt
import pandas as pd

from s2s_core.chartkit import FIT_X, ordered, records
from s2s_core.classroom.answers import Tally

RIGHT_COLOUR, OTHER_COLOUR = "#2e7d32", "#8a8f98"  # ≥ 3:1 against both themes' backgrounds (a mark, not text)


def tally_frame(tally: Tally, labels: Mapping[str, str], right: str | None) -> pd.DataFrame:
    """One row per option, in the question's order: its label (✓ on the right one), its count, its share."""
    rows = []
    for option, n in tally.counts:
        mark = "✓ " if option == right else ""
        share = n / tally.total if tally.total else 0.0
        rows.append({"option": f"{mark}{labels.get(option, option)}", "n": n, "share": share, "right": option == right})
    return pd.DataFrame(rows, columns=["option", "n", "share", "right"])


def tally_chart(frame: pd.DataFrame, texts: Mapping[str, str]) -> alt.LayerChart:
    """Horizontal bars of `frame` (tally_frame); texts: "title", "count" (the x title), "description"."""
    order = ordered(frame["option"])
    y = alt.Y("option:N", sort=order, title=None, axis=alt.Axis(labelFontSize=14, labelLimit=260))
    base = alt.Chart(records(frame)).encode(y=y)
    bars = base.mark_bar(height={"band": 0.7}).encode(
        x=alt.X("n:Q", title=texts["count"], axis=alt.Axis(tickMinStep=1, format="d", labelFontSize=12)),
        color=alt.condition("datum.right", alt.value(RIGHT_COLOUR), alt.value(OTHER_COLOUR)),
        tooltip=[alt.Tooltip("option:N", title=texts["option"]), alt.Tooltip("n:Q", title=texts["count"])],
    )
    counts = base.mark_text(align="left", dx=4, fontSize=14, color="currentColor").encode(
        x="n:Q", text=alt.Text("n:Q", format="d")
    )
    height = max(90, 44 * len(frame))
    return (
        alt.layer(bars, counts)
        .properties(title=texts["title"], width="container", height=height, autosize=FIT_X)
        .properties(description=texts["description"])
        .configure_view(stroke=None)
    )
