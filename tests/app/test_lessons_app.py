"""Lessons in AppTest: every step of every lesson opens its page without an error, the bar shows the step and its
narration, and what the step's claim computed is on the drawn page (its text or its picture's data); the bar's
buttons move between steps, the link carries the lesson and the step, a bad lesson link is named in a toast."""

from __future__ import annotations

import io
import json

import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from s2s_core.catalog import translate
from s2s_core.lessons import evaluate, load_lessons, page_fields
from tests.app.conftest import ROOT, all_text, open_page, toasts

LESSONS = load_lessons()
PAGES = page_fields()
STEPS = [step for lesson in LESSONS.values() for step in lesson.steps]


def page_strings(at) -> str:
    """Everything the run drew as text: the elements' text, and each chart's spec and data rows."""
    parts = [all_text(at)]
    for chart in at.get("vega_lite_chart"):
        parts.append(chart.proto.spec)
        for data in chart.proto.datasets:
            table = pa.ipc.open_stream(io.BytesIO(data.data.data)).read_all()
            parts.append(json.dumps(table.to_pylist(), ensure_ascii=False, default=str))
    return "\n".join(parts)


def _open_step(step, lang: str):
    query = {**step.state, "lesson": step.lesson, "lesson_step": str(step.n)}
    if step.page != "home":
        return open_page(step.page, lang, query, timeout=120)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)  # Home is the app's first page
    for key, value in {"lang": lang, **query}.items():
        at.query_params[key] = value
    at.run()
    if not any(b.key == "lesson_next" for b in at.button):  # Home offers a linked step rather than opening it
        next(b for b in at.button if b.key == "course_continue").click().run()
    return at


@pytest.mark.parametrize("step", STEPS, ids=lambda s: f"{s.lesson}-{s.n}-{s.id}")
def test_every_step_opens_its_page_with_its_narration_and_claim(step):
    lang = ("en", "ko")[step.n % 2]  # both languages across a lesson's steps; the claims run in both (core tests)
    at = _open_step(step, lang)
    assert not at.exception, [e.value for e in at.exception]
    total = len(LESSONS[step.lesson].steps)
    drawn = page_strings(at)
    assert translate(lang, "lesson.step_of", n=step.n, total=total) in drawn
    if step.claim is not None:
        result = evaluate(step.claim.name, step.claim.kwargs, PAGES[step.page], step.state, lang)
        assert translate(lang, step.key("text"), **result.values).split("{")[0][:40] in drawn.replace("\\", "")
        missing = [s for s in result.shown if s not in drawn]
        assert missing == [], f"{step.where()}: the page does not show {missing}"
    assert translate(lang, "lesson.explored").split(".")[0] not in drawn  # the step's own state: not "changed"


def _button(at, key: str):
    return next(b for b in at.button if b.key == key)


def test_the_tour_starts_moves_and_leaves_and_the_link_follows():
    at = open_page("attention", "en")
    _button(at, "tour_start").click().run()
    assert at.query_params["lesson"] == "tour_attention" and at.query_params["lesson_step"] == "1"
    assert "step 1 of 4" in all_text(at)
    _button(at, "lesson_next").click().run()
    assert at.query_params["lesson_step"] == "2" and at.query_params["att_step"] == "2"
    _button(at, "lesson_back").click().run()
    assert at.query_params["lesson_step"] == "1" and "att_step" not in at.query_params
    assert _button(at, "lesson_back").disabled
    _button(at, "lesson_leave").click().run()
    assert "lesson" not in at.query_params and "step 1 of 4" not in all_text(at)


def test_after_exploring_the_bar_says_so_and_brings_the_step_back():
    at = open_page("attention", "en", {"lesson": "tour_attention", "lesson_step": "3", "att_steps": "0,0,1;1,0,0"})
    assert translate("en", "lesson.explored") not in all_text(at)
    at.query_params["att_steps"] = "0,1,0;1,0,0"  # as the page writes an edited table into the link
    at.run()
    assert translate("en", "lesson.explored") in all_text(at)
    _button(at, "lesson_again").click().run()
    assert at.query_params["att_steps"] == "0,0,1;1,0,0"
    assert translate("en", "lesson.explored") not in all_text(at)


def test_a_bad_lesson_link_is_named_and_ignored():
    at = open_page("attention", "ko", {"lesson": "nope<b>", "lesson_step": "2"})
    assert not at.exception
    assert translate("ko", "lesson.field") in toasts(at)
    assert "<b>" not in all_text(at)
    at = open_page("attention", "en", {"lesson": "tour_attention", "lesson_step": "99"})
    assert "step 4 of 4" in all_text(at)  # past the end: the last step


def test_home_starts_the_course_and_offers_to_continue_from_the_link():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    for key, value in {"lang": "en", "lesson": "course", "lesson_step": "2"}.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception
    labels = [b.label for b in at.button]
    assert translate("en", "lesson.course_start") in labels
    assert any(label.startswith("Continue where you left off") and "step 2 of" in label for label in labels)
    _button(at, "course_start").click().run()
    assert at.query_params["lesson"] == "course" and at.query_params["lesson_step"] == "1"


def test_what_to_notice_leads_into_the_page_tour():
    """The notice tab's list ends with the tour that shows the same things on the picture."""
    at = open_page("attention", "ko", {"attention_tabs": "notice"})
    assert translate("ko", "lesson.tour_notice") in all_text(at)
    _button(at, "tour_start_notice").click().run()
    assert at.query_params["lesson"] == "tour_attention" and at.query_params["lesson_step"] == "1"
    assert translate("ko", "lesson.tour_notice") not in all_text(at)  # a lesson is open: no second start
