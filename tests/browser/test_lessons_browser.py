"""Lessons in real Chromium: every step of every lesson loads without an error, its bar shows the step, its
narration and the page's picture; → and ← (the keyboard) and the buttons move between steps; a returning
learner's link reopens the step; read aloud speaks in the learner's language (the browser's speech, spied on).

`make test` walks the course in both languages and each tour in one (alternating, so both languages are walked);
`make test-all` walks every lesson in both languages."""

from __future__ import annotations

import re

import pytest

from s2s_core.catalog import translate
from s2s_core.lessons import evaluate, load_lessons, page_fields
from tests.browser.harness import charts_drawn, main_text, settle, wait_for_text
from tests.sizes import full

pytestmark = pytest.mark.browser
LESSONS = load_lessons()
PAGES = page_fields()
TOURS = [x for x in LESSONS.values() if x.kind == "tour"]
WALKS = [("course", "en"), ("course", "ko")] + [
    (tour.id, lang) for n, tour in enumerate(TOURS) for lang in (("en", "ko") if full() else (("en", "ko")[n % 2],))
]


def _bare(text: str) -> str:
    """Text without markdown marks, escapes or spaces: the catalog's markdown and the drawn text compare alike."""
    return re.sub(r"[*`_\\\s]", "", text)


def _narration_start(step, lang: str) -> str:
    """The narration's first words as drawn (up to its first quoted number)."""
    values = {}
    if step.claim is not None:
        values = evaluate(step.claim.name, step.claim.kwargs, PAGES[step.page], step.state, lang).values
    return _bare(translate(lang, step.key("text"), **values))[:30]


def _at_step(page, lesson, n: int, lang: str) -> None:
    total = len(lesson.steps)
    # In the lesson bar itself: before the step is drawn, Home's own "continue where you left off" button holds
    # the same words (lesson.continue_at), and a wait on the whole main area can end before the click's rerun.
    heading = translate(lang, "lesson.step_of", n=n, total=total)
    wait_for_text(page, heading, timeout=120_000, within=".st-key-s2s_lesson")
    settle(page)
    step = lesson.steps[n - 1]
    bar = page.locator(".st-key-s2s_lesson")
    assert bar.count() == 1
    text = bar.inner_text()
    assert _narration_start(step, lang) in _bare(text), (step.where(), text[:200])
    assert translate(lang, "lesson.explored")[:20] not in text  # the step's own state
    assert page.url.count(f"lesson_step={n}") == 1 and f"lesson={lesson.id}" in page.url
    if page.locator('[data-testid="stVegaLiteChart"]').count():
        charts_drawn(page)


@pytest.mark.parametrize(("lesson_id", "lang"), WALKS, ids=lambda v: v)
def test_every_step_loads_and_next_moves_on(app_server, new_page, lesson_id, lang):
    lesson = LESSONS[lesson_id]
    page = new_page(locale="ko-KR" if lang == "ko" else "en-US")
    first = lesson.steps[0].page
    page.goto(f"{app_server}/{'' if first == 'home' else first}?lang={lang}&lesson={lesson.id}&lesson_step=1")
    if first == "home":  # Home offers a linked step (where to continue) rather than opening it
        settle(page)
        page.locator(".st-key-course_continue button").click()
    _at_step(page, lesson, 1, lang)
    for n in range(2, len(lesson.steps) + 1):
        if n % 2:  # the keyboard on odd steps, the button on even ones: both ways are walked
            page.evaluate("() => document.activeElement && document.activeElement.blur()")  # out of any field
            page.keyboard.press("ArrowRight")
        else:
            page.locator(".st-key-lesson_next button").click()
        _at_step(page, lesson, n, lang)
    assert page.locator(".st-key-lesson_next button").is_disabled()
    page.keyboard.press("ArrowLeft")
    _at_step(page, lesson, len(lesson.steps) - 1, lang)


def test_a_teachers_link_opens_the_step_and_read_aloud_speaks_korean(app_server, new_page):
    page = new_page(locale="ko-KR")
    page.add_init_script(
        """window.__spoken = [];
        window.speechSynthesis.speak = u => window.__spoken.push({text: u.text, lang: u.lang});"""
    )
    lesson = LESSONS["tour_attention"]
    page.goto(f"{app_server}/?lang=ko&lesson=tour_attention&lesson_step=3")  # Home: offered, not opened
    settle(page)
    assert translate("ko", "lesson.continue_at", lesson="", n=3, total=4, page="")[:8] in main_text(page)
    page.goto(f"{app_server}/attention?lang=ko&lesson=tour_attention&lesson_step=3")
    _at_step(page, lesson, 3, "ko")
    page.locator(".st-key-lesson_speak button").click()
    spoken = page.evaluate("() => window.__spoken")
    assert len(spoken) == 1 and spoken[0]["lang"] == "ko-KR"
    assert _narration_start(lesson.steps[2], "ko")[:20] in _bare(spoken[0]["text"])
    assert "**" not in spoken[0]["text"]
