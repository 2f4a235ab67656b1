"""Shareable links: notice when a link's value could not be used (Streamlit drops it and keeps the default).

Scalar widgets are bound to the URL by Streamlit itself (`bind="query-params"`), which silently
ignores an invalid or out-of-range value. On a session's first run app.py snapshots the link's
parameters and, after the page has drawn, names every parameter that did not survive.
"""

from __future__ import annotations

import math
from typing import Any

import streamlit as st
from streamlit.errors import StreamlitAPIException
from streamlit.runtime.scriptrunner import get_script_run_ctx

from s2s_ui.i18n import t
from s2s_ui.linked import linked_keys, take_rejected

_CHECKED = "_url_checked"
KNOWN_GLOBAL = {"lang"}


def snapshot() -> dict[str, list[str]] | None:
    """The link's parameters on the session's first run; None on every later run."""
    if st.session_state.get(_CHECKED):
        return None
    st.session_state[_CHECKED] = True
    return {key: st.query_params.get_all(key) for key in st.query_params}


def drop_non_finite() -> None:
    """Remove link values like 1e309, inf or nan before any widget reads them.

    Streamlit 1.67 seeds an int st.number_input from the URL with int(value) before its own range check,
    so ?steps=inf raises OverflowError (nan: ValueError) inside the widget call. No field of this app
    takes a non-finite number, so such a value is dropped; report_rejected then names it in a notice.
    """
    for key in list(st.query_params):
        values = st.query_params.get_all(key)
        if values and all(_non_finite(v) for v in values):
            _forget_initial(key)
            try:
                del st.query_params[key]
            except StreamlitAPIException:
                pass  # already bound to a widget in this run: that widget has read its value already


def _forget_initial(key: str) -> None:
    """Widgets seed from a copy of the URL taken when the run started, not from st.query_params.

    There is no public way to edit that copy, so this reaches into Streamlit 1.67's QueryParams
    (pinned in requirements.txt; tests/robustness/test_url_tampering_app.py fails if it stops working).
    """
    ctx = get_script_run_ctx()
    if ctx is None:
        return
    with ctx.session_state.query_params() as qp:
        initial = getattr(qp, "_initial_query_params", None)
        if isinstance(initial, dict):
            initial.pop(key, None)


def _non_finite(text: str) -> bool:
    try:
        return not math.isfinite(float(text))
    except ValueError:
        return False


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
    rejected = take_rejected()  # choice widgets (s2s_ui/linked.py) report their own, on any run
    managed = linked_keys()
    for key, raw in (before or {}).items():
        if key in KNOWN_GLOBAL or key in managed or f"{key}__base" in st.session_state:
            continue  # the language, linked choices and tables (those report themselves)
        if key not in st.session_state:
            rejected.append(key)
            continue
        value = st.session_state[key]
        if isinstance(value, str):
            continue  # free text: a too-long value was cut to the widget's max_chars, which is shown
        if not _same(raw, value):
            rejected.append(key)
    for key in list(dict.fromkeys(rejected))[:5]:
        st.toast(t("ui.url_fallback", param=key[:40]), icon=":material/link_off:")
