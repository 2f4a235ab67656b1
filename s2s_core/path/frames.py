"""The learning path as tidy rows: one per drawn page (box, texts, link) and one per arrow."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

import pandas as pd

from s2s_core.path.graph import ROLE_COLOR, Course

SUMMARY_UNITS = 100  # one summary line, in half-width character units (a Hangul syllable counts 2)
SUMMARY_LINES = 2  # printed beside a box where space allows; the tooltip keeps the whole summary


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
                "lines": "\n".join(wrap(summary, SUMMARY_UNITS, SUMMARY_LINES)),  # the chart breaks at \n
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


def wrap(text: str, units: int, max_lines: int) -> list[str]:
    """Words in at most `max_lines` lines of `units` half-width units each; a cut text ends with '…'."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if _units(candidate) <= units or not current:
            current = candidate
            continue
        lines.append(current)
        current = word
    if current:
        lines.append(current)
    if len(lines) > max_lines:
        last = lines[max_lines - 1]
        while last and _units(last + " …") > units:
            last = last.rsplit(" ", 1)[0] if " " in last else last[:-1]
        lines = [*lines[: max_lines - 1], last + " …"]
    return lines


def _units(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)
