"""Two replicas behind nginx share one class (scripts/replicas.py, deploy/nginx.conf): a teacher whose session lives
on replica 1 and a student whose session lives on replica 2, each pinned by nginx's affinity cookie, run three
lesson steps through the proxy. The class is in PostgreSQL, which both replicas open; restarted mid-class (a server
of the test's own), each replica's /_s2s/health says 503 (database down) until it is back, and the class resumes
with every answer.

nginx is Debian's package: without it these tests skip loudly, or fail with REQUIRE_NGINX=1 (tests/browser/replicas.py).
"""

from __future__ import annotations

import os
import urllib.request

import pytest

from s2s_core.catalog import translate
from s2s_core.lessons import load_lessons
from scripts.replicas import topology
from scripts.serve import free_port
from tests import postgres
from tests.browser.classroom import start_class, step_of, wait_step, wait_text
from tests.browser.harness import DESKTOP, PHONE, settle
from tests.browser.replicas import COOKIE, health_of, pinned_context, replica_of, require_nginx
from tests.browser.test_classroom_browser import LESSON, QUESTION_STEP

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def replicas():
    require_nginx()
    with postgres.new_database(postgres.postgres_server()) as url:
        env = {**os.environ, "S2S_DATABASE_URL": url, "S2S_TRAIN_WARM": "0"}  # classes only: no default trainings
        ports = [free_port() for _ in range(3)]
        with topology(2, ports[0], env, replica_ports=ports[1:]) as top:
            yield top


def test_nginx_sets_the_affinity_cookie_and_keeps_a_visitor_on_one_replica(replicas):
    with urllib.request.urlopen(f"{replicas.url}/_stcore/health", timeout=10) as answer:
        cookie = next(c for c in answer.headers.get_all("Set-Cookie") if c.startswith(f"{COOKIE}="))
    assert "HttpOnly" in cookie
    value = cookie.split(";")[0].split("=", 1)[1]
    assert len({replica_of(replicas, value) for _ in range(5)}) == 1
    seen = {replica_of(replicas, f"visitor-{i}") for i in range(40)}
    assert seen == {f"127.0.0.1:{p}" for p in replicas.replica_ports}  # both replicas take visitors


def test_a_teacher_on_replica_1_leads_a_student_on_replica_2(replicas, browser):
    teacher_context, teacher_answers = pinned_context(browser, replicas, 0, viewport=DESKTOP, locale="en-US")
    student_context, student_answers = pinned_context(
        browser, replicas, 1, viewport=PHONE, is_mobile=True, has_touch=True, locale="ko-KR"
    )
    try:
        teacher = teacher_context.new_page()
        teacher.set_default_timeout(180_000)
        code = start_class(teacher, replicas.url, "course")
        student = student_context.new_page()
        student.set_default_timeout(180_000)
        student.goto(f"{replicas.url}/?class={code}&lang=ko")
        student.wait_for_function("() => location.search.includes('seat=')")
        settle(student)
        assert step_of(student) == 1
        for n in (2, 3, 4):  # three lesson steps, across the n-gram page and the RNN's
            teacher.locator(".st-key-lesson_next button").click()
            wait_step(teacher, n)
            wait_step(student, n)  # through replica 2's follow route, reading the class replica 1 moved
            settle(student)
        assert teacher_answers == {f"127.0.0.1:{replicas.replica_ports[0]}"}
        assert student_answers == {f"127.0.0.1:{replicas.replica_ports[1]}"}
    finally:
        teacher_context.close()
        student_context.close()


def test_the_database_restarted_mid_class_resumes_the_class_and_keeps_every_answer(browser):
    """A class on two replicas, on a PostgreSQL server of this test's own: at the question, one student answers;
    the server stops (the students' pages say the class is out of reach) and starts again; the other student
    answers; the teacher's count has both, the reveal reaches both, and Next moves everyone on."""
    require_nginx()
    with postgres.private_server(free_port()) as server:
        env = {**os.environ, "S2S_DATABASE_URL": server.url, "S2S_TRAIN_WARM": "0"}
        ports = [free_port() for _ in range(3)]
        with topology(2, ports[0], env, replica_ports=ports[1:]) as top:
            contexts = [pinned_context(browser, top, k, viewport=DESKTOP, locale="en-US")[0] for k in (0, 1, 0)]
            try:
                teacher, first, second = (c.new_page() for c in contexts)
                for page in (teacher, first, second):
                    page.set_default_timeout(180_000)
                code = start_class(teacher, top.url, LESSON)
                for student in (first, second):  # one on each replica
                    student.goto(f"{top.url}/?class={code}&lang=en")
                    student.wait_for_function("() => location.search.includes('seat=')")
                    wait_step(student, 1, timeout_s=120)
                for n in range(2, QUESTION_STEP + 1):
                    teacher.locator(".st-key-lesson_next button").click()
                    for page in (teacher, first, second):
                        wait_step(page, n, timeout_s=60)
                _answer(first)
                wait_text(teacher, _answered(1))
                assert [health_of(top, k)[0] for k in (0, 1)] == [200, 200]
                # The database goes away: a student's page says so, in the learner's words, instead of a traceback.
                server.stop()
                wait_text(first, translate("en", "classroom.ui.db_down")[:40], timeout_s=60)
                wait_text(second, translate("en", "classroom.ui.db_down")[:40], timeout_s=60)  # the other replica too
                for k in (0, 1):  # each replica says it is unfit, and why: a balancer's check would take it out
                    status, body = health_of(top, k)
                    assert status == 503 and body["database"].startswith("down") and body["pool"] != "down", body
                server.start()  # the boxes try again each second: the class's step comes back by itself
                _answer(second)  # after the restart, through the other replica
                wait_text(teacher, _answered(2), timeout_s=60)  # the first answer survived the restart
                assert [health_of(top, k)[0] for k in (0, 1)] == [200, 200]  # fit again
                teacher.locator(".st-key-class_reveal button").click()
                for student in (first, second):
                    student.wait_for_function(  # graded: right or wrong, as the reveal says
                        """marks => { const box = document.querySelector('.st-key-s2s_class');
                                      return box && marks.some(m => box.innerText.includes(m)); }""",
                        arg=[
                            translate("en", "ui.quiz_right", answer="")[:3],
                            translate("en", "ui.quiz_wrong", answer="x")[:3],
                        ],
                        timeout=60_000,
                    )
                teacher.locator(".st-key-lesson_next button").click()
                for page in (teacher, first, second):
                    wait_step(page, QUESTION_STEP + 1, timeout_s=60)
            finally:
                for context in contexts:
                    context.close()


def _answer(student) -> None:
    """Pick the question's first option in the class box."""
    settle(student)
    step = load_lessons()[LESSON].steps[QUESTION_STEP - 1]
    option = translate("en", step.key(f"option_{step.question.options[0]}"))
    student.locator(".st-key-s2s_class").get_by_text(option, exact=True).click()


def _answered(n: int) -> str:
    return translate("en", "classroom.ui.answered", n=n, students=2).replace("*", "")
