"""Home's way into a class: a teacher starts one (a lesson, then its first step), a student types a code."""

from __future__ import annotations

import time

import streamlit as st

from s2s_core.classroom import codes
from s2s_core.classroom.state import ClassError
from s2s_core.errors import InputError
from s2s_core.lessons.model import COURSE
from s2s_db import classes as repo
from s2s_ui.classroom.panel import notice_text
from s2s_ui.classroom.seat import Seat, join, seat, take
from s2s_ui.classroom.store import ClassroomDown, db_call, limits
from s2s_ui.i18n import t
from s2s_ui.lessons.bar import go
from s2s_ui.lessons.catalog import lessons
from s2s_ui.widgets import show_error

MAX_CODE_FIELD = codes.MAX_CODE_INPUT  # the code box takes no more than a code could honestly be typed as


def class_entry() -> None:
    """Start a class (teacher) or join one by its code (student); nothing while this session is in a class."""
    if seat() is not None:
        return
    with st.container(border=True, key="s2s_class_home"):
        st.markdown(t("classroom.ui.home_intro"))
        teach, learn = st.columns(2, gap="medium")
        with teach:
            _start()
        with learn:
            _join()


def _start() -> None:
    known = lessons()
    ids = [COURSE, *sorted(i for i in known if i != COURSE)] if COURSE in known else sorted(known)
    titles = {i: t(known[i].title_key) for i in ids}
    picked = st.selectbox(t("classroom.ui.lesson_field"), ids, format_func=titles.get, key="class_lesson")
    if not st.button(t("classroom.ui.start"), key="class_start", type="primary", icon=":material/co_present:"):
        return
    lesson = known[picked]
    try:
        now = time.time()
        db_call(repo.expire, now)  # ended and expired classes go first, so they never count against the cap
        opened = db_call(repo.open_class, lesson.id, len(lesson.steps), now, limits())
    except (ClassError, ClassroomDown) as err:
        st.warning(notice_text(err.key, getattr(err, "params", {})), icon=":material/block:")
        return
    take(Seat(opened.code, "teacher", opened.secret))
    go(lesson, 1)


def _join() -> None:
    with st.form("class_join", border=False):
        typed = st.text_input(
            t("classroom.field.code"), max_chars=MAX_CODE_FIELD, placeholder="ABCD-1234", key="class_code"
        )
        pressed = st.form_submit_button(t("classroom.ui.join"), icon=":material/login:")
    if not pressed:
        return
    try:
        code = codes.parse_code(typed)
        found = join(code)
    except InputError as err:
        show_error(err)
        return
    except (ClassError, ClassroomDown) as err:
        st.warning(notice_text(err.key, getattr(err, "params", {})), icon=":material/block:")
        return
    take(found)
    st.rerun()  # the class box opens the teacher's step
