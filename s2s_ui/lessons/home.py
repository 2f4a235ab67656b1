"""Home's way into the course: start it in one click, or continue at the step the learner's link remembers."""

from __future__ import annotations

import streamlit as st

from s2s_core.lessons.model import COURSE
from s2s_ui.i18n import t
from s2s_ui.lessons.bar import continue_offer, go
from s2s_ui.lessons.catalog import lessons


def course_entry() -> None:
    course = lessons().get(COURSE)
    if course is None:
        return
    with st.container(border=True, key="s2s_course"):
        st.markdown(t("lesson.course_intro", n=len(course.steps), minutes=course.minutes))
        start, resume = st.columns([1, 2], vertical_alignment="center")
        if start.button(t("lesson.course_start"), key="course_start", type="primary", icon=":material/school:"):
            go(course, 1)
        kept = continue_offer()
        if kept is not None:
            lesson, n = kept
            page = t(f"{lesson.steps[n - 1].page}.title")
            label = t("lesson.continue_at", lesson=t(lesson.title_key), n=n, total=len(lesson.steps), page=page)
            if resume.button(label, key="course_continue", icon=":material/play_circle:"):
                go(lesson, n)
