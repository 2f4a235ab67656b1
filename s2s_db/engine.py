"""One SQLAlchemy engine per database URL per process, set up for a Streamlit server's threads.

SQLite (the default, a file in the data folder): the folder is made; every connection turns on write-ahead
logging (readers never wait for the writer), foreign keys (off by default in SQLite) and a busy timeout (a writer
waits for another instead of failing at once). SQLite's own driver opens transactions late and never for DDL, so
the driver's transaction handling is off and SQLAlchemy's BEGIN is ours: `engine.begin()` is BEGIN IMMEDIATE,
which takes the write lock at the start, so a transaction that reads and then writes (a cap checked, then a row
added) cannot fail halfway with "database is locked" or see a count another writer has changed. A transaction
that only reads asks for `read(engine)` instead: a deferred BEGIN, one consistent snapshot that never waits for a
writer (the students' once-a-second follow).

PostgreSQL (psycopg 3): a small pool whose connections are pinged before use (a restarted server or a dropped
connection costs one reconnect, not an error on a student's page), and a connect timeout so an unreachable server
fails a request within seconds. Its transactions are READ COMMITTED: a cap checked inside a transaction locks the
row it counts under (`SELECT ... FOR UPDATE` on the class), which SQLite's BEGIN IMMEDIATE already serialises.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import event

from s2s_db.settings import database_url

BUSY_TIMEOUT_MS = 10_000  # how long a SQLite writer waits for another before "database is locked"
CONNECT_TIMEOUT_S = 5  # PostgreSQL: an unreachable server fails a request within this
POOL_SIZE = 4  # PostgreSQL connections kept per process: each query is a few ms, Streamlit runs a thread per session
MAX_OVERFLOW = 8  # extra connections under a burst (a class of 30 joining at once), closed when returned
POOL_TIMEOUT_S = 10  # a request waits this long for a free connection before failing
POOL_RECYCLE_S = 1800  # reconnect after half an hour: proxies and firewalls drop idle connections silently
RETRY_S = 0.01  # SQLite: the pause between two tries to switch a new file to WAL
READ_ONLY = "s2s_read_only"  # the execution option read() sets: SQLite begins a deferred transaction

log = logging.getLogger(__name__)
_engines: dict[str, sa.Engine] = {}
_engines_lock = threading.Lock()


def make_engine(url: str) -> sa.Engine:
    """A new engine for url (a SQLite file or PostgreSQL through psycopg 3; see the module's docstring)."""
    parsed = sa.make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return _sqlite_engine(parsed)
    if parsed.get_backend_name() == "postgresql":
        return sa.create_engine(
            parsed,
            pool_pre_ping=True,
            pool_size=POOL_SIZE,
            max_overflow=MAX_OVERFLOW,
            pool_timeout=POOL_TIMEOUT_S,
            pool_recycle=POOL_RECYCLE_S,
            connect_args={"connect_timeout": CONNECT_TIMEOUT_S, "application_name": "s2s"},
        )
    raise ValueError(f"not a SQLite or PostgreSQL URL: {parsed.get_backend_name()!r}")


def engine(url: str | None = None) -> sa.Engine:
    """The process's engine for url (default: s2s_db.settings.database_url()), made on first use.

    One per URL, so every Streamlit session shares one pool; made under a lock, so two sessions' first requests
    cannot make two."""
    url = url or database_url()
    with _engines_lock:
        if url not in _engines:
            _engines[url] = make_engine(url)
        return _engines[url]


@contextmanager
def read(eng: sa.Engine) -> Iterator[sa.Connection]:
    """A transaction that only reads: on SQLite a deferred BEGIN (a snapshot that never waits for a writer; a
    write inside it may fail with "database is locked"), on PostgreSQL an ordinary one. Ends with a rollback."""
    with eng.connect() as conn:
        conn.execution_options(**{READ_ONLY: True}).begin()
        yield conn  # closing the connection rolls its transaction back


def _sqlite_engine(url: sa.URL) -> sa.Engine:
    if url.database:
        Path(url.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    eng = sa.create_engine(
        url,
        # Streamlit runs each session's script in its own thread; the pool hands a connection to one at a time.
        connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000},
    )
    event.listen(eng, "connect", _sqlite_connect)
    event.listen(eng, "begin", _sqlite_begin)
    return eng


def _sqlite_connect(dbapi_connection, _record) -> None:
    # The driver's own transaction handling off (it would BEGIN only before DML, never before DDL or a SELECT):
    # _sqlite_begin starts every transaction. Pragmas first, outside any transaction, busy_timeout before the
    # journal mode: switching a new file to WAL needs the lock a second process may hold at that moment.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        _write_ahead_logging(cursor)
        cursor.execute("PRAGMA foreign_keys = ON")
        # With WAL, NORMAL keeps every commit through a crashed or killed server (a power cut may lose the last ones).
        cursor.execute("PRAGMA synchronous = NORMAL")
    finally:
        cursor.close()


def _write_ahead_logging(cursor) -> None:
    """Switch the file to WAL (it stays so: later connections find it on). Two processes opening a new file at
    once both try to switch it, and SQLite answers the loser "database is locked" at once, without waiting
    busy_timeout: so wait here, a few ms at a time, up to the same timeout."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while cursor.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
        try:
            mode = cursor.execute("PRAGMA journal_mode = WAL").fetchone()[0].lower()
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(RETRY_S)
            continue
        if mode != "wal":  # a file system without shared memory: SQLite keeps its rollback journal, and works
            log.warning("SQLite kept journal_mode=%s (no WAL here): readers will wait for writers", mode)
            return


def _sqlite_begin(conn: sa.Connection) -> None:
    conn.exec_driver_sql("BEGIN" if conn.get_execution_options().get(READ_ONLY) else "BEGIN IMMEDIATE")
