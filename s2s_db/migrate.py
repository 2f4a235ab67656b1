"""The schema's versions: Alembic, run from code with a Config made here (no alembic.ini at run time).

The scripts live in the package (s2s_db/migrations/versions/); `upgrade(engine)` brings a database to the newest
one. Two server processes starting at once (or a server and `python -m s2s_db.migrate`) must not both create the
tables: the whole upgrade runs in one transaction that first takes a lock the other waits for, then reads the
database's version. On PostgreSQL that is a transaction-scoped advisory lock (DDL is transactional there, so a
failed upgrade leaves nothing behind); on SQLite it is the file's write lock, taken by BEGIN IMMEDIATE
(s2s_db/engine.py) and held until the commit, the DDL inside the same transaction.

A new migration: `.venv/bin/alembic -c <an ini naming script_location = s2s_db/migrations> revision -m "..."`,
or copy the last one; `tests/db/test_schema.py` checks that head creates exactly `s2s_db.tables.metadata`.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from s2s_db.engine import engine as shared_engine

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
LOCK_KEY = 0x5332_5327  # pg_advisory_xact_lock's key for "s2s_db.migrate" (any constant no other code uses)
_ready: set[str] = set()  # URLs this process has migrated (ready())
_ready_lock = threading.Lock()


def config(connection: sa.Connection | None = None) -> Config:
    """Alembic's Config for the package's scripts; env.py migrates `connection` (it opens none of its own)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("path_separator", "os")
    cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The newest migration's revision id."""
    heads = ScriptDirectory.from_config(config()).get_heads()
    if len(heads) != 1:
        raise RuntimeError(f"s2s_db/migrations/versions/ must end in exactly one head, not {sorted(heads)}")
    return heads[0]


def current(eng: sa.Engine) -> str | None:
    """The revision the database is at (None: never migrated)."""
    with eng.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(eng: sa.Engine) -> None:
    """Migrate the database to head, once even when several processes call this at the same moment."""
    with eng.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(sa.select(sa.func.pg_advisory_xact_lock(LOCK_KEY)))
        command.upgrade(config(conn), "head")


def ready(url: str | None = None) -> sa.Engine:
    """The process's engine for url (default: $S2S_DATABASE_URL or the SQLite file), migrated to head the first
    time this process asks (the classroom and the model store share it). A failure is not remembered: the next
    call tries again (a database that was restarting answers later); SQLAlchemy's errors pass through."""
    eng = shared_engine(url)
    key = eng.url.render_as_string(hide_password=False)
    with _ready_lock:
        if key not in _ready:
            upgrade(eng)
            _ready.add(key)
    return eng


def main(argv: list[str]) -> int:
    """`python -m s2s_db.migrate [URL]`: upgrade the database (default: $S2S_DATABASE_URL or the SQLite file)."""
    eng = shared_engine(argv[0] if argv else None)
    upgrade(eng)
    print(f"{eng.url.render_as_string(hide_password=True)}: at {current(eng)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
