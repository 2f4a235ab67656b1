"""A page's generated script as a Jupyter notebook: the same code, cut into cells at the script's own markers.

The script generators (s2s_core/<ns>/code.py) write cell markers into the script itself, in the percent format
that VS Code, Spyder and Jupytext read as cells:

    # %% 1) The loop by hand heading="ui.tab_steps" notes="rnn.formula rnn.notice_2"

- the text after ``# %%`` (up to the first ``heading=`` / ``notes=``) is an English title, kept in the code cell as
  a comment, as every other comment of the script is English;
- ``heading`` and ``notes`` name catalog keys: the markdown cell in front of the code cell is the heading's text
  and the notes' texts, in the learner's language. The core never reads a catalog: the caller passes `text`, a
  function from key to text (the UI's ``t``, or ``catalog.translate`` with a language in tests).

Because the notebook is cut from the very string the .py download holds, the two cannot differ in their code:
a code cell is its lines of the script, with the marker line written as the title's comment. A marker is
recognised only at the start of a line, and every learner text reaches a script as a Python literal (``repr``),
which never starts a line, so a typed sentence can neither add a cell nor end one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

MARKER = "# %%"
LEAD = "ui.notebook.lead"  # the first markdown cell ends with it: how this notebook relates to the page
_MARKER_LINE = re.compile(
    r"^# %%(?P<title>(?:(?!\s(?:heading|notes)=\").)*)"
    r"(?:\s+heading=\"(?P<heading>[^\"]*)\")?(?:\s+notes=\"(?P<notes>[^\"]*)\")?\s*$"
)


@dataclass(frozen=True)
class Cell:
    """One marker's part of a script: its title, the catalog keys of its markdown, and its code."""

    title: str
    heading: str | None
    notes: tuple[str, ...]
    code: str

    def catalog_keys(self) -> tuple[str, ...]:
        return ((self.heading,) if self.heading else ()) + self.notes


def marker(title: str = "", *, heading: str | None = None, notes: tuple[str, ...] = ()) -> str:
    """The marker line a script generator writes in front of a cell (no newline)."""
    if '"' in (heading or "") or any('"' in k or " " in k for k in notes) or "\n" in title:
        raise ValueError("a catalog key has no quote or space, a title no newline")
    parts = [MARKER + (f" {title}" if title else "")]
    if heading:
        parts.append(f'heading="{heading}"')
    if notes:
        parts.append(f'notes="{" ".join(notes)}"')
    return " ".join(parts)


def _parse_marker(line: str) -> tuple[str, str | None, tuple[str, ...]]:
    found = _MARKER_LINE.match(line)
    if found is None:  # a "# %%" line the pattern cannot read: a cell with the whole line as its title
        return line[len(MARKER) :].strip(), None, ()
    notes = tuple((found["notes"] or "").split())
    return found["title"].strip(), found["heading"] or None, notes


def cells(script: str) -> tuple[Cell, ...]:
    """The script cut at its markers, in order. Lines before the first marker (if any) are a cell of their own."""
    out: list[Cell] = []
    title, heading, notes, lines = "", None, (), []  # type: ignore[var-annotated]

    def close() -> None:
        code = "\n".join(([f"# {title}"] if title else []) + lines).strip("\n")
        if code or heading or notes:
            out.append(Cell(title, heading, notes, code))

    for line in script.splitlines():
        if line.startswith(MARKER):
            close()
            title, heading, notes = _parse_marker(line)
            lines = []
        else:
            lines.append(line)
    close()
    return tuple(out)


def note_keys(script: str) -> tuple[str, ...]:
    """Every catalog key the script's markers name, in order, each once (and LEAD): what `text` must answer."""
    keys = [k for cell in cells(script) for k in cell.catalog_keys()]
    return tuple(dict.fromkeys([*keys, LEAD]))


def notebook(script: str, text: Callable[[str], str]) -> str:
    """The script as an nbformat-4 notebook (JSON): before each code cell a markdown cell with its heading and
    notes from `text(key)`; the first heading is the notebook's title and the first markdown ends with LEAD.

    `text` returns markdown the app itself shows (catalog text, no learner input), so it is used as it is.
    Cell ids are their positions, so the same script and texts always give the same file.
    """
    import nbformat  # here, not at the top: importing it costs ~0.5 s, and only a download needs it

    nb_cells = []
    for i, cell in enumerate(cells(script)):
        parts = []
        if cell.heading:
            parts.append(("# " if i == 0 else "## ") + text(cell.heading))
        parts += [text(k) for k in cell.notes]
        if i == 0:
            parts.append(text(LEAD))
        if parts:
            nb_cells.append(nbformat.v4.new_markdown_cell("\n\n".join(parts), id=f"md-{i}"))
        if cell.code:
            nb_cells.append(nbformat.v4.new_code_cell(cell.code, id=f"code-{i}"))
    nb = nbformat.v4.new_notebook(
        cells=nb_cells,
        metadata={
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python"},
        },
    )
    nbformat.validate(nb)
    return nbformat.writes(nb)
