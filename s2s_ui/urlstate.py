"""Shareable links: notice when a link's value could not be used (Streamlit drops it and keeps the default).

Scalar widgets are bound to the URL by Streamlit itself (`bind="query-params"`), which silently
ignores an invalid or out-of-range value. On a session's first run app.py snapshots the link's
parameters and, after the page has drawn, names every parameter that did not survive.
"""

from __future__ import annotations

import math
from typing import Any

import streamlit as st

from s2s_ui.i18n import t

_CHECKED = "_url_checked"
KNOWN_GLOBAL = {"lang"}


def snapshot() -> dict[str, list[str]] | None:
    """The link's parameters on the session's first run; None on every later run."""
    if st.session_state.get(_CHECKED):
        return None
    st.session_state[_CHECKED] = True
    return {key: st.query_params.get_all(key) for key in st.query_params}


def _same(raw: list[str], value: Any) -> bool:
    """Does the widget's value equal what the link asked for?"""
    if isinstance(value, (list, tuple)):
        return sorted(map(str, value)) == sorted(raw)
    if not raw:
        return value is None
    text = raw[-1]
    if isinstance(value, bool):
        return text.lower() in ("true", "1") if value else text.lower() in ("false", "0")
    if isinstance(value, (int, float)):
        try:
            return math.isclose(float(text), float(value), rel_tol=1e-9, abs_tol=1e-12)
        except ValueError:
            return False
    return str(value) == text


def report_rejected(before: dict[str, list[str]] | None) -> None:
    """After the page ran: one notice per link parameter that the page could not use."""
    if not before:
        return
    rejected = []
    for key, raw in before.items():
        if key in KNOWN_GLOBAL or f"{key}__base" in st.session_state:
            continue  # the language, and tables (matrix_input reports those itself)
        if key not in st.session_state:
            rejected.append(key)
            continue
        value = st.session_state[key]
        if isinstance(value, (str, list, tuple)):
            continue  # choice widgets put their displayed label in the link, not the option: not comparable
        if not _same(raw, value):
            rejected.append(key)
    for key in rejected[:5]:
        st.toast(t("ui.url_fallback", param=key[:40]), icon=":material/link_off:")
