"""The learner's language: ?lang=ko|en, else the browser locale; a sidebar switch; t(key, **fmt)."""

from __future__ import annotations

import streamlit as st

from s2s_core.errors import InputError
from s2s_ui.catalog import LANGS, translate

LANG_KEY = "lang"


def _browser_default() -> str:
    locale = (st.context.locale or "").lower()
    return "ko" if locale.startswith("ko") else "en"


def init_language() -> None:
    """Once per session, before any text: ?lang= wins, else the browser's locale."""
    if st.session_state.get(LANG_KEY) not in LANGS:
        requested = st.query_params.get(LANG_KEY)
        st.session_state[LANG_KEY] = requested if requested in LANGS else _browser_default()


def lang() -> str:
    """The current language code ("ko" or "en")."""
    value = st.session_state.get(LANG_KEY)
    return value if value in LANGS else _browser_default()


def t(key: str, **fmt: object) -> str:
    """Look a key up in the current language's catalog."""
    return translate(lang(), key, **fmt)


def language_switch() -> None:
    """Sidebar switch mirrored into ?lang= (set by hand, so the URL always names the language)."""
    st.sidebar.segmented_control(
        translate(lang(), "ui.language"),
        options=list(LANGS),
        format_func={"ko": "한국어", "en": "English"}.get,
        key=LANG_KEY,
        required=True,
    )
    st.query_params[LANG_KEY] = lang()


def error_text(err: InputError) -> str:
    """An InputError as a sentence in the learner's language, naming the field."""
    text = t(err.key, field=t(err.field), **err.params)
    if "row" in err.params and "col" in err.params and "{row}" not in t(err.key):
        text = f"{text} {t('errors.at_cell', row=err.params['row'], col=err.params['col'])}"
    return text
