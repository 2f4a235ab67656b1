"""The learner's language: ?lang=ko|en, else the browser locale; a sidebar switch; t(key, **fmt)."""

from __future__ import annotations

import streamlit as st

from s2s_core.catalog import LANGS, translate
from s2s_core.errors import InputError

LANG_KEY = "lang"  # the URL parameter
_STATE = "_lang"  # the session's language; the sidebar widget only writes it through a callback
_SWITCH = "lang_switch"


def _browser_default() -> str:
    locale = (st.context.locale or "").lower()
    return "ko" if locale.startswith("ko") else "en"


def init_language() -> None:
    """Once per session, before any text: ?lang= wins, else the browser's locale."""
    if st.session_state.get(_STATE) not in LANGS:
        requested = st.query_params.get(LANG_KEY)
        st.session_state[_STATE] = requested if requested in LANGS else _browser_default()


def lang() -> str:
    """The current language code ("ko" or "en")."""
    value = st.session_state.get(_STATE)
    return value if value in LANGS else _browser_default()


def t(key: str, **fmt: object) -> str:
    """Look a key up in the current language's catalog."""
    return translate(lang(), key, **fmt)


def _apply_switch() -> None:
    choice = st.session_state.get(_SWITCH)
    if choice in LANGS:
        st.session_state[_STATE] = choice


def language_switch() -> None:
    """Sidebar switch; the choice is mirrored into ?lang= so a copied link keeps the language."""
    st.sidebar.segmented_control(
        translate(lang(), "ui.language"),
        options=list(LANGS),
        default=lang(),
        format_func={"ko": "한국어", "en": "English"}.get,
        key=_SWITCH,
        required=True,
        on_change=_apply_switch,
    )
    st.query_params[LANG_KEY] = lang()


def error_text(err: InputError) -> str:
    """An InputError as a sentence in the learner's language, naming the field."""
    text = t(err.key, field=t(err.field), **err.params)
    if "row" in err.params and "col" in err.params and "{row}" not in t(err.key):
        text = f"{text} {t('errors.at_cell', row=err.params['row'], col=err.params['col'])}"
    return text
