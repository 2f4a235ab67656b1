"""The database fixtures: every test that takes `db_url` or `db` runs on SQLite and on PostgreSQL.

- `db_url`: a fresh SQLite file under the test's tmp_path, or this module's own PostgreSQL database (created on
  the server tests/postgres.py names, dropped after the module).
- `db`: a migrated Engine on db_url (s2s_db.migrate.upgrade, as the server runs it), with every table empty at
  the start of the test on both backends (PostgreSQL's module database is emptied between tests).
- `fresh_db_url`: like db_url, but PostgreSQL gets a database for this test alone (a test of the empty state).
Without a PostgreSQL server the postgresql half skips loudly; with REQUIRE_POSTGRES=1 (.ci/run) it fails.
"""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from s2s_db.engine import make_engine
from s2s_db.migrate import upgrade
from tests import postgres
from tests.postgres import postgres_server

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(scope="module")
def module_postgres_url():
    with postgres.new_database(postgres_server()) as url:
        yield url


@pytest.fixture(params=BACKENDS)
def db_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'classroom.sqlite3'}"
    return request.getfixturevalue("module_postgres_url")


@pytest.fixture(params=BACKENDS)
def fresh_db_url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'classroom.sqlite3'}"
        return
    with postgres.new_database(postgres_server()) as url:
        yield url


@pytest.fixture
def db(db_url):
    engine = make_engine(db_url)
    try:
        upgrade(engine)
        if engine.dialect.name == "postgresql":
            _empty_every_table(engine)
        yield engine
    finally:
        engine.dispose()


def _empty_every_table(engine: sa.Engine) -> None:
    names = [n for n in sa.inspect(engine).get_table_names() if n != "alembic_version"]
    if names:
        quote = engine.dialect.identifier_preparer.quote
        with engine.begin() as conn:
            conn.exec_driver_sql(f"TRUNCATE {', '.join(quote(n) for n in names)} RESTART IDENTITY")
