"""s2s_db.settings and s2s_db.engine: where the database is, how each backend is set up, what a restart keeps;
and tests/postgres.py's rule: no PostgreSQL here skips loudly, REQUIRE_POSTGRES=1 fails."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from s2s_db import engine as engines
from s2s_db.engine import make_engine, read
from s2s_db.migrate import current, head
from s2s_db.settings import DatabaseUrlError, data_dir, database_url
from s2s_jobs import settings as job_settings

ROOT = Path(__file__).resolve().parents[2]


def test_the_url_comes_from_the_environment_and_postgres_gets_psycopg():
    url = "postgresql://u:p%40ss@db.example:5433/classroom?sslmode=require"
    assert database_url({"S2S_DATABASE_URL": url}) == url.replace("postgresql://", "postgresql+psycopg://")
    assert database_url({"S2S_DATABASE_URL": " postgres://u@h/d "}) == "postgresql+psycopg://u@h/d"
    assert database_url({"S2S_DATABASE_URL": "postgresql+psycopg://u@h/d"}) == "postgresql+psycopg://u@h/d"
    assert database_url({"S2S_DATABASE_URL": "sqlite:////srv/s2s/c.sqlite3"}) == "sqlite:////srv/s2s/c.sqlite3"
    assert sa.make_url(database_url({"S2S_DATABASE_URL": url})).password == "p@ss"


def test_without_a_url_the_database_is_a_sqlite_file_in_the_data_folder(tmp_path):
    assert database_url({"S2S_DATA_DIR": str(tmp_path)}) == f"sqlite:///{tmp_path}/classroom.sqlite3"
    assert database_url({"S2S_DATABASE_URL": "  ", "S2S_DATA_DIR": str(tmp_path)}).endswith("/classroom.sqlite3")
    assert database_url({}) == f"sqlite:///{ROOT / 'data' / 'classroom.sqlite3'}"
    assert data_dir({}) == ROOT / "data"
    assert data_dir({"S2S_DATA_DIR": "~/s2s"}) == Path.home() / "s2s"
    assert job_settings.data_dir() == data_dir() == Path(os.environ["S2S_DATA_DIR"])  # the rule lives once


@pytest.mark.parametrize(
    "url",
    [
        "mysql://u:secret@h/d",
        "postgresql+psycopg2://u:secret@h/d",
        "oracle+oracledb://h/d",
        "http://h/d",
        "localhost:5432/classroom",
        "sqlite://",
        "sqlite:///:memory:",
        "postgresql://",
    ],
)
def test_any_other_url_is_refused_naming_the_variable_and_never_the_password(url):
    with pytest.raises(DatabaseUrlError, match="S2S_DATABASE_URL") as refused:
        database_url({"S2S_DATABASE_URL": url})
    assert "secret" not in str(refused.value)


def test_sqlite_makes_its_folder_and_really_turns_its_pragmas_on(tmp_path):
    path = tmp_path / "new" / "folder" / "classroom.sqlite3"
    eng = make_engine(f"sqlite:///{path}")
    try:
        with eng.connect() as conn:
            pragmas = {p: conn.exec_driver_sql(f"PRAGMA {p}").scalar() for p in ("journal_mode", "foreign_keys")}
            pragmas["busy_timeout"] = conn.exec_driver_sql("PRAGMA busy_timeout").scalar()
        assert pragmas == {"journal_mode": "wal", "foreign_keys": 1, "busy_timeout": engines.BUSY_TIMEOUT_MS}
        assert path.is_file()
        with eng.begin() as conn:  # foreign keys are enforced, not only declared
            conn.exec_driver_sql("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
            conn.exec_driver_sql("CREATE TABLE child (parent_id INTEGER REFERENCES parent (id))")
        with pytest.raises(sa.exc.IntegrityError, match="FOREIGN KEY"), eng.begin() as conn:
            conn.exec_driver_sql("INSERT INTO child VALUES (7)")
    finally:
        eng.dispose()


def test_sqlite_writers_take_the_lock_at_begin_and_readers_never_wait(tmp_path, monkeypatch):
    """engine.begin() is BEGIN IMMEDIATE: a second writer waits at its BEGIN, before it reads anything (here, with
    a 50 ms busy timeout, it is refused); a read() transaction meanwhile reads the last committed state."""
    url = f"sqlite:///{tmp_path / 'c.sqlite3'}"
    eng = make_engine(url)
    with eng.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE t (x INTEGER)")
        conn.exec_driver_sql("INSERT INTO t VALUES (1)")
    monkeypatch.setattr(engines, "BUSY_TIMEOUT_MS", 50)  # the second engine's connections, made from here on
    other = make_engine(url)
    try:
        with eng.begin() as writer:
            writer.exec_driver_sql("UPDATE t SET x = 2")
            with pytest.raises(sa.exc.OperationalError, match="locked"), other.begin():
                pass
            with read(other) as reader:
                assert reader.exec_driver_sql("SELECT x FROM t").scalar() == 1
        with read(other) as reader:
            assert reader.exec_driver_sql("SELECT x FROM t").scalar() == 2
    finally:
        eng.dispose()
        other.dispose()


def test_postgresql_engines_ping_pool_small_and_time_out():
    eng = make_engine("postgresql+psycopg://u:p@127.0.0.1:1/d")
    try:
        assert eng.dialect.driver == "psycopg"
        assert eng.pool._pre_ping
        assert eng.pool.size() == engines.POOL_SIZE
        with pytest.raises(sa.exc.OperationalError):  # nothing listens on port 1: refused well within the timeout
            eng.connect()
    finally:
        eng.dispose()


def test_one_engine_per_url_per_process(tmp_path, monkeypatch):
    monkeypatch.setenv("S2S_DATABASE_URL", f"sqlite:///{tmp_path / 'a.sqlite3'}")
    first = engines.engine()
    try:
        assert engines.engine() is first
        assert engines.engine(database_url()) is first
        assert engines.engine(f"sqlite:///{tmp_path / 'b.sqlite3'}") is not first
    finally:
        for url in [u for u in engines._engines if str(tmp_path) in u]:
            engines._engines.pop(url).dispose()


def test_a_new_engine_on_the_same_url_sees_what_the_first_wrote(db, db_url):
    """A restarted server (a new engine, a new pool) finds the schema's version and the rows the last one wrote."""
    with db.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE restart_probe (x INTEGER)")
        conn.exec_driver_sql("INSERT INTO restart_probe VALUES (42)")
    db.dispose()
    restarted = make_engine(db_url)
    try:
        assert current(restarted) == head()
        with read(restarted) as conn:
            assert conn.exec_driver_sql("SELECT x FROM restart_probe").scalar() == 42
    finally:
        with restarted.begin() as conn:
            conn.exec_driver_sql("DROP TABLE restart_probe")
        restarted.dispose()


def _pytest_on_unreachable_postgres(require: str) -> subprocess.Popen:
    """One PostgreSQL test in a pytest of its own (tests/db's conftest only: no torch, no browser), pointed at a
    port nothing listens on."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "S2S_TEST_POSTGRES", "REQUIRE_P"))}
    env |= {"S2S_TEST_POSTGRES_URL": "postgresql://nobody:pw@127.0.0.1:1/none", "REQUIRE_POSTGRES": require}
    test = "tests/db/test_migrate.py::test_upgrade_from_empty_to_head_and_again[postgresql]"
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"]
    command += ["--confcutdir", "tests/db", test]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def test_without_postgres_its_tests_skip_loudly_and_require_postgres_fails_them():
    runs = [_pytest_on_unreachable_postgres(require) for require in ("0", "1")]  # side by side: ~2 s, not ~4
    (skipped, _), (failed, _) = [run.communicate(timeout=120) for run in runs]
    assert runs[0].returncode == 0, skipped
    assert "1 skipped" in skipped
    assert "POSTGRESQL TESTS SKIPPED: PostgreSQL at postgresql+psycopg://nobody:***@127.0.0.1:1/none" in skipped
    assert "warnings summary" in skipped  # the reason is in the summary, not only behind -rs
    assert runs[1].returncode == 1, failed
    assert "PostgreSQL is required here (REQUIRE_POSTGRES=1)" in failed
    assert "1 error" in failed and "skipped" not in failed
    assert "pw@" not in skipped + failed  # the password is never printed
