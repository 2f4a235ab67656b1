"""Where the PostgreSQL server for the tests is, and what happens without one.

`S2S_TEST_POSTGRES_URL` names a server and a role that may create databases (`.ci/run` starts Debian's PostgreSQL
15 and sets it). Each test module that needs PostgreSQL gets a database of its own on it (`new_database`), dropped
afterwards, so runs and xdist workers never share tables. Without the URL, or with a server that does not answer,
those tests skip with a loud reason (and a warning in pytest's summary, which xdist's workers hand back to the
terminal); with `REQUIRE_POSTGRES=1`, as in `.ci/run`, they fail instead.
"""

from __future__ import annotations

import functools
import glob
import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
import warnings
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest
import sqlalchemy as sa

URL_ENV = "S2S_TEST_POSTGRES_URL"
REQUIRE_ENV = "REQUIRE_POSTGRES"
PROBE_TIMEOUT_S = 3


def server_url() -> str | None:
    """$S2S_TEST_POSTGRES_URL with psycopg 3 as its driver, or None."""
    raw = os.environ.get(URL_ENV, "").strip()
    if not raw:
        return None
    scheme, _, rest = raw.partition("://")
    return f"postgresql+psycopg://{rest}" if scheme in ("postgresql", "postgres", "postgresql+psycopg") else raw


def required() -> bool:
    return os.environ.get(REQUIRE_ENV) == "1"


@functools.cache
def missing_reason() -> str | None:
    """Why the PostgreSQL tests cannot run here (asked once per process), or None when the server answers."""
    url = server_url()
    if url is None:
        return f"{URL_ENV} is not set (`.ci/run` starts PostgreSQL 15 and sets it)"
    shown = sa.make_url(url).render_as_string(hide_password=True)
    probe = sa.create_engine(url, poolclass=sa.NullPool, connect_args={"connect_timeout": PROBE_TIMEOUT_S})
    try:
        with probe.connect() as conn:
            conn.execute(sa.text("SELECT 1"))
    except sa.exc.SQLAlchemyError as error:
        return f"PostgreSQL at {shown} does not answer: {str(error.orig or error).strip().splitlines()[0]}"
    finally:
        probe.dispose()
    return None


@contextmanager
def new_database(url: str) -> Iterator[str]:
    """A new empty database s2s_t_<random> on url's server (its URL), dropped at the end even while connected."""
    name = f"s2s_t_{secrets.token_hex(6)}"
    admin = sa.create_engine(url, poolclass=sa.NullPool, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
        try:
            yield sa.make_url(url).set(database=name).render_as_string(hide_password=False)
        finally:
            with admin.connect() as conn:
                conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        admin.dispose()


class PostgresSkipped(UserWarning):
    """Shown in pytest's warnings summary: the PostgreSQL half of the database tests did not run."""


def postgres_server() -> str:
    """The test server's URL, or the test skips (loudly) / fails (REQUIRE_POSTGRES=1)."""
    reason = missing_reason()
    if reason is None:
        return server_url() or ""
    if required():
        pytest.fail(f"PostgreSQL is required here ({REQUIRE_ENV}=1) but cannot be used: {reason}")
    warnings.warn(PostgresSkipped(f"POSTGRESQL TESTS SKIPPED: {reason}"), stacklevel=1)
    pytest.skip(f"POSTGRESQL TESTS SKIPPED: {reason}")


# --- a PostgreSQL server of a test's own, to stop and start (the database restarted mid-class) ---------------------

BIN_GLOB = "/usr/lib/postgresql/*/bin"  # Debian's server binaries (postgresql-15), beside the cluster .ci/run starts


class PrivateServer:
    """A throwaway PostgreSQL cluster in a temp folder on a free port, trust auth for its one role, on 127.0.0.1:
    a test may stop and start it without touching the run's shared server (other workers' tests use that one).
    Run as root (CI), its commands run as the postgres user: initdb refuses to run as root."""

    def __init__(self, bindir: Path, root: Path, port: int) -> None:
        self.bindir, self.root, self.port = bindir, root, port
        self.data, self.log = root / "data", root / "server.log"
        self.url = f"postgresql://s2s@127.0.0.1:{port}/postgres"

    def _run(self, *command: str) -> None:
        as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run([*as_user, *command], check=True, capture_output=True, timeout=120)

    def init(self) -> None:
        self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-U", "s2s", "--auth=trust", "-E", "UTF8",
                  "--no-sync")  # fmt: skip

    def start(self) -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", options, "-w",
                  "-t", "60", "start")  # fmt: skip

    def stop(self) -> None:
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")


@contextmanager
def private_server(port: int) -> Iterator[PrivateServer]:
    """A started PrivateServer (skipped loudly, or failed with REQUIRE_POSTGRES=1, without Debian's binaries)."""
    found = sorted(Path(p) for p in glob.glob(BIN_GLOB) if (Path(p) / "initdb").exists())
    if not found:
        reason = f"no PostgreSQL server binaries at {BIN_GLOB} (apt-get install postgresql-15)"
        if required():
            pytest.fail(f"PostgreSQL is required here ({REQUIRE_ENV}=1) but {reason}")
        warnings.warn(PostgresSkipped(f"POSTGRESQL TESTS SKIPPED: {reason}"), stacklevel=2)
        pytest.skip(reason)
    root = Path(tempfile.mkdtemp(prefix="s2s-pg-"))
    if os.geteuid() == 0:
        entry = pwd.getpwnam("postgres")
        os.chown(root, entry.pw_uid, entry.pw_gid)
    server = PrivateServer(found[-1], root, port)
    try:
        server.init()
        server.start()
        yield server
    finally:
        with suppress(subprocess.CalledProcessError):  # already stopped
            server.stop()
        shutil.rmtree(root, ignore_errors=True)
