"""A class in real Chromium, on SQLite and on PostgreSQL: a teacher starts a class on Home, students open the
student link on phones (Korean and English), follow the teacher's Next within seconds by the page's own
once-a-second poll, answer the step's question (the teacher's count follows), see the reveal at once, one leaves
to explore and rejoins at the teacher's step, the lock holds everyone, and the end reaches every student.

`make test`: 3 students; `make test-all` (--full): 30, as in the issue's class. The follow latencies (the
teacher's Next → each student's page at the new step) are printed; the 2-second budget under load is measured
by the benchmark (docs/PERFORMANCE.md), not asserted by a timed test here (a generous ceiling catches a broken
poll)."""

from __future__ import annotations

import itertools
import os
import statistics
import time

import pytest

from s2s_core.catalog import translate
from s2s_core.lessons import load_lessons
from s2s_ui.classroom.panel import POLL_S
from s2s_ui.classroom.route import HOLD_S
from scripts.serve import ROOT, free_port, start, stop, wait_healthy
from tests import postgres
from tests.browser.classroom import FOLLOW_CEILING_S, start_class, step_of, wait_step, wait_text
from tests.browser.harness import DESKTOP, PHONE, settle, wait_idle
from tests.sizes import pick

pytestmark = pytest.mark.browser
LESSON = "tour_ngram"
QUESTION_STEP = 3
STUDENTS = pick(3, 30)
EVERY_MS = POLL_S * 1000  # a page's follow requests begin at least this far apart


@pytest.fixture(params=["sqlite", "postgresql"])
def class_server(request, app_server, browser):
    """The shared server (SQLite in the run's data folder), or a server of its own on a new PostgreSQL database."""
    if request.param == "sqlite":
        yield app_server
        return
    with postgres.new_database(postgres.postgres_server()) as url:
        port = free_port()
        proc = start(port, env={**os.environ, "S2S_DATABASE_URL": url})
        try:
            wait_healthy(proc, port, timeout=120)
            warm = browser.new_page()
            warm.goto(f"http://127.0.0.1:{port}/?lang=en")
            wait_idle(warm, timeout=180_000)
            warm.close()
            yield f"http://127.0.0.1:{port}"
        finally:
            stop(proc)


def _teacher_next(teacher, n: int, students) -> list[float]:
    """Next in the teacher's lesson bar; seconds from the teacher's page at step n to each student's."""
    teacher.locator(".st-key-lesson_next button").click()
    wait_step(teacher, n)
    moved = time.monotonic()
    waits = []
    for page in students:
        wait_step(page, n)
        waits.append(time.monotonic() - moved)
    return waits


TRAFFIC = """(() => {
  window.__s2s = { polls: [], sent: 0 };
  new PerformanceObserver(list => {
    for (const e of list.getEntries()) {
      if (e.name.includes('/_class/')) window.__s2s.polls.push([e.responseStatus, e.duration, e.startTime]);
    }
  }).observe({ type: 'resource', buffered: true });
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (...args) { window.__s2s.sent++; return send.apply(this, args); };
})();"""


def _watch_traffic(page) -> None:
    """Count, in the page, its follow polls (with their statuses) and its websocket messages (a script run is asked
    for by one)."""
    page.add_init_script(TRAFFIC)


def _traffic(page) -> dict:
    return page.evaluate("() => ({ polls: [...window.__s2s.polls], sent: window.__s2s.sent })")


def test_a_teacher_and_the_class_run_a_lesson(class_server, new_page):
    teacher = new_page(DESKTOP)
    code = start_class(teacher, class_server, LESSON)
    langs = [("en", "ko")[i % 2] for i in range(STUDENTS)]
    students = [new_page(PHONE, locale="ko-KR" if lang == "ko" else "en-US") for lang in langs]
    _watch_traffic(students[0])
    for page, lang in zip(students, langs, strict=True):
        page.goto(f"{class_server}/?class={code}&lang={lang}")
    for page in students:
        page.wait_for_function("() => location.search.includes('seat=')", timeout=120_000)
        wait_step(page, 1, timeout_s=120)
    shown = f"{code[:4]}-{code[4:]}"
    wait_text(teacher, f"joined: {STUDENTS}")

    # 0) A seated student's idle page only keeps the follow route's request open (held while the class does not
    # move, s2s_ui/classroom/route.py): no script run, nothing redrawn, and not a request a second.
    settle(students[0])
    before = _traffic(students[0])
    students[0].wait_for_function(
        "n => window.__s2s.polls.length >= n", arg=len(before["polls"]) + 1, timeout=int(2 * HOLD_S * 1000)
    )
    after = _traffic(students[0])
    new_polls = after["polls"][len(before["polls"]) :]
    assert all(status == 200 for status, _held, _began in new_polls)
    held_ms = [duration for _, duration, _began in new_polls]
    assert min(held_ms) >= HOLD_S * 1000 / 2, f"the idle page's requests were answered at once, not held: {held_ms}"
    assert after["sent"] == before["sent"], "an idle student's page asked the server for a run"

    # 1) Next, twice: every student's page opens the teacher's step by itself.
    waits = _teacher_next(teacher, 2, students) + _teacher_next(teacher, QUESTION_STEP, students)
    print(f"\nfollow after Next ({STUDENTS} students): median {statistics.median(waits):.2f} s, max {max(waits):.2f} s")
    # However quickly the teacher moves, a page asks the follow route at most once a second (each redraw mounts its
    # poller anew, and a new mount asks at once only when the page's last request is a second old).
    began = sorted(began for _, _, began in _traffic(students[0])["polls"])
    gaps = [round(b - a) for a, b in itertools.pairwise(began)]
    assert len(began) >= 3 and min(gaps) >= EVERY_MS - 5, f"follow requests closer than a second apart: {gaps} ms"

    # 2) The question: each student picks an option; the teacher's count follows; the reveal reaches everyone.
    step = load_lessons()[LESSON].steps[QUESTION_STEP - 1]
    for page, lang in zip(students, langs, strict=True):
        settle(page)
        option = translate(lang, step.key(f"option_{step.question.options[0]}"))
        page.locator(".st-key-s2s_class").get_by_text(option, exact=True).click()
    wait_text(teacher, translate("en", "classroom.ui.answered", n=STUDENTS, students=STUDENTS).replace("*", ""))
    teacher.locator(".st-key-class_reveal button").click()
    for page, lang in zip(students, langs, strict=True):
        graded = (translate(lang, "ui.quiz_right", answer="")[:3], translate(lang, "ui.quiz_wrong", answer="x")[:3])
        page.wait_for_function(
            """marks => { const box = document.querySelector('.st-key-s2s_class');
                          return box && marks.some(m => box.innerText.includes(m)); }""",
            arg=list(graded),
            timeout=FOLLOW_CEILING_S * 1000,
        )
    wait_text(teacher, translate("en", "classroom.ui.live_result", correct="").replace("*", "")[:20])

    # 3) One student leaves to explore: the teacher moves on without them; they come back to the teacher's step.
    explorer, others = students[0], students[1:]
    explorer.locator(".st-key-class_explore button").click()
    wait_text(explorer, translate(langs[0], "classroom.ui.rejoin"))
    _teacher_next(teacher, 4, others)
    assert step_of(explorer) == QUESTION_STEP
    # The explorer's box hears of the move (its poll asks for a full run) and says where the teacher is now; a
    # click that lands while that run redraws the box can be lost (under load it was: twice), so wait for it.
    lead = translate(
        langs[0], "classroom.ui.student_exploring", code=shown, n=4, total=len(load_lessons()[LESSON].steps)
    )
    wait_text(explorer, lead.replace("*", ""))
    settle(explorer)
    explorer.locator(".st-key-class_rejoin button").click()
    wait_step(explorer, 4)

    # 4) The lock: nobody can leave to explore.
    teacher.get_by_text(translate("en", "classroom.ui.lock")).click()
    for page, lang in zip(students, langs, strict=True):
        wait_text(page, translate(lang, "classroom.ui.locked_note"))
        # Streamlit keeps the last run's elements (marked stale) until the run that replaces them has drawn: the
        # note can be there a moment before the Explore button is gone.
        page.locator(".st-key-class_explore").wait_for(state="detached", timeout=FOLLOW_CEILING_S * 1000)

    # 5) The end reaches every student.
    teacher.get_by_role("button", name=translate("en", "classroom.ui.end")).click()
    teacher.locator(".st-key-class_end button").click()
    for page, lang in zip(students, langs, strict=True):
        wait_text(page, translate(lang, "classroom.ui.ended", code=shown))


def test_a_host_that_runs_only_app_py_follows_by_the_fragment_poll(browser, new_page):
    """`streamlit run app.py` (a host that runs only the script) has no follow route: a student follows by the
    fragment poll, a script run a second, and the page never asks /_class/<code> (it would get the app's HTML)."""
    port = free_port()
    proc = start(port, ROOT / "app.py")
    try:
        wait_healthy(proc, port, timeout=120)
        base = f"http://127.0.0.1:{port}"
        teacher = new_page(DESKTOP)
        code = start_class(teacher, base, LESSON)
        student = new_page(PHONE)
        _watch_traffic(student)
        student.goto(f"{base}/?class={code}&lang=en")
        student.wait_for_function("() => location.search.includes('seat=')", timeout=120_000)
        wait_step(student, 1, timeout_s=120)
        settle(student)
        sent = _traffic(student)["sent"]
        student.wait_for_function("n => window.__s2s.sent >= n", arg=sent + 2, timeout=10_000)  # the fragment's runs
        waits = _teacher_next(teacher, 2, [student])
        assert _traffic(student)["polls"] == [], "the page asked a route this server does not serve"
        print(f"\nfollow by the fragment poll: {waits[0]:.2f} s")
    finally:
        stop(proc)
