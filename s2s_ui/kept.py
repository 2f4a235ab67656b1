"""The last good picture: a bad input keeps the picture it replaced, faded, with the message beside it.

    with picture:
        config = kept_picture(PAGE, parsed.need, show_picture)   # the value drawn now, or None

`make()` returns the value the picture is drawn from (it raises InputError for a bad input: `parsed.need`, or a
function that also runs the core's own checks); `draw(value)` draws the page's main picture from it. While the
input is good the value is remembered in the session (one per page). When it is bad the message is shown once,
above the last good picture, which is drawn faded in a keyed container (CSS in s2s_ui/style.py) under a caption
that says so. The learner keeps the picture to compare with while fixing the field (GUIDE §6, README "Bad
input"). The stale picture is the same live chart drawn from the kept value: stepping it still works.

Every page's main picture is drawn here, so the live one gets its SVG / PNG download buttons here too
(s2s_ui/download.py); the faded one does not (its file would show an input no longer on the page).

With no good picture yet in this session (a bad value typed before anything was drawn), the message stands alone.
A bad *link* value never gets here: the link helper reports it and the field opens on its default (s2s_ui/link.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import streamlit as st

from s2s_core.errors import InputError
from s2s_ui.download import main_picture
from s2s_ui.i18n import t
from s2s_ui.widgets import show_error

T = TypeVar("T")
KEPT_PREFIX = "s2s_kept_"  # the faded container's key: .st-key-s2s_kept_<ns> (s2s_ui/style.py fades it)


def _session_key(ns: str) -> str:
    # Not a field's key: Reset and Try this leave it, and their good inputs replace it on the same run.
    return f"_kept__{ns}"


def kept_picture(page: Any, make: Callable[[], T], draw: Callable[[T], Any]) -> T | None:
    """Draw the picture from `make()`; on a bad input, the message once and the last good picture faded.

    Returns the value drawn live (None while the input is bad): the page draws its question and tabs from it.
    """
    ns = page.ns
    try:
        value = make()
    except InputError as err:
        show_error(err)
        last = st.session_state.get(_session_key(ns))
        if last is not None:
            st.caption(t("ui.kept_note"))
            with st.container(key=f"{KEPT_PREFIX}{ns}"):
                draw(last)
        return None
    st.session_state[_session_key(ns)] = value
    with main_picture(ns):  # the first chart drawn is the page's main picture: SVG and PNG under it (download.py)
        draw(value)
    return value
