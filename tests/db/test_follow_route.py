"""The follow route (s2s_ui/classroom/route.py, served by server.py) on SQLite and PostgreSQL: a class's version
as JSON, moved by the teacher's every action; a bad, unknown, expired or unreachable class refused with its own
status and nothing else; never cached. The browser test (tests/browser/test_classroom_browser.py) follows with it."""

from __future__ import annotations

import json
import time

import pytest
import sqlalchemy as sa
from starlette.requests import Request

from s2s_core.classroom.limits import Limits
from s2s_db import classes as repo
from s2s_ui.classroom import store
from s2s_ui.classroom.route import PATH, follow_routes, follow_version, route_served


def get(code: str) -> tuple[int, dict]:
    """GET /_class/<code> as Starlette hands it to the route (its path parameter parsed)."""
    scope = {"type": "http", "method": "GET", "path": f"/_class/{code}", "path_params": {"code": code},
             "headers": [], "query_string": b""}  # fmt: skip
    response = follow_version(Request(scope))
    assert response.headers["cache-control"] == "no-store"
    return response.status_code, json.loads(response.body)


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
