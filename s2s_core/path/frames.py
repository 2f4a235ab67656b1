"""The learning path as tidy rows: one per drawn page (box, texts, link) and one per arrow."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

import pandas as pd

from s2s_core.path.graph import ROLE_COLOR, Course

# A summary beside its box is wrapped, never cut: it is written out for several line lengths (in half-width
# character units, a Hangul syllable counting 2) and the chart keeps the longest its live width holds
# (s2s_core/path/charts.py); where even the shortest would need more than SUMMARY_LINES lines, the summaries are
# on hover only and in the page cards under the picture.
SUMMARY_BUDGETS = (120, 104, 92, 82, 72)
SUMMARY_LINES = 3


def nodes_frame(course: Course, texts: Mapping[str, tuple[str, str]], hrefs: Mapping[str, str]) -> pd.DataFrame:
    """texts: ns -> (title, summary) in the learner's language; hrefs: ns -> the page's link (keeps ?lang=)."""
    rows = []
    for n, node in enumerate(course.nodes, start=1):
        title, summary = texts[node.ns]
        rows.append(
            {
                "ns": node.ns,
                "row": node.row,
                "lane": node.lane,
                "label": f"{n}. {title}",
                "summary": summary,
                **{f"lines_{b}": "\n".join(wrap(summary, b)) for b in SUMMARY_BUDGETS},  # the chart breaks at \n
                "aria": f"{n}. {title}: {summary}",
                "href": hrefs[node.ns],
                "color": ROLE_COLOR[node.ns],
            }
        )
    return pd.DataFrame(rows)


def edges_frame(course: Course) -> pd.DataFrame:
    """One vertical arrow per edge, in the lane of the fork side it leaves or reaches (else the main line)."""
    where = {node.ns: node for node in course.nodes}
    rows = [
        {
            "from_row": where[a].row,
            "to_row": where[b].row,
            "lane": where[a].lane or where[b].lane,
        }
        for a, b in course.edges
    ]
    return pd.DataFrame(rows, columns=["from_row", "to_row", "lane"])


def wrap(text: str, units: int) -> list[str]:
    """Words in lines of at most `units` half-width units (a longer word stays whole on its own line); every word
    is kept, so " ".join(lines) gives the text back (its spaces normalised)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if units_of(candidate) <= units or not current:
            current = candidate
            continue
        lines.append(current)
        current = word
    return [*lines, current] if current else lines


def units_of(text: str) -> int:
    """Half-width units: a wide (Hangul, CJK) character counts 2."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)
