"""Is this replica fit to take visitors? Its database answers and its training pool is up (or stopped while idle,
to start with the next job). The server's health route (s2s_ui/health.py, GET /_s2s/health) answers with this; a
load balancer with active checks, or an orchestrator's readiness probe, sends visitors only to a healthy replica.

Streamlit's own /_stcore/health says only that the server process answers.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from s2s_db.migrate import ready
from s2s_db.settings import DatabaseUrlError, database_url
from s2s_jobs import jobs, pool
from s2s_jobs.process import ProcessRunner

OK, IDLE, DOWN = "ok", "idle", "down"


@dataclass(frozen=True)
class Health:
    database: str  # OK, or DOWN with the reason ("down: OperationalError")
    pool: str  # OK (running), IDLE (stopped while idle: the next job starts it) or DOWN (the forkserver died)
    queued: int  # trainings waiting for a slot on this replica
    running: int
    slots: int  # trainings this replica runs at once

    @property
    def healthy(self) -> bool:
        return self.database == OK and self.pool in (OK, IDLE)


def _database() -> str:
    try:
        with ready(database_url()).connect() as conn:
            conn.execute(sa.text("SELECT 1"))
    except (sa.exc.SQLAlchemyError, DatabaseUrlError, OSError) as error:
        return f"{DOWN}: {type(error).__name__}"
    return OK


def _pool(runner) -> str:
    if not isinstance(runner, ProcessRunner):
        return OK  # in-process: threads of this process, nothing to reach
    alive = pool.pool_alive()
    if alive is None:
        return IDLE
    if not alive:
        runner.start_pool()  # ensure_running() reaps the dead one and starts anew, in the background
        return DOWN
    return OK


def check() -> Health:
    runner = jobs.runner()
    with runner._lock:
        queued, running = len(runner._queue), len(runner._running)
    return Health(_database(), _pool(runner), queued, running, runner.max_running)
