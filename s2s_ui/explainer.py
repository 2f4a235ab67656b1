"""The explainer layout every page uses (docs/ARCHITECTURE.md "How a page is built"): the picture first.

    controls, picture = explainer("attention")      # title, one-line intro, two columns
    with controls: config = read_inputs()           # the page's main controls, narrow
    with picture: draw(picture, chart_spec(...))    # the page's main picture, beside them
    question(...)                                   # predict, then reveal: before any answer below
    details([("ui.tab_steps", show_steps), ...])    # the long-form parts, folded in tabs

At 1280 px the two columns sit side by side; below Streamlit's 640 px breakpoint they stack
(controls, then the picture), so a phone scrolls down through the same order. `before_after` keeps
the previous input of a picture so it can be drawn faintly behind the new one; `try_this` offers a
few prepared states of the page (just links with their inputs) with one line of what to notice.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from s2s_ui.i18n import t
from s2s_ui.link import to_link
from s2s_ui.widgets import guarded, page_header

# AppTest suites that read what a page's tabs hold set this (tests/conftest.py): every tab is drawn, as if all were
# open, so a test reads any tab without opening it first. The lazy path, one open tab, is what a server runs; it is
# tested in tests/app/test_tabs_app.py and by the Chromium tests, whose servers never set this.
DRAW_EVERY_TAB = False

CONTROLS_WIDTH = 1.0  # the controls column : the picture column (about 29 % : 71 % of the page's width)
PICTURE_WIDTH = 2.4


def explainer(ns: str) -> tuple[Any, Any]:
    """The page's title and one-line intro, then (controls column, picture column)."""
    page_header(ns)
    controls, picture = st.columns([CONTROLS_WIDTH, PICTURE_WIDTH], gap="medium")
    return controls, picture


def details(sections: Sequence[tuple[str, Callable[[], Any]]], *, key: str) -> None:
    """Everything below the picture, folded into tabs: (catalog key of the tab's label, what draws it).

    Only the open tab runs (`on_change="rerun"`: switching tabs is one rerun). The closed tabs are neither
    computed nor sent, so an edit redraws the picture and one tab instead of every chart in every tab: in
    the browser bench an edit on the Bahdanau-vs-Luong page took 567 ms to redraw with all tabs drawn and
    276 ms with one. `key` ("<ns>_tabs") holds the open tab's label; a test opens a tab by writing it:
    `at.session_state["gru_tabs"] = translate(lang, "ui.tab_check")` (tests/app/test_tabs_app.py).

    Each tab runs on its own (`guarded`): a bad value in one tab's input is named there and the other
    tabs still draw, so one bad input hides only what depends on it.
    """
    if not sections:
        return
    tabs = st.tabs([t(label) for label, _ in sections], key=key, on_change="rerun")
    for tab, (_, draw_section) in zip(tabs, sections, strict=True):
        if tab.open or DRAW_EVERY_TAB:
            with tab:
                guarded(draw_section)


def before_after(key: str, current: Hashable) -> Hashable | None:
    """The input the picture was drawn from before the last edit (None until there was an edit).

    The page draws that previous picture faintly behind the new one, until the next edit: the change
    is visible where the eye already is. Stepping and other reruns with the same input keep it.
    """
    now_key, before_key = f"_ba_now__{key}", f"_ba_before__{key}"
    now = st.session_state.get(now_key)
    if now is not None and now != current:
        st.session_state[before_key] = now
    st.session_state[now_key] = current
    before = st.session_state.get(before_key)
    return None if before == current else before


@dataclass(frozen=True)
class TryCase:
    """A prepared state of a page: the link's parameters (raw values, as in a copied URL) and its note.

    note: catalog key of one line that says what to notice (never the answer to the page's question).
    label: catalog key of the button's short name.
    """

    label: str
    note: str
    params: Mapping[str, str]


def try_this(cases: Sequence[TryCase], keys: Sequence[str], *, where: Any = None) -> None:
    """Two to four 'try this' buttons in a popover; one loads its case as if the learner had opened its link.

    keys: every linked key of the page (its reset list): they are forgotten first, so an input the case
    does not name goes back to its default, then the case's parameters are written into the link and
    the page reruns; `linked()` and `matrix_input` seed from the link as on a first visit. The popover
    closes itself, so the learner sees the picture the case set up.
    """
    name = keys[0] if keys else ""
    pop_key = f"try_pop__{name}"
    # on_change="rerun" makes the popover's open state a session value the click's callback can close.
    box = (where or st).popover(
        t("ui.try_this"), icon=":material/science:", width="stretch", key=pop_key, on_change="rerun"
    )
    with box:
        st.caption(t("ui.try_this_intro"))
        for n, case in enumerate(cases):
            st.button(
                t(case.label), key=f"try__{name}__{n}", width="stretch", on_click=load_case, args=(case, keys, pop_key)
            )
            st.caption(t(case.note))


def load_case(case: TryCase, keys: Sequence[str], pop_key: str | None = None) -> None:
    """A button's callback (it runs before the rerun the click starts): forget the page's inputs, put the
    case's parameters into the link, close the popover. The rerun then seeds every input from the link."""
    for k in keys:
        for name in (k, f"{k}__base", f"{k}__last"):
            st.session_state.pop(name, None)
        to_link(k, None)
    for k, raw in case.params.items():
        to_link(k, raw)
    if pop_key is not None:
        st.session_state[pop_key] = False
