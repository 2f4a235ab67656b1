"""Lessons are data, checked here: every lesson loads, every step's state is one its page reads, every claim holds
on its step's state in both languages, and every text a step shows exists in both catalogs and quotes only the
numbers its claim computed. A problem names the lesson and the step."""

from __future__ import annotations

import string
from pathlib import Path

import pytest

from s2s_core.catalog import LANGS, load_catalog
from s2s_core.lessons import LinkState, load_lessons, page_fields, registered, same_state, validate
from s2s_core.lessons.claims import evaluate
from s2s_core.lessons.model import LessonError, read_lesson
from s2s_core.validate import decode_table
from s2s_ui.lessons.catalog import missing_texts, step_text_keys
from s2s_ui.registry import PAGES as REGISTRY

LESSONS = load_lessons()
PAGES = page_fields()
STEPS = [step for lesson in LESSONS.values() for step in lesson.steps]
CLAIMED = [s for s in STEPS if s.claim is not None]
QUESTIONS = [s for s in STEPS if s.question is not None]


def test_every_lesson_loads_with_no_problem():
    problems = [p for p in validate(LESSONS, PAGES) if not p.startswith("no course")]  # the course: test below
    assert problems == []
    assert missing_texts(LESSONS) == []


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("step", CLAIMED, ids=lambda s: f"{s.lesson}-{s.n}-{s.id}")
def test_every_claim_holds_on_its_step(step, lang):
    result = evaluate(step.claim.name, step.claim.kwargs, PAGES[step.page], step.state, lang)
    assert result.holds, f"{step.where()} ({lang}): claim {step.claim.name} does not hold: {result.values}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("step", STEPS, ids=lambda s: f"{s.lesson}-{s.n}-{s.id}")
def test_every_text_quotes_only_what_its_claim_computed(step, lang):
    """A narration's {name} must be one of its claim's values (a question's explanation: its answer claim's)."""
    catalog = load_catalog(lang)
    values = {}
    if step.claim is not None:
        values = evaluate(step.claim.name, step.claim.kwargs, PAGES[step.page], step.state, lang).values
    for key in step_text_keys(step):
        names = {name for _, name, _, _ in string.Formatter().parse(catalog[key]) if name}
        allowed = set(values)
        if key == step.key("explain"):
            answer = step.question.answer
            allowed = set(evaluate(answer.name, answer.kwargs, PAGES[step.page], step.state, lang).values)
        assert names <= allowed, f"{step.where()} ({lang}): {key} quotes {sorted(names - allowed)}"


@pytest.mark.parametrize("step", QUESTIONS, ids=lambda s: f"{s.lesson}-{s.n}-{s.id}")
def test_every_question_is_graded_by_one_of_its_options(step):
    answer = step.question.answer
    for lang in LANGS:
        got = evaluate(answer.name, answer.kwargs, PAGES[step.page], step.state, lang).answer
        assert got in step.question.options, f"{step.where()} ({lang}): answer {got!r}"


def test_a_claim_that_does_not_hold_is_reported_as_not_holding():
    """The check can fail: the worked example's context is [3.4, 2.2], not [3.4, 2.3]."""
    fields = PAGES["attention"]
    assert evaluate("attention:context", {"step": 1, "equals": [3.4, 2.2]}, fields, {}, "ko").holds
    assert not evaluate("attention:context", {"step": 1, "equals": [3.4, 2.3]}, fields, {}, "ko").holds


def _lesson_file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "tour_x.toml"
    path.write_text('kind = "tour"\npage = "attention"\n' + body, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("step", "problem"),
    [
        ('id = "a"\npage = "nowhere"', "unknown page 'nowhere'"),
        ('id = "a"\nparams = { rnn_E = "2" }', "has no field 'rnn_E'"),
        ('id = "a"\nparams = { att_dim = "99" }', "att_dim='99' is not a value of that field"),
        ('id = "a"\nparams = { att_steps = "1,x;0,1" }', "att_steps='1,x;0,1' is not a value"),
        ('id = "a"\nclaim = { name = "attention:nothing" }', "unknown claim 'attention:nothing'"),
    ],
)
def test_a_broken_step_is_named_with_its_lesson_and_step(tmp_path, step, problem):
    lesson = read_lesson(_lesson_file(tmp_path, f"[[step]]\n{step}\n"))
    found = validate({lesson.id: lesson}, PAGES)
    assert any(problem in p and p.startswith("lesson tour_x, step 1 (a)") for p in found), found


def test_a_file_that_is_not_a_lesson_is_refused(tmp_path):
    with pytest.raises(LessonError, match="params are link values"):
        read_lesson(_lesson_file(tmp_path, '[[step]]\nid = "a"\nparams = { att_dim = 3 }\n'))
    with pytest.raises(LessonError, match="1 to"):
        read_lesson(_lesson_file(tmp_path, ""))


def test_a_missing_translation_is_named(tmp_path):
    lesson = read_lesson(_lesson_file(tmp_path, '[[step]]\nid = "nowhere_text"\n'))
    missing = missing_texts({lesson.id: lesson})
    assert "lesson tour_x, step 1 (nowhere_text): no ko text lesson_tour_x.nowhere_text.text" in missing


def test_a_link_state_reads_fields_as_the_page_does():
    fields = PAGES["attention"]
    by = {f.key: f for f in fields}
    state = LinkState(fields, {"att_steps": "0,0,1;1,0,0", "att_pad": "s1,s2"}, "en")
    assert state.value(by["att_steps"]) == [["0", "0", "1"], ["1", "0", "0"]]
    assert state.value(by["att_pad"]) == ["s1", "s2"]
    assert state.value(by["att_dim"]) == 2  # left out: the default
    with pytest.raises(ValueError):
        decode_table("1,2;3")  # ragged


def test_same_state_counts_a_written_default_as_left_out():
    fields = PAGES["attention"]
    assert same_state(fields, {}, {"att_step": "1", "att_steps": "0.2,0.3,0.5;0.6,0.3,0.1"}, "en")
    assert not same_state(fields, {}, {"att_step": "2"}, "en")
    assert not same_state(fields, {"attention_tabs": "check"}, {}, "en")


def test_every_claim_is_registered_under_its_pages_namespace():
    assert registered(), "no claim registered"
    assert all(name.split(":", 1)[0] in PAGES for name in registered())


def test_same_state_of_a_page_with_family_tables():
    """The RNN's weight tables are a family (one table per shape) with no default of their own: a step that sets a
    member compares by that member's text."""
    fields = PAGES["rnn"]
    assert same_state(fields, {"rnn_w_h_4x4": "0,0;0,0"}, {"rnn_w_h_4x4": "0,0;0,0"}, "en")
    assert not same_state(fields, {"rnn_w_h_4x4": "0,0;0,0"}, {}, "en")
    assert same_state(fields, {}, {}, "en")


def test_the_course_and_the_tours_cover_every_page():
    """The course: every content page's part, in the study note's order, 25-40 steps; a tour of 3-6 steps per
    page, each with at least one question; every course part opens with a step on its own page."""
    content = [ns for ns in PAGES if ns != "home"]  # Home has a tour of the path, not a part of the course
    course = LESSONS["course"]
    assert 25 <= len(course.steps) <= 40, len(course.steps)
    order = [s.texts.removeprefix("lesson_course_") for s in course.steps]
    assert sorted(set(order), key=order.index) == [p.ns for p in REGISTRY if p.ns in content]  # the navigation's order
    assert all(s.page == ns for s, ns in zip(course.steps, order, strict=True))
    tours = {x.page: x for x in LESSONS.values() if x.kind == "tour"}
    assert sorted(tours) == sorted([*content, "home"])  # a tour per page: the 12 pages and Home
    for page, tour in tours.items():
        assert 3 <= len(tour.steps) <= 6, (page, len(tour.steps))
        assert any(s.question is not None for s in tour.steps), page
        assert all(s.claim is not None for s in tour.steps), page
