"""The main picture to take away: two small buttons under it, SVG and PNG, each file made only when it is clicked.

    with main_picture(ns):        # s2s_ui/kept.py, around the live picture of every page
        draw(value)               # the first chart drawn inside (steps.step_view or charts.draw) claims the buttons

One place for every page: `kept_picture` draws each page's main picture, so it opens the scope, and the shared
drawers (`step_view`, `charts.draw`) put the buttons under the first chart drawn in it. A faded, kept picture (a bad
input) gets none: its file would show an input that is no longer on the page.

Nothing is converted while the learner works: `st.download_button` takes a callable (Streamlit 1.67 runs it on a
worker thread when the button is clicked, "deferred" data) and `on_click="ignore"` spares the page a rerun. A
rerun only registers the two callables; the callable holds what it needs from that rerun (the finished spec, the
step and picks the learner is on, the language and theme), never the session, which that thread cannot read.

The file shows what the screen shows: the same spec in the current language (its text is already translated),
the current theme (`st.context.theme.type`), the step of the slider (a fragment rerun follows every move) and the
other selections' points. A picture over the caps or a failed conversion gives a file that says so in the learner's
language (a message picture), never a traceback; a spec that is clearly too large says so instead of the buttons.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import streamlit as st

from s2s_core import export
from s2s_core.catalog import translate
from s2s_ui.i18n import lang, t

KEY_PREFIX = "s2s_download_"  # the buttons' keys (not a field's: nothing the learner sets) and their box's
MIME = {"svg": "image/svg+xml", "png": "image/png"}
Selections = Mapping[str, Sequence[Mapping[str, Any]]]

# The page whose main picture is being drawn now, until a chart claims it (one slot: one picture per page). A
# ContextVar is per thread: each session's script runs in its own thread, so sessions never see each other's.
_OPEN: ContextVar[list[str] | None] = ContextVar("s2s_main_picture", default=None)


@contextmanager
def main_picture(ns: str) -> Iterator[None]:
    """While the block runs, the first chart drawn through the shared drawers is page `ns`'s main picture."""
    token = _OPEN.set([ns])
    try:
        yield
    finally:
        _OPEN.reset(token)


def claim_picture() -> str | None:
    """The page's name for the first chart that asks inside `main_picture`; None for every other chart."""
    slot = _OPEN.get()
    return slot.pop() if slot else None


def theme() -> str:
    """The learner's theme now: "light" or "dark" (Streamlit reports None until the browser has told it)."""
    return export.theme_of(st.context.theme.type)


def rows_of(table: Any) -> Any:
    """A dataset as plain rows: the Arrow IPC bytes that s2s_ui/charts.packed sends Streamlit, read back (the
    rows the browser reads too); rows that are already plain stay as they are."""
    if not isinstance(table, bytes):
        return table
    import pyarrow as pa  # Streamlit's own dependency; only read when a file is made

    return pa.ipc.open_stream(table).read_all().to_pylist()


def plain_spec(spec: Mapping[str, Any]) -> dict[str, Any]:
    """The finished spec with every dataset as plain rows (a shallow copy: the cached spec is never changed)."""
    datasets = spec.get("datasets")
    if not isinstance(datasets, Mapping):
        return dict(spec)
    return {**spec, "datasets": {name: rows_of(table) for name, table in datasets.items()}}


def _packed_size(spec: Mapping[str, Any]) -> int:
    """The bytes of the spec's Arrow tables: a bound known without reading them (JSON rows are larger still)."""
    datasets = spec.get("datasets")
    tables = datasets.values() if isinstance(datasets, Mapping) else ()
    return sum(len(table) for table in tables if isinstance(table, bytes))


def make_file(spec: Mapping[str, Any], kind: str, theme_name: str, language: str, selections: Selections) -> bytes:
    """The file for one click: the picture as SVG or PNG, or a picture of the message that says why it is not."""
    try:
        plain = plain_spec(spec)
        if kind == "svg":
            return export.picture_svg(plain, theme_name, selections=selections).encode("utf-8")
        return export.picture_png(plain, theme_name, selections=selections)
    except export.ExportError as err:
        message = translate(language, err.key, **err.params)
    except Exception as err:  # an unreadable table or a converter crash: still a message, never a traceback
        message = translate(language, "ui.download.failed", reason=type(err).__name__)
    text = f"{translate(language, 'ui.download.not_made')} {message}"
    if kind == "svg":
        return export.message_svg(text, theme_name).encode("utf-8")
    return export.message_png(text, theme_name)


def _deferred(
    spec: Mapping[str, Any], kind: str, theme_name: str, language: str, sel: Selections
) -> Callable[[], bytes]:
    return lambda: make_file(spec, kind, theme_name, language, sel)


def download_buttons(ns: str, spec: Mapping[str, Any], *, selections: Selections | None = None) -> None:
    """The two buttons for `spec` (finished, as drawn), its selections started at `selections`' points."""
    size = _packed_size(spec)
    if size > export.MAX_SPEC_CHARS:
        st.caption(t("ui.download.too_large", size=f"{size / 1e6:.1f}", limit=f"{export.MAX_SPEC_CHARS / 1e6:g}"))
        return
    language, theme_name, sel = lang(), theme(), dict(selections or {})
    with st.container(key=f"{KEY_PREFIX}{ns}", horizontal=True, gap="small"):
        for kind in ("svg", "png"):
            st.download_button(
                t(f"ui.download.{kind}"),
                data=_deferred(spec, kind, theme_name, language, sel),
                file_name=export.file_name(ns, language, theme_name, kind),
                mime=MIME[kind],
                key=f"{KEY_PREFIX}{ns}_{kind}",
                help=t(f"ui.download.{kind}_help"),
                on_click="ignore",
                type="tertiary",
                icon=":material/download:",
            )
