"""The training repository: the deployment's trained models and who trains them, each call one transaction.

One row per (trainer, config, code version), keyed by a digest of the three (s2s_jobs/store.py makes the key and
the bytes; this module only keeps them). The rules:

- claim(): the first replica to ask for a key trains it. It holds a lease (owner, lease_until) that it renews while
  it trains (renew()); any other replica that asks gets the row back instead (running: watch it; done: load it).
  A lease that has run out belongs to a replica that died or lost the database: the next claim takes the row over.
- finish() keeps the model; give_up() hands the row back (cancelled: free for the next claim; the trainer raised:
  failed, with the message's key), and an older finished model of the same key stands.
- Time is the caller's `now` (seconds since the epoch), as in classes.py; replicas on several machines keep their
  clocks in step (NTP), and a lease is many seconds long, so a second of skew changes nothing.

Concurrency: claim() reads the row under a lock (SQLite: BEGIN IMMEDIATE, the file's write lock; PostgreSQL:
`SELECT ... FOR UPDATE` on the row) and decides in the same transaction, so two replicas asking at once never both
train. Two first inserts of a new key on PostgreSQL race on the primary key: the loser reads the winner's row.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import sqlalchemy as sa

from s2s_db.engine import read as read_only
from s2s_db.tables import trainings

RUNNING, DONE, FAILED, FREE = "running", "done", "failed", "free"


@dataclass(frozen=True)
class Training:
    """One row as read: everything but the bytes is plain numbers and text."""

    key: str
    trainer: str
    code: str
    state: str  # RUNNING, DONE, FAILED or FREE
    owner: str  # the replica that trains it, or trained it last
    lease_until: float
    claims: int  # how many times a replica started training it (1: trained once for the whole deployment)
    step: int
    total: int
    seconds: float
    progress: bytes | None
    result: bytes | None
    error: str | None

    def lapsed(self, now: float) -> bool:
        """Running, but its owner has not renewed the lease in time: the next claim takes it over."""
        return self.state == RUNNING and self.lease_until < now


def _training(row: sa.Row) -> Training:
    return Training(
        key=row.key,
        trainer=row.trainer,
        code=row.code,
        state=row.state,
        owner=row.owner,
        lease_until=row.lease_until,
        claims=row.claims,
        step=row.step,
        total=row.total,
        seconds=row.seconds,
        progress=None if row.progress is None else bytes(row.progress),
        result=None if row.result is None else bytes(row.result),
        error=row.error,
    )


def read(eng: sa.Engine, key: str) -> Training | None:
    """The row of key, or None."""
    return read_many(eng, [key]).get(key)


def read_many(eng: sa.Engine, keys: Iterable[str]) -> dict[str, Training]:
    """The rows of these keys that exist (one select: a replica's watcher reads every row it watches at once)."""
    keys = sorted(set(keys))
    if not keys:
        return {}
    with read_only(eng) as conn:
        rows = conn.execute(sa.select(trainings).where(trainings.c.key.in_(keys))).all()
    return {row.key: _training(row) for row in rows}


def _locked(conn: sa.Connection, key: str) -> sa.Row | None:
    return conn.execute(sa.select(trainings).where(trainings.c.key == key).with_for_update()).first()


def claim(
    eng: sa.Engine,
    key: str,
    *,
    trainer: str,
    code: str,
    config: str,
    owner: str,
    now: float,
    lease: float,
    total: int,
    again: bool = False,
) -> Training | None:
    """Claim key for owner to train. None: claimed (train it, renew the lease, then finish or give up). Otherwise
    the row that stops the claim: DONE (load its result; again=True claims it all the same, to train it anew) or
    RUNNING under another owner's live lease (watch it)."""
    with eng.begin() as conn:
        row = _locked(conn, key)
        if row is None:
            try:
                with conn.begin_nested():  # a savepoint: a lost race on the key leaves the transaction usable
                    conn.execute(
                        trainings.insert().values(
                            key=key,
                            trainer=trainer,
                            code=code,
                            config=config,
                            state=RUNNING,
                            owner=owner,
                            lease_until=now + lease,
                            claims=1,
                            step=0,
                            total=total,
                            seconds=0.0,
                            created_at=now,
                            updated_at=now,
                        )
                    )
                return None
            except sa.exc.IntegrityError:  # PostgreSQL: another replica inserted the key first
                row = _locked(conn, key)
        found = _training(row)
        if found.state == DONE and not again:
            return found
        if found.state == RUNNING and found.owner != owner and not found.lapsed(now):
            return found
        conn.execute(
            trainings.update()
            .where(trainings.c.key == key)
            .values(
                state=RUNNING,
                owner=owner,
                lease_until=now + lease,
                claims=trainings.c.claims + 1,
                step=0,
                total=total,
                seconds=0.0,
                progress=None,
                error=None,
                updated_at=now,
            )
        )
        return None


def renew(
    eng: sa.Engine,
    key: str,
    owner: str,
    *,
    now: float,
    lease: float,
    step: int,
    total: int,
    seconds: float,
    progress: bytes | None,
) -> bool:
    """The owner is still training key: a longer lease, and the progress for the replicas that watch it. False:
    the row is not this owner's running claim any more (another replica took it over after a lapse)."""
    with eng.begin() as conn:
        changed = conn.execute(
            trainings.update()
            .where(trainings.c.key == key, trainings.c.owner == owner, trainings.c.state == RUNNING)
            .values(
                lease_until=now + lease,
                step=step,
                total=total,
                seconds=seconds,
                progress=progress,
                updated_at=now,
            )
        ).rowcount
    return changed == 1


def finish(
    eng: sa.Engine, key: str, owner: str, *, now: float, result: bytes, step: int, total: int, seconds: float
) -> bool:
    """Keep the trained model. A model another owner finished first stands (the same config, trained by the same
    code: either is the deployment's model, and the one visitors may already be looking at stays). False then."""
    with eng.begin() as conn:
        changed = conn.execute(
            trainings.update()
            .where(trainings.c.key == key, sa.or_(trainings.c.state != DONE, trainings.c.owner == owner))
            .values(
                state=DONE,
                owner=owner,
                result=result,
                step=step,
                total=total,
                seconds=seconds,
                progress=None,
                error=None,
                updated_at=now,
            )
        ).rowcount
    return changed == 1


def give_up(eng: sa.Engine, key: str, owner: str, *, now: float, error: str | None = None) -> None:
    """The owner stops training key: FREE for the next claim (error None: cancelled), else FAILED with the message's
    key. A row that still holds an older finished model (a run trained again) goes back to DONE with it."""
    with eng.begin() as conn:
        conn.execute(
            trainings.update()
            .where(trainings.c.key == key, trainings.c.owner == owner, trainings.c.state == RUNNING)
            .values(
                state=sa.case((trainings.c.result.is_not(None), DONE), else_=FREE if error is None else FAILED),
                error=error,
                lease_until=now,
                updated_at=now,
            )
        )
