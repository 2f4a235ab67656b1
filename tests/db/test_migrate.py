"""s2s_db.migrate: from an empty database to head, again (nothing to do), and two processes at once."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import sqlalchemy as sa

from s2s_db.engine import make_engine
from s2s_db.migrate import current, head, upgrade

ROOT = Path(__file__).resolve().parents[2]


def test_upgrade_from_empty_to_head_and_again(fresh_db_url):
    engine = make_engine(fresh_db_url)
    try:
        assert current(engine) is None
        assert sa.inspect(engine).get_table_names() == []
        upgrade(engine)
        assert current(engine) == head()
        tables = set(sa.inspect(engine).get_table_names())
        assert {"alembic_version", "classes", "members", "answers", "trainings"} <= tables
        upgrade(engine)  # a restarted server upgrades again: nothing to do, nothing lost
        assert current(engine) == head()
        assert set(sa.inspect(engine).get_table_names()) == tables
    finally:
        engine.dispose()


# Each process imports everything, says "ready", waits for "go" on stdin, then upgrades: both start at once.
UPGRADE_ON_GO = """
import sys
from s2s_db.engine import make_engine
from s2s_db.migrate import current, upgrade
engine = make_engine(sys.argv[1])
print("ready", flush=True)
sys.stdin.readline()
upgrade(engine)
print("at", current(engine), flush=True)
"""


def test_two_processes_upgrading_at_once_end_at_head(fresh_db_url):
    """Two servers starting together on a new database: one creates the tables, the other waits for its lock and
    finds nothing to do; neither fails (without the lock, the second CREATE TABLE would)."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", UPGRADE_ON_GO, fresh_db_url],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    try:
        assert [p.stdout.readline().strip() for p in procs] == ["ready", "ready"]
        for p in procs:
            p.stdin.write("go\n")
            p.stdin.flush()
        outcomes = [p.communicate(timeout=60) for p in procs]
    finally:
        for p in procs:
            p.kill() if p.poll() is None else None
    assert [(p.returncode, err) for p, (_, err) in zip(procs, outcomes, strict=True)] == [(0, ""), (0, "")]
    assert [out.strip() for out, _ in outcomes] == [f"at {head()}"] * 2
    engine = make_engine(fresh_db_url)
    try:
        assert current(engine) == head()
    finally:
        engine.dispose()
