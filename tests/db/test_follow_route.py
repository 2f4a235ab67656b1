"""The follow route (s2s_ui/classroom/route.py, served by server.py) on SQLite and PostgreSQL: a class's version
as JSON, moved by the teacher's every action; a bad, unknown, expired or unreachable class refused with its own
status and nothing else; never cached. The browser test (tests/browser/test_classroom_browser.py) follows with it."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import pytest
import sqlalchemy as sa
from starlette.requests import Request

from s2s_core.classroom import codes
from s2s_core.classroom.limits import Limits
from s2s_db import classes as repo
from s2s_ui.classroom import route, store
from s2s_ui.classroom.route import PATH, follow_routes, follow_version, route_served
from tests.waiting import until


def request(code: str, query: str = "") -> Request:
    """GET /_class/<code>?<query> as Starlette hands it to the route (its path parameter parsed)."""
    scope = {"type": "http", "method": "GET", "path": f"/_class/{code}", "path_params": {"code": code},
             "headers": [], "query_string": query.encode("latin-1")}  # fmt: skip
    return Request(scope)


async def answer(code: str, query: str = "") -> tuple[int, dict]:
    response = await follow_version(request(code, query))
    assert response.headers["cache-control"] == "no-store"
    return response.status_code, json.loads(response.body)


def get(code: str, query: str = "") -> tuple[int, dict]:
    return asyncio.run(answer(code, query))


@pytest.fixture
def served(db_url, monkeypatch):
    """The route's database is the app's (S2S_DATABASE_URL): this test's migrated database."""
    monkeypatch.setenv("S2S_DATABASE_URL", db_url)
    return store.database()  # cached per URL, as in the app


def test_the_route_is_what_server_py_serves():
    (route,) = follow_routes()
    assert route.path == PATH == "/_class/{code}" and route.methods >= {"GET"} and "POST" not in route.methods
    assert route_served()


def test_the_version_follows_every_teacher_action(served):
    opened = repo.open_class(served, "tour_ngram", 5, time.time(), Limits())
    seen = [get(opened.code)]
    repo.move(served, opened.code, opened.secret, 2, time.time())
    seen.append(get(opened.code.lower()))  # the code as typed: the same class
    token = repo.join(served, opened.code, time.time(), Limits())
    assert repo.answer(served, opened.code, token, "a", ("a", "b"), time.time()) == "a"
    seen.append(get(opened.code))  # a join and an answer are not a change of the class: no one reruns for them
    repo.reveal(served, opened.code, opened.secret, time.time())
    seen.append(get(opened.code))
    repo.lock(served, opened.code, opened.secret, True, time.time())
    seen.append(get(opened.code))
    repo.end(served, opened.code, opened.secret, time.time())
    seen.append(get(opened.code))  # an ended class still answers: its followers' full run says it ended
    assert [status for status, _ in seen] == [200] * 6
    versions = [body["version"] for _, body in seen]
    assert versions == [1, 2, 2, 3, 4, 5] and all(set(body) == {"version"} for _, body in seen)


@pytest.mark.parametrize(
    "code", ["", "x", "ABCD-EFGH-IJKL", "<script>", "' OR 1=1 --", "0" * 10_000, "../../etc", "\x00" * 8]
)
def test_a_bad_code_is_a_404_that_says_nothing_more(served, code):
    status, body = get(code)
    assert (status, body) == (404, {"error": "bad_code"})


def test_an_unknown_or_expired_class_is_refused(served):
    assert get("ZZZZZZZZ") == (404, {"error": repo.UNKNOWN})
    assert get("\u202e\u200bZZZZ-ZZZZ") == (404, {"error": repo.UNKNOWN})  # the code's own reading drops these
    opened = repo.open_class(served, "tour_ngram", 5, time.time() - 7 * 3600, Limits())  # opened 7 h ago: expired
    assert get(opened.code) == (410, {"error": repo.EXPIRED})


def test_an_unreachable_database_is_a_503(monkeypatch):
    monkeypatch.setenv("S2S_DATABASE_URL", "postgresql://nobody:x@127.0.0.1:9/none")
    assert get("ZZZZZZZZ") == (503, {"error": "classroom.ui.db_down"})


def test_a_database_that_stops_answering_mid_class_is_a_503_and_answers_again(served, monkeypatch, caplog):
    """The engine was reached (the class opened), then the database goes away: the read fails inside the
    repository, and the route says 503 as for a database never reached; once it is back, the version again."""
    opened = repo.open_class(served, "course", 31, time.time(), Limits())
    real = repo.follow

    def gone(*args, **kwargs):
        raise sa.exc.OperationalError("SELECT", {}, Exception("server closed the connection unexpectedly"))

    monkeypatch.setattr(repo, "follow", gone)
    assert get(opened.code) == (503, {"error": "classroom.ui.db_down"})
    assert "server closed the connection" in caplog.text  # named in the server's log, not on the page
    monkeypatch.setattr(repo, "follow", real)
    assert get(opened.code)[0] == 200


# --- the long poll: a request naming the version its page shows is held until the class moves --------------------


def counting(monkeypatch) -> dict:
    """repo.follow counted (every read of a class's version, the requests' own and the watches')."""
    reads = {"n": 0}
    lock = threading.Lock()
    real = repo.follow

    def counted(*args, **kwargs):
        with lock:
            reads["n"] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(repo, "follow", counted)
    return reads


def held(code: str, n: int = 1):
    """The condition: n requests are held on the class `code` in this process's watch."""
    return lambda: (watch := route._watches.get(codes.parse_code(code))) is not None and watch.waiting == n


def test_a_request_for_the_version_shown_is_held_until_the_teacher_moves(served, monkeypatch):
    opened = repo.open_class(served, "tour_ngram", 5, time.time(), Limits())
    reads = counting(monkeypatch)

    async def scenario():
        request = asyncio.ensure_future(answer(opened.code, "v=1"))
        await until(held(opened.code), what="the request held")
        await until(lambda: reads["n"] >= 3, what="the watch reading the class twice")  # its own read + 2 ticks
        assert not request.done(), "the class did not move, yet the held request was answered"
        await asyncio.to_thread(repo.move, served, opened.code, opened.secret, 2, time.time())
        return await asyncio.wait_for(request, route.HOLD_S / 2)  # answered by the move, long before the hold ends

    assert asyncio.run(scenario()) == (200, {"version": 2})
    assert route._watches == {}, "a watch outlived its last waiting request"


def test_a_page_behind_the_class_or_without_a_version_is_answered_at_once(served, monkeypatch):
    opened = repo.open_class(served, "tour_ngram", 5, time.time(), Limits())
    repo.move(served, opened.code, opened.secret, 2, time.time())
    monkeypatch.setattr(route, "HOLD_S", 60.0)  # a held request would outlast the test's patience below

    async def at_once(query):
        return await asyncio.wait_for(answer(opened.code, query), 5.0)

    for query in ["v=1", "", "v=", "v=abc", "v=-2", "v=2.0", "v=%D9%A2", "v=" + "9" * 40, "v=2%00", "w=2"]:
        assert asyncio.run(at_once(query)) == (200, {"version": 2}), query


def test_an_unchanged_class_answers_its_version_when_the_hold_ends(served, monkeypatch):
    opened = repo.open_class(served, "tour_ngram", 5, time.time(), Limits())
    monkeypatch.setattr(route, "HOLD_S", 4 * route.WATCH_S)
    assert get(opened.code, "v=1") == (200, {"version": 1})  # the page asks again: at most once a second


def test_thirty_waiting_students_cost_one_read_per_watch_tick(served, monkeypatch):
    """However many students wait on a class, this process reads its version once per WATCH_S (plus each
    request's own first read), and every one of them hears of the move."""
    opened = repo.open_class(served, "course", 31, time.time(), Limits())
    reads = counting(monkeypatch)

    async def scenario():
        requests = [asyncio.ensure_future(answer(opened.code, "v=1")) for _ in range(30)]
        await until(held(opened.code, 30), what="thirty requests held")
        first, began = reads["n"], time.monotonic()
        await until(lambda: reads["n"] >= first + 5, what="five more reads of the class")
        spent = time.monotonic() - began  # five reads, one per tick: at least four ticks apart
        one_watch = len(route._watches) == 1
        await asyncio.to_thread(repo.move, served, opened.code, opened.secret, 2, time.time())
        answers = await asyncio.wait_for(asyncio.gather(*requests), route.HOLD_S / 2)
        return spent, one_watch, answers

    spent, one_watch, answers = asyncio.run(scenario())
    # One read per student per tick would have made five reads at once; the class's one watch made them a tick apart.
    assert one_watch and spent >= 0.9 * 4 * route.WATCH_S, spent
    assert answers == [(200, {"version": 2})] * 30


def test_a_class_that_ends_or_expires_while_held_answers_its_refusal(served, monkeypatch):
    opened = repo.open_class(served, "tour_ngram", 5, time.time(), Limits())

    async def ended():
        request = asyncio.ensure_future(answer(opened.code, "v=1"))
        await until(held(opened.code), what="the request held")
        await asyncio.to_thread(repo.end, served, opened.code, opened.secret, time.time())
        return await asyncio.wait_for(request, route.HOLD_S / 2)

    assert asyncio.run(ended()) == (200, {"version": 2})  # an ended class is a new version: the full run says so

    later = repo.open_class(served, "tour_ngram", 5, time.time(), Limits())
    real = repo.follow

    async def expired():
        request = asyncio.ensure_future(answer(later.code, "v=1"))
        await until(held(later.code), what="the request held")
        monkeypatch.setattr(repo, "follow", lambda engine, code, now: real(engine, code, now + 7 * 3600))
        return await asyncio.wait_for(request, route.HOLD_S / 2)

    assert asyncio.run(expired()) == (410, {"error": repo.EXPIRED})
