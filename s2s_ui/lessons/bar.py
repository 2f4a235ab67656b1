"""The lesson bar: step n of N, the narration, Back / Next (← / →), back to the step's state, read aloud.

    lesson_bar(current)   # app.py, before the page runs: the bar of the lesson in progress (or a tour's start)

A step is a page state (s2s_core/lessons): going to a step forgets the page's values (`Page.forget`, as Reset
does) and opens the page with the step's link values, exactly as if its link had been opened. The lesson and the
step are in the link too (?lesson=course&lesson_step=7), so a teacher can send "step 7 of the course" and a
returning learner's link remembers where they were. The narration is computed on the step's state (its claim's
numbers); once the learner changes the picture, the bar says so and offers the step's state back.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import streamlit as st

from s2s_core.errors import InputError
from s2s_core.lessons import Lesson, Step, evaluate, same_state
from s2s_core.lessons.claims import ClaimResult
from s2s_core.validate import check_int
from s2s_ui import own_weights
from s2s_ui.cache import cached_result
from s2s_ui.i18n import lang, t
from s2s_ui.lessons.catalog import lessons, tour_of
from s2s_ui.lessons.keys import arrow_keys, read_aloud
from s2s_ui.link import from_link, link_raw, to_link
from s2s_ui.registry import PAGES
from s2s_ui.state import Page
from s2s_ui.text import md_escape

LESSON_KEY, STEP_KEY = "lesson", "lesson_step"  # the link's parameters
_NOW = "_lesson_now"  # session: (lesson id, step n) while a lesson is open
_READ = "_lesson_read"  # session: the link's (lesson, step) as last read or written
BAR_KEY = "s2s_lesson"  # the bar's container: .st-key-s2s_lesson (print and presentation styles)
BACK, NEXT = "lesson_back", "lesson_next"


@cached_result(max_entries=512)
def step_claim(lesson_id: str, n: int, language: str) -> ClaimResult | None:
    """The claim of step n computed on the step's own state (None: the step makes no claim)."""
    step = lessons()[lesson_id].steps[n - 1]
    if step.claim is None:
        return None
    return evaluate(step.claim.name, step.claim.kwargs, Page.of(step.page).fields, step.state, language)


def narration(step: Step) -> str | None:
    """The step's sentences with its claim's numbers; None when the claim does not hold on its state (the tests
    make sure it always does; the bar then says the step cannot be shown rather than state something false)."""
    result = step_claim(step.lesson, step.n, lang())
    if result is not None and not result.holds:
        return None
    values = {k: md_escape(v) for k, v in (result.values if result else {}).items()}
    return t(step.key("text"), **values)


def _file(ns: str) -> str:
    return next(p.file for p in PAGES if p.ns == ns)


def go(lesson: Lesson, n: int) -> None:
    """Open step n of `lesson`: the page's values forgotten, then its page with the step's link (a new run)."""
    n = min(max(1, n), len(lesson.steps))
    step = lesson.steps[n - 1]
    st.session_state[_NOW] = (lesson.id, n)
    st.session_state.pop(f"lesson_quiz__{lesson.id}__{n}", None)
    Page.of(step.page).open(_file(step.page), step.state, {"lang": lang(), LESSON_KEY: lesson.id, STEP_KEY: str(n)})


def leave() -> None:
    st.session_state.pop(_NOW, None)
    to_link(LESSON_KEY, None)
    to_link(STEP_KEY, None)
    st.session_state[_READ] = (None, None)


def _read_link() -> tuple[Lesson, int] | None:
    """The link's lesson and step, when they are not what this session last read or wrote (a link just opened):
    an unknown lesson or a step that is not a whole number is named in a toast (README "Bad input") and ignored; a
    step past the end opens the last one."""
    raw = _linked()
    if raw == st.session_state.get(_READ) or raw[0] is None:
        st.session_state[_READ] = raw
        return None
    st.session_state[_READ] = raw
    known = lessons()

    def lesson_id(raw: str) -> str:
        if raw not in known:
            raise InputError("errors.bad_choice", "", value=raw[:20], choices=", ".join(known))
        return raw

    lesson_name = from_link(LESSON_KEY, t("lesson.field"), lesson_id)
    if lesson_name is None:
        return None
    n = from_link(STEP_KEY, t("lesson.step_field"), lambda raw: check_int(raw.strip(), "", 1, 10_000)) or 1
    return known[lesson_name], min(n, len(known[lesson_name].steps))


def _linked() -> tuple[str | None, str | None]:
    return link_raw(LESSON_KEY), link_raw(STEP_KEY)


def current() -> tuple[Lesson, Step] | None:
    now = st.session_state.get(_NOW)
    if not now or now[0] not in lessons():
        return None
    lesson = lessons()[now[0]]
    return lesson, lesson.steps[min(now[1], len(lesson.steps)) - 1]


def explored(step: Step, ns: str) -> bool:
    """Has the learner left the step's state (another page, a value changed on its page, or the page running on
    the learner's own uploaded weights)?"""
    if ns != step.page or own_weights.in_use(ns):
        return True
    page = Page.of(ns)
    return not same_state(page.fields, step.state, page.link_state(), lang())


def lesson_bar(ns: str, *, steer: bool = True, own_question: bool = True) -> None:
    """Above the page `ns`: the bar of the open lesson; else, on a page with a tour, the button that starts it.
    A link naming a lesson step opens that step (on Home it is offered instead: Home shows where to continue).

    In a class (app.py asks s2s_ui/classroom): a student who follows the teacher does not `steer` (no Back, Next,
    ← / →), and the step's question is the class's, drawn by the class box, not the bar's `own_question`."""
    arrived = _read_link()
    if arrived is not None and ns != "home":
        lesson, n = arrived
        step = lesson.steps[n - 1]
        if explored(step, ns):
            go(lesson, n)  # the link names a step: open its state (a new run)
        st.session_state[_NOW] = (lesson.id, n)
    elif arrived is not None:
        st.session_state["_lesson_continue"] = (arrived[0].id, arrived[1])
    now = current()
    if now is None:
        tour_button(ns, "tour_start")
        return
    draw_bar(*now, ns, steer=steer, own_question=own_question)


def tour_button(ns: str, key: str, lead: str | None = None) -> None:
    """The button that starts page `ns`'s tour, after the caption `lead` (nothing when the page has no tour, or a
    lesson is open)."""
    tour = tour_of(ns)
    if tour is None or current() is not None:
        return
    if lead:
        st.caption(lead)
    label = t("lesson.tour_start", n=len(tour.steps), minutes=tour.minutes)
    if st.button(label, key=key, icon=":material/tour:", type="tertiary"):
        go(tour, 1)


def draw_bar(lesson: Lesson, step: Step, ns: str, *, steer: bool = True, own_question: bool = True) -> None:
    """One compact box: the lesson and step, the narration (and a step's question), one row of buttons."""
    to_link(LESSON_KEY, lesson.id)
    to_link(STEP_KEY, str(step.n))
    st.session_state[_READ] = _linked()
    total = len(lesson.steps)
    with st.container(key=BAR_KEY, border=True, gap="small"):
        text = narration(step)
        head = f"**{t(lesson.title_key)}** · {t('lesson.step_of', n=step.n, total=total)}"
        st.markdown(f"{head}  \n{text}" if text is not None else head)
        if text is None:
            st.warning(t("lesson.claim_failed"), icon=":material/warning:")
        away = explored(step, ns)
        if away:
            st.caption(t("lesson.explored"))
        if step.question is not None and not away and own_question:
            question(step)
        with st.container(horizontal=True, gap="small", vertical_alignment="center"):
            if steer and st.button(t("lesson.back"), key=BACK, icon=":material/arrow_back:", disabled=step.n == 1):
                go(lesson, step.n - 1)
            last = step.n == total
            next_button = steer and st.button(
                t("lesson.next"), key=NEXT, icon=":material/arrow_forward:", type="primary", disabled=last
            )
            if next_button:
                go(lesson, step.n + 1)
            if steer and away and st.button(t("lesson.again"), key="lesson_again", icon=":material/undo:"):
                go(lesson, step.n)
            read_aloud(plain(text or t("lesson.claim_failed")), key="lesson_speak")
            if steer:
                st.button(
                    t("lesson.leave"), key="lesson_leave", icon=":material/close:", type="tertiary", on_click=leave
                )
        if steer:
            arrow_keys(BACK, NEXT)


def question(step: Step) -> None:
    """Predict, then reveal: graded by the step's answer claim on the live state of the page."""
    assert step.question is not None
    key = f"lesson_quiz__{step.lesson}__{step.n}"
    options = list(step.question.options)
    labels = option_labels(step)
    st.markdown(f"**{t('ui.quiz_title')}** — {t(step.key('question'))}")
    picked = st.radio(
        t(step.key("question")),
        options,
        index=None,
        key=key,
        format_func=labels.get,
        label_visibility="collapsed",
    )
    if picked is None:
        return
    graded(step, picked, Page.of(step.page).link_state())


def option_labels(step: Step) -> dict[str, str]:
    """A question's option ids -> their labels in the learner's language."""
    assert step.question is not None
    return {o: t(step.key(f"option_{o}")) for o in step.question.options}


def right_answer(step: Step, state: Mapping[str, str]) -> ClaimResult:
    """The question's answer claim computed on the page state `state` (its `.answer` is the right option id)."""
    assert step.question is not None
    ref = step.question.answer
    return evaluate(ref.name, ref.kwargs, Page.of(step.page).fields, state, lang())


def graded(step: Step, picked: str | None, state: Mapping[str, str]) -> None:
    """The reveal: the picked option graded by the live computation on `state`, then the step's explanation."""
    labels = option_labels(step)
    answer = right_answer(step, state)
    right = labels.get(answer.answer or "", answer.answer or "")
    if picked is None:
        st.info(t("classroom.ui.no_answer", correct=right), icon=":material/target:")
    elif picked == answer.answer:
        st.success(t("ui.quiz_right", answer=right), icon=":material/target:")
    else:
        st.warning(t("ui.quiz_wrong", answer=labels[picked], correct=right), icon=":material/search:")
    st.markdown(t(step.key("explain"), **{k: md_escape(v) for k, v in answer.values.items()}))


def plain(markdown: str) -> str:
    """Narration as speech reads it: no markdown marks, no escapes."""
    return re.sub(r"\\(.)", r"\1", re.sub(r"[*_`#]", "", markdown))


def continue_offer() -> tuple[Lesson, int] | None:
    """On Home: the lesson step the learner's link remembers (None: nothing to continue)."""
    kept: Any = st.session_state.get("_lesson_continue") or st.session_state.get(_NOW)
    if not kept or kept[0] not in lessons():
        return None
    return lessons()[kept[0]], kept[1]
