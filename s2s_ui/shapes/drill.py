"""Predict the shape: a drill of random-looking layers, one tensor to name each, graded by the core against a real
forward pass. The question's number is a field of the page (a link opens the same question in any session); the
answers and the first-try score belong to the session.

It needs none of the page's other inputs, so it draws whatever they hold.
"""

from __future__ import annotations

import streamlit as st

from s2s_core.errors import InputError
from s2s_core.shapes import fields
from s2s_core.shapes.frames import shape_text
from s2s_core.shapes.quiz import MAX_ANSWER_CHARS, ShapeQuestion, first_tries, grade, question_code, score
from s2s_ui.i18n import t
from s2s_ui.shapes.specs import question
from s2s_ui.state import Page
from s2s_ui.widgets import show_error

FIRST, RESULT = "shapes_quiz_first", "shapes_quiz_result"  # the session's record (not the page's fields)


def _answer_key(n: int) -> str:
    return f"shapes_quiz_answer_{n}"


def _next_question(n: int) -> None:
    """Button callback (before the rerun draws the number field): the next question."""
    st.session_state[fields.QUESTION.key] = min(n + 1, fields.MAX_QUESTION)


def _grade_answer(n: int, q: ShapeQuestion) -> None:
    """Form callback: grade once and keep the verdict in session state (it survives any later rerun)."""
    state = st.session_state
    try:
        g = grade(q, state.get(_answer_key(n)))
    except InputError as err:
        state[RESULT] = (n, err)
        return
    state[FIRST] = first_tries(state[FIRST], n, g)
    state[RESULT] = (n, g)


def _show_verdict(n: int) -> None:
    shown_n, verdict = st.session_state.get(RESULT, (None, None))
    if shown_n != n:
        return
    if isinstance(verdict, InputError):
        show_error(verdict)
        return
    if verdict.correct:
        st.success(t("shapes.quiz.right", expected=shape_text(verdict.expected)), icon=":material/target:")
    else:
        given, expected = shape_text(verdict.given), shape_text(verdict.expected)
        st.warning(t("shapes.quiz.wrong", given=given, expected=expected), icon=":material/search:")
    st.markdown(t(f"shapes.quiz.hint.{verdict.hint}"))


def show_drill(page: Page) -> None:
    """One question at a time, with the verdict of the last answer, the score and a button to the next."""
    state = st.session_state
    state.setdefault(FIRST, {})  # question number -> was the first answer right?
    st.subheader(t("shapes.quiz.heading"))
    st.caption(t("shapes.quiz.intro"))
    with st.container(border=True):
        n = page.input(fields.QUESTION, st.number_input, step=1, help=t("shapes.help.question"))
        q = question(n)
        st.markdown(t("shapes.quiz.setup", B=q.config.B, S=q.config.S, E=q.config.E))
        st.code(question_code(q), language="python", wrap_lines=True)
        st.markdown(t("shapes.quiz.question_x") if q.tensor == "x" else t("shapes.quiz.question", tensor=q.tensor))
        with st.form(f"shapes_quiz_form_{n}", border=False):
            st.text_input(
                t("shapes.field.quiz_answer"),
                key=_answer_key(n),
                placeholder=t("shapes.quiz.placeholder"),
                max_chars=MAX_ANSWER_CHARS,
            )
            st.form_submit_button(t("shapes.quiz.submit"), on_click=_grade_answer, args=(n, q))
        _show_verdict(n)
        right, asked = score(state[FIRST])
        st.markdown(t("shapes.quiz.score", right=right, asked=asked))
        st.button(t("shapes.quiz.next"), key="shapes_quiz_next", on_click=_next_question, args=(n,))
