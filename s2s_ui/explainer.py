"""The explainer layout every page uses (docs/ARCHITECTURE.md "How a page is built"): the picture first.

    controls, picture = explainer("attention")      # title, one-line intro, two columns
    with controls: parsed = read_inputs()           # the page's main controls (PAGE.input), narrow
    with picture: PAGE.step(fields.STEP, ...)       # the page's main picture, beside them
    question(...)                                   # predict, then reveal: before any answer below
    PAGE.tabs([("ui.tab_steps", show_steps), ...])  # the long-form parts, folded in tabs (s2s_ui/state.py)

At 1280 px the two columns sit side by side, controls first (also the keyboard's order). Below
Streamlit's 640 px breakpoint they stack, and s2s_ui/style.py moves the picture's column above the
controls' (CSS `order`, found by the picture column's keyed container): a phone's first screen shows
the picture with its own step slider, and the controls follow it. `before_after` keeps the previous
input of a picture so it can be drawn faintly behind the new one.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import streamlit as st

from s2s_ui.widgets import page_header

CONTROLS_WIDTH = 1.0  # the controls column : the picture column (about 29 % : 71 % of the page's width)
PICTURE_WIDTH = 2.4
CONTROLS_KEY = "s2s_controls"  # .st-key-s2s_controls, .st-key-s2s_picture: s2s_ui/style.py's phone rules
PICTURE_KEY = "s2s_picture"


def explainer(ns: str) -> tuple[Any, Any]:
    """The page's title and one-line intro, then (controls column, picture column)."""
    page_header(ns)
    controls, picture = st.columns([CONTROLS_WIDTH, PICTURE_WIDTH], gap="medium")
    # The keys name the two columns for the phone layout's CSS and for the tests that find the picture.
    return controls.container(key=CONTROLS_KEY), picture.container(key=PICTURE_KEY)


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
