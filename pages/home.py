"""Page: Home — what the app teaches, the learning path over the pages that exist, how to use it."""

from __future__ import annotations

import streamlit as st

from s2s_ui.i18n import t
from s2s_ui.registry import existing_pages
from s2s_ui.widgets import page_header

page_header("home")

st.subheader(t("home.what_title"))
st.markdown(t("home.what_body"))

st.subheader(t("home.path_title"))
steps = [p for p in existing_pages() if p.ns != "home"]
for n, spec in enumerate(steps, start=1):
    with st.container(border=True):
        st.markdown(t("home.path_step", n=n, title=t(f"{spec.ns}.title"), summary=t(f"{spec.ns}.summary")))
        st.page_link(spec.file, label=t("home.open_page"), icon=spec.icon)

st.subheader(t("home.how_title"))
st.markdown("\n".join(f"- {t(f'home.how_{i}')}" for i in range(1, 6)))
