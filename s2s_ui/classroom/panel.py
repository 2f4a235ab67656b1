"""The class box under the lesson bar: the teacher's controls, or the student's follow.

    class_panel(ns)   # app.py, after the lesson bar

The teacher steps with the lesson bar's own Back / Next (or ← / →): each run that finds the teacher's lesson step
differing from the class's moves the class (s2s_db.classes.move). The teacher's box adds the invitation (code,
link, QR), how many have answered, Reveal, Lock and End.

A student's box is drawn by the full run; beside it a poller asks the class's version, at most once a second: the
page's own long poll of the follow route where the app runs as server.py (s2s_ui/classroom/poll.py, route.py: the
request is held until the class moves, one indexed SELECT per class every 0.2 s however many wait), else a
fragment that draws nothing (`st.fragment(run_every=...)`, one indexed SELECT, s2s_db.classes.follow).
When the version changes (the teacher's move, lock, reveal or end), it asks for a full run, which opens the
teacher's step (s2s_ui/lessons/bar.go) and redraws the box: the page's picture is rebuilt only then (its results
are cached, so only a new step computes anything). A student may leave to explore (not while the
class is locked) and come back to the teacher's step.
"""

from __future__ import annotations

import contextlib
import io
import time
from collections.abc import Mapping
from typing import Any

import segno
import streamlit as st

from s2s_core.classroom import codes
from s2s_core.classroom.charts import tally_chart, tally_frame
from s2s_core.classroom.limits import Limits
from s2s_core.classroom.state import ClassError, ClassState, authorize
from s2s_core.errors import InputError
from s2s_core.lessons import Lesson, Step
from s2s_db import classes as repo
from s2s_ui.charts import draw
from s2s_ui.classroom.poll import watch
from s2s_ui.classroom.route import route_served
from s2s_ui.classroom.seat import FOLLOWING, NOTICE, Seat, seat, take
from s2s_ui.classroom.store import ClassroomDown, db_call
from s2s_ui.i18n import lang, t
from s2s_ui.lessons.bar import current, go, graded, option_labels, right_answer
from s2s_ui.lessons.catalog import lessons
from s2s_ui.widgets import show_error

PANEL_KEY = "s2s_class"  # the box: .st-key-s2s_class (presentation mode draws it large)
_STATE = "_class_state"  # session: the ClassState class_sync read in this run
_MOUNTS = "_class_poll_mounts"  # session: how many full runs drew the student's poller (its key: poll.watch)
_DOWN = "_class_down"  # session: the message key when class_sync could not reach the database in this run
_SENT = "_class_sent"  # session: {(code, lesson, step): option} the answers this student sent
POLL_S = Limits().poll_s  # a follower's poll: once a second (issue 27: "at most once a second")


def notice_text(key: str, params: Mapping[str, Any]) -> str:
    """A refusal's message in the learner's language (a bad server setting names its variable)."""
    shown = dict(params)
    field_key = shown.pop("field_key", None)
    if field_key:
        shown["field"] = t(field_key)
    return t(key, **shown)


def _refused(err: ClassError | ClassroomDown) -> None:
    st.session_state[NOTICE] = (err.key, getattr(err, "params", {}))


def class_sync() -> None:
    """app.py, before the lesson bar: the class and this session agree on the step, before anything is drawn.

    The teacher's lesson step (just opened by Back / Next) moves the class; a following student is taken to the
    class's step (a new run). The state read is kept for class_panel, later in the same run."""
    st.session_state.pop(_STATE, None)
    st.session_state.pop(_DOWN, None)
    found = seat()
    if found is None:
        return
    try:
        if found.role == "teacher":
            state = _sync_teacher(found)
        else:
            state = db_call(repo.follow, found.code, time.time())
    except ClassError as err:  # the class refuses this seat (ended, expired, gone): the session leaves it
        _refused(err)
        take(None)
        return
    except ClassroomDown as err:  # out of reach for now (a restart): the seat is kept, the box tries again
        st.session_state[_DOWN] = err.key
        return
    st.session_state[_STATE] = state
    if found.role == "student" and not state.ended:
        if state.locked:
            st.session_state[FOLLOWING] = True  # a locked class holds everyone at the teacher's step
        _steer(state)


def _sync_teacher(found: Seat) -> ClassState:
    state = db_call(repo.teacher_view, found.code, found.secret).state
    now = current()
    if not state.ended and now is not None and now[0].id == state.lesson and now[1].n != state.step:
        state = db_call(repo.move, found.code, found.secret, now[1].n, time.time())  # the class follows the bar
    return state


def _steer(state: ClassState) -> None:
    """A following student not at the class's step opens it, as its link would (ends this run)."""
    here = _step_of(state)
    if st.session_state.get(FOLLOWING, True) and not _at(state) and here is not None:
        go(here[0], state.step)


def class_panel(ns: str) -> None:
    """app.py, after the lesson bar: the teacher's or the student's class box (outside a class: a refusal's
    notice, once)."""
    notice = st.session_state.pop(NOTICE, None)
    if notice is not None:
        st.warning(notice_text(*notice), icon=":material/groups:")
    found, state = seat(), st.session_state.get(_STATE)
    down = st.session_state.get(_DOWN)
    if found is not None and down is not None:
        _out_of_reach(found, down)
        return
    if found is None or not isinstance(state, ClassState):
        return
    if state.ended:
        _ended_box(found)
    elif found.role == "teacher":
        _teacher_live(found, ns)
    else:
        _student_box(found, state)


def _out_of_reach(found: Seat, key: str) -> None:
    """The class database does not answer (restarting, its network gone): the teacher's or student's seat is kept,
    the box says so, and tries again every POLL_S; the first answer redraws the whole page at the class's step."""
    with st.container(key=PANEL_KEY, border=True, gap="small"):
        st.warning(t(key), icon=":material/cloud_off:")
        st.caption(t("classroom.ui.db_retry", code=codes.show_code(found.code)))
        _retry(found)


@st.fragment(run_every=POLL_S)
def _retry(found: Seat) -> None:
    try:
        db_call(repo.follow, found.code, time.time())
    except ClassroomDown:
        return  # still out of reach: the next tick asks again
    except ClassError:
        pass  # reached, and the class refuses: the full run says why
    st.rerun()


def _step_of(state: ClassState) -> tuple[Lesson, Step] | None:
    lesson = lessons().get(state.lesson)
    if lesson is None or not 1 <= state.step <= len(lesson.steps):
        return None
    return lesson, lesson.steps[state.step - 1]


def _at(state: ClassState) -> bool:
    """Is this session at the class's lesson step?"""
    now = current()
    return now is not None and now[0].id == state.lesson and now[1].n == state.step


def _leave_class(found: Seat) -> None:
    if found.role == "student":
        # A class already gone leaves nothing of the student to remove.
        with contextlib.suppress(ClassError, ClassroomDown, InputError):
            db_call(repo.leave, found.code, found.secret)
    take(None)


def _ended_box(found: Seat) -> None:
    with st.container(key=PANEL_KEY, border=True):
        st.info(t("classroom.ui.ended", code=codes.show_code(found.code)), icon=":material/flag:")
        if st.button(t("classroom.ui.close"), key="class_close", icon=":material/close:"):
            take(None)
            st.rerun()


# --- the student ------------------------------------------------------------------------------------------------


def _student_box(found: Seat, state: ClassState) -> None:
    """The student's box, drawn by the full run with the state class_sync read; the poll below watches for change."""
    follows = bool(st.session_state.get(FOLLOWING, True))
    with st.container(key=PANEL_KEY, border=True, gap="small"):
        code = codes.show_code(found.code)
        if follows:
            lead = t("classroom.ui.student_following", code=code, n=state.step, total=state.n_steps)
        else:
            lead = t("classroom.ui.student_exploring", code=code, n=state.step, total=state.n_steps)
        st.markdown(lead + (f"  \n{t('classroom.ui.locked_note')}" if state.locked else ""))
        here = _step_of(state)
        if follows and here is not None and here[1].question is not None and _at(state):
            _student_question(found, here[1], state)
        _student_buttons(found, state, follows)
        if route_served():
            mount = st.session_state[_MOUNTS] = st.session_state.get(_MOUNTS, 0) + 1
            watch(found.code, state.version, POLL_S, mount)  # the page asks /_class/<code>: no script run while idle
        else:
            _student_poll(found, state.version)  # `streamlit run app.py`: no route of ours, a fragment polls


@st.fragment(run_every=POLL_S)
def _student_poll(found: Seat, drawn: int) -> None:
    """Where the follow route is not served: once a second, one indexed read of the class, nothing drawn. Any change
    of the class (a move, the lock, the reveal, the end: each adds one to its version) asks for a full run, which
    steers the student and redraws the box. Each poll is a script run, which costs a student's browser about 0.05 of
    a core on a lesson page (docs/PERFORMANCE.md): the route's poller costs it a fetch."""
    try:
        state = db_call(repo.follow, found.code, time.time())
    except (ClassError, ClassroomDown):
        st.rerun()  # the full run says why and takes the student out of the class
    if state.version != drawn:
        st.rerun()


def _student_buttons(found: Seat, state: ClassState, follows: bool) -> None:
    """Explore on my own (not while locked) or back to the teacher's step; leave the class."""
    with st.container(horizontal=True, gap="small"):
        if follows and not state.locked and st.button(t("classroom.ui.explore"), key="class_explore"):
            try:
                authorize("student", "leave", state, time.time())  # the core's rule: not while locked
            except ClassError as err:
                st.warning(t(err.key))
            else:
                st.session_state[FOLLOWING] = False
                st.rerun()
        if not follows and st.button(t("classroom.ui.rejoin"), key="class_rejoin", type="primary"):
            st.session_state[FOLLOWING] = True
            st.rerun()
        if st.button(t("classroom.ui.quit"), key="class_quit", icon=":material/logout:", type="tertiary"):
            _leave_class(found)
            st.rerun()


def _student_question(found: Seat, step: Step, state: ClassState) -> None:
    """The step's question: the student's pick goes to the class (changeable until the reveal); the teacher's
    reveal shows everyone the answer, graded on the step's own state (the same numbers on every screen)."""
    assert step.question is not None
    options = list(step.question.options)
    labels = option_labels(step)
    sent: dict = st.session_state.setdefault(_SENT, {})
    where = (found.code, step.lesson, step.n)
    st.markdown(f"**{t('ui.quiz_title')}** — {t(step.key('question'))}")
    picked = st.radio(
        t(step.key("question")),
        options,
        index=options.index(sent[where]) if sent.get(where) in options else None,
        key=f"class_quiz__{found.code}__{step.lesson}__{step.n}",
        format_func=labels.get,
        label_visibility="collapsed",
        disabled=state.revealed,
    )
    if picked is not None and picked != sent.get(where) and not state.revealed:
        try:
            sent[where] = db_call(repo.answer, found.code, found.secret, picked, options, time.time())
        except InputError as err:
            show_error(err)
        except (ClassError, ClassroomDown) as err:
            st.warning(t(err.key), icon=":material/block:")
    if state.revealed:
        graded(step, sent.get(where), step.state)
    elif sent.get(where) is not None:
        st.caption(t("classroom.ui.answer_sent"))
    else:
        st.caption(t("classroom.ui.answer_wait"))


# --- the teacher ------------------------------------------------------------------------------------------------


def _options(state: ClassState) -> list[str] | None:
    here = _step_of(state)
    if here is None or here[1].question is None:
        return None
    return list(here[1].question.options)


@st.fragment(run_every=POLL_S)
def _teacher_live(found: Seat, ns: str) -> None:
    """Once a second: students and answers; Reveal, Lock and End act on the class at once."""
    try:
        view = db_call(repo.teacher_view, found.code, found.secret, _options)  # one read: the state, then its tally
    except (ClassError, ClassroomDown):
        st.rerun()
    state = view.state
    if state.ended:
        st.rerun()
    code = codes.show_code(found.code)
    with st.container(key=PANEL_KEY, border=True, gap="small"):
        lead = t("classroom.ui.teacher_lead", code=code, students=view.students, n=state.step, total=state.n_steps)
        st.markdown(lead + (f"  \n{t('classroom.ui.locked_note')}" if state.locked else ""))
        if not _at(state) and _step_of(state) is not None:
            st.caption(t("classroom.ui.teacher_away", n=state.step))
            if st.button(t("classroom.ui.teacher_back"), key="class_teacher_back", icon=":material/undo:"):
                go(_step_of(state)[0], state.step)
        here = _step_of(state)
        if view.tally is not None and here is not None:
            _teacher_question(found, here[1], state, view)
        with st.container(horizontal=True, gap="small", vertical_alignment="center"):
            _invite(found)
            on = st.toggle(t("classroom.ui.lock"), value=state.locked, key=f"class_lock__{state.version}")
            if on != state.locked:
                _act(lambda: db_call(repo.lock, found.code, found.secret, on, time.time()))
            with st.popover(t("classroom.ui.end"), icon=":material/flag:"):
                st.caption(t("classroom.ui.end_confirm"))
                if st.button(t("classroom.ui.end_now"), key="class_end", type="primary"):
                    _act(lambda: db_call(repo.end, found.code, found.secret, time.time()))
                    st.rerun()


def _act(action) -> None:
    try:
        action()
    except (ClassError, ClassroomDown) as err:
        st.warning(t(err.key), icon=":material/block:")
    else:
        st.rerun()  # the whole app: a teacher's action is rare, and the lesson bar reads the new state too


def _teacher_question(found: Seat, step: Step, state: ClassState, view: repo.TeacherView) -> None:
    assert view.tally is not None
    st.markdown(f"**{t('ui.quiz_title')}** — {t(step.key('question'))}")
    st.markdown(t("classroom.ui.answered", n=view.tally.total, students=view.students))
    if not state.revealed:
        if st.button(t("classroom.ui.reveal"), key="class_reveal", icon=":material/visibility:", type="primary"):
            _act(lambda: db_call(repo.reveal, found.code, found.secret, time.time()))
        return
    labels = option_labels(step)
    answer = right_answer(step, step.state)
    right = labels.get(answer.answer or "", answer.answer or "")
    texts = {
        "title": t("classroom.ui.tally_title"),
        "count": t("classroom.ui.tally_count"),
        "option": t("classroom.ui.tally_option"),
        "description": t("classroom.ui.tally_description", n=view.tally.total, correct=right),
    }
    spec = tally_chart(tally_frame(view.tally, labels, answer.answer), texts).to_dict()
    chart, result = st.columns([3, 2], vertical_alignment="center")
    draw(chart, spec)
    result.success(t("classroom.ui.live_result", correct=right), icon=":material/target:")


def student_link(code: str) -> str:
    """The link a student opens: this page's address with only the class code (and the language)."""
    base = (st.context.url or "").split("?", 1)[0]
    return f"{base}?class={code}&lang={lang()}"


@st.cache_data(max_entries=64, show_spinner=False)
def qr_png(text: str) -> bytes:
    """The link as a QR code (segno: pure Python), dark on white whatever the theme, so any phone reads it."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="png", scale=8, border=2, dark="#000000", light="#ffffff")
    return out.getvalue()


def _invite(found: Seat) -> None:
    code = codes.show_code(found.code)
    link = student_link(found.code)
    with st.popover(t("classroom.ui.invite"), icon=":material/qr_code_2:"):
        st.markdown(t("classroom.ui.invite_code", code=code))
        st.code(link, language=None)
        st.image(qr_png(link), caption=t("classroom.ui.qr_caption"), width=260)
        st.caption(t("classroom.ui.teacher_link_note"))
