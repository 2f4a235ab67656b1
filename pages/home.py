"""Page: Home — the learning path as a picture (a link per page), then what the app teaches and how to use it."""

from __future__ import annotations

import streamlit as st

from s2s_core.path.charts import THEME_TEXT, path_chart
from s2s_core.path.frames import edges_frame, nodes_frame
from s2s_core.path.graph import course
from s2s_ui.charts import cached_spec, draw
from s2s_ui.classroom.home import class_entry
from s2s_ui.i18n import lang, t
from s2s_ui.lessons.home import course_entry
from s2s_ui.registry import existing_pages
from s2s_ui.widgets import page_header


@cached_spec
def path_spec(pages: tuple[tuple[str, str], ...], language: str, theme: str) -> dict:
    """pages: (ns, url path) of every existing page; the texts come from the catalog of `language`."""
    drawn = course(ns for ns, _ in pages)
    urls = dict(pages)
    texts = {node.ns: (t(f"{node.ns}.title"), t(f"{node.ns}.summary")) for node in drawn.nodes}
    # a relative link keeps a hosted app's base path; ?lang= keeps the learner's language
    hrefs = {node.ns: f"{urls[node.ns]}?lang={language}" for node in drawn.nodes}
    order = " → ".join(title for title, _ in texts.values())
    labels = {
        "title": t("home.path_chart_title"),
        "subtitle": t("home.path_chart_subtitle"),
        "description": t("home.path_chart_description", n=len(drawn.nodes), order=order),
        "page": t("home.path_tip_page"),
        "summary": t("home.path_tip_summary"),
    }
    return path_chart(nodes_frame(drawn, texts, hrefs), edges_frame(drawn), labels, text_color=THEME_TEXT[theme])


page_header("home")
steps = [p for p in existing_pages() if p.ns != "home"]
theme = "dark" if st.context.theme.type == "dark" else "light"
course_entry()  # start the course in one click, or continue where the link says the learner left off
draw(st, path_spec(tuple((p.ns, p.url) for p in steps), lang(), theme))
class_entry()  # a teacher starts a class for the room; a student joins one by its code

st.subheader(t("home.what_title"))
st.markdown(t("home.what_body"))

st.subheader(t("home.path_title"))
for n, spec in enumerate(steps, start=1):
    with st.container(border=True):
        st.markdown(t("home.path_step", n=n, title=t(f"{spec.ns}.title"), summary=t(f"{spec.ns}.summary")))
        st.page_link(spec.file, label=t("home.open_page"), icon=spec.icon)

st.subheader(t("home.how_title"))
st.markdown("\n".join(f"- {t(f'home.how_{i}')}" for i in range(1, 6)))
