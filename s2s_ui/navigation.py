"""The router's page list: one st.Page per existing page, titled in the learner's language, in its group.

    grouped_pages(lang) -> {group title: [st.Page, ...]}   # app.py, every run

Building an st.Page finds its file on disk (a stat per path component) and checks that it exists: thirteen of
them, with the check of which pages exist, were about a tenth of a student's follow run (docs/PERFORMANCE.md, "A
class following the teacher"). They are built once per language and server process; each run gets shallow copies,
because st.navigation marks the page it returns as callable once (`Page.run`), and that mark belongs to this run,
not to an object every session shares.
"""

from __future__ import annotations

import copy

import streamlit as st

from s2s_core.catalog import translate
from s2s_ui.registry import GROUPS, existing_pages


@st.cache_resource(show_spinner=False)  # once per language and server process
def _build(lang: str) -> dict[str, list[st.Page]]:
    by_group: dict[str, list[st.Page]] = {}
    for spec in existing_pages():
        page = st.Page(
            spec.file,
            title=translate(lang, f"{spec.ns}.title"),
            icon=spec.icon,
            url_path=spec.url,
            default=spec.ns == "home",
        )
        by_group.setdefault(spec.group, []).append(page)
    return {translate(lang, f"nav.group_{g}"): by_group[g] for g in GROUPS if g in by_group}


def grouped_pages(lang: str) -> dict[str, list[st.Page]]:
    """The pages for st.navigation in `lang`, grouped in GROUPS order: fresh copies of the ones built once."""
    return {group: [copy.copy(page) for page in pages] for group, pages in _build(lang).items()}
