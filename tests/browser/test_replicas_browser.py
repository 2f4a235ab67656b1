"""Two replicas behind nginx share one class (scripts/replicas.py, deploy/nginx.conf): a teacher whose session lives
on replica 1 and a student whose session lives on replica 2, each pinned by nginx's affinity cookie, run three
lesson steps through the proxy. The class is in PostgreSQL, which both replicas open.

nginx is Debian's package (`.ci/run` installs it); without it these tests skip loudly, and with REQUIRE_NGINX=1
(as in `.ci/run`) they fail instead.
"""

from __future__ import annotations

import os
import urllib.request
import warnings

import pytest

from scripts.replicas import nginx_missing_reason, topology
from scripts.serve import free_port
from tests import postgres
from tests.browser.classroom import start_class, step_of, wait_step
from tests.browser.harness import DESKTOP, PHONE, settle

pytestmark = pytest.mark.browser

COOKIE = "s2s_replica"  # deploy/nginx.conf: the affinity cookie nginx sets and hashes


class NginxSkipped(UserWarning):
    """Shown in pytest's warnings summary: the replica tests did not run."""


@pytest.fixture(scope="module")
def replicas():
    reason = nginx_missing_reason()
    if reason is not None:
        if os.environ.get("REQUIRE_NGINX") == "1":
            pytest.fail(f"REQUIRE_NGINX=1 but {reason}")
        warnings.warn(NginxSkipped(f"replica tests skipped: {reason}"), stacklevel=1)
        pytest.skip(reason)
    with postgres.new_database(postgres.postgres_server()) as url:
        env = {**os.environ, "S2S_DATABASE_URL": url, "S2S_TRAIN_WARM": "0"}  # classes only: no default trainings
        ports = [free_port() for _ in range(3)]
        with topology(2, ports[0], env, replica_ports=ports[1:]) as top:
            yield top


def replica_of(top, cookie: str) -> str:
    """Which replica (its address, from nginx's X-S2S-Replica header) a visitor with this affinity cookie reaches."""
    request = urllib.request.Request(f"{top.url}/_stcore/health", headers={"Cookie": f"{COOKIE}={cookie}"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.headers["X-S2S-Replica"]


def pinned_context(browser, top, k: int, **options):
    """A browser context whose affinity cookie sends it to replica k, and the set of replicas that answered it."""
    want = f"127.0.0.1:{top.replica_ports[k]}"
    cookie = next(f"visitor-{i}" for i in range(1000) if replica_of(top, f"visitor-{i}") == want)
    context = browser.new_context(**options)
    context.add_cookies([{"name": COOKIE, "value": cookie, "url": top.url}])
    answered: set[str] = set()
    # every response through nginx names its replica (a websocket's upgrade is not a response Playwright reports)
    context.on("response", lambda r: r.url.startswith(top.url) and answered.add(r.headers.get("x-s2s-replica", "?")))
    return context, answered


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
