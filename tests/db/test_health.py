"""The replica's health route (s2s_ui/health.py, s2s_jobs/health.py), on SQLite and PostgreSQL: 200 only when the
database answers and the training pool is up or idle; 503 naming what is down; the pool's forkserver killed is
down until a new one is started (the check itself starts it); never cached. Through nginx and with a PostgreSQL
server stopped mid-class: tests/browser/test_replicas_browser.py."""

from __future__ import annotations

import json
import os
import signal

import pytest
from starlette.requests import Request

from s2s_jobs import health, jobs, pool
from s2s_jobs.process import ProcessRunner
from s2s_ui.health import PATH, health_check
from tests.training_backend import inprocess_training  # noqa: F401 (an autouse fixture: the runner is in-process)
from tests.waiting import wait_until


def get() -> tuple[int, dict]:
    scope = {"type": "http", "method": "GET", "path": PATH, "headers": [], "query_string": b""}
    response = health_check(Request(scope))
    assert response.headers["cache-control"] == "no-store"
    return response.status_code, json.loads(response.body)


@pytest.fixture
def fresh_runner(monkeypatch):
    monkeypatch.setattr(jobs, "_RUNNER", None)
    yield
    if jobs._RUNNER is not None:
        jobs._RUNNER.shutdown()
    monkeypatch.setattr(jobs, "_RUNNER", None)


def test_a_reachable_database_and_pool_are_healthy(db_url, monkeypatch, fresh_runner):
    monkeypatch.setenv("S2S_DATABASE_URL", db_url)
    status, body = get()
    assert status == 200 and body["healthy"] and body["database"] == "ok" and body["pool"] == "ok"
    assert (body["queued"], body["running"]) == (0, 0) and body["slots"] >= 1


def test_a_database_that_does_not_answer_is_a_503_naming_it(monkeypatch, fresh_runner):
    monkeypatch.setenv("S2S_DATABASE_URL", "postgresql://nobody:x@127.0.0.1:9/none")
    status, body = get()
    assert status == 503 and not body["healthy"]
    assert body["database"] == "down: OperationalError" and body["pool"] == "ok"


def test_the_pool_is_idle_up_or_down_and_a_check_brings_a_dead_one_back(db_url, monkeypatch, fresh_runner):
    monkeypatch.setenv("S2S_DATABASE_URL", db_url)
    runner = ProcessRunner(max_running=1, pool_idle=0.0)
    monkeypatch.setattr(jobs, "_RUNNER", runner)
    with pool.LOCK:
        pool.stop_pool()
    assert health.check().pool == health.IDLE and health.check().healthy  # stopped while idle: starts on demand
    pool.ensure_running()
    assert health.check().pool == health.OK
    os.kill(pool.forkserver._forkserver._forkserver_pid, signal.SIGKILL)  # killed, not yet reaped
    wait_until(lambda: pool.pool_alive() is False, 30, "the forkserver seen dead")
    status, body = get()
    assert status == 503 and body["pool"] == "down"
    wait_until(lambda: health.check().pool == health.OK, 120, "a new forkserver, started by the check")
    with pool.LOCK:
        pool.stop_pool()
