"""Claims between replicas (issue 28), on SQLite and on PostgreSQL: two runners with owners of their own on one
database stand in for two replicas. One model per config for the deployment: the second replica watches the first
one's training (its progress mirrored) and shows its model without training it; a replica that stops renewing
(dead) is taken over after its lease; a cancelled or failed training hands its row back; many replicas asking at
once train it once. The repository's own rules (claim, renew, finish, give up) are checked directly at the end.

The same across real processes behind nginx, with a SIGKILL: tests/browser/test_replicas_browser.py.
"""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest
import sqlalchemy as sa

from s2s_core.training import TrainConfig
from s2s_core.training.loop import Progress
from s2s_db import trainings as repo
from s2s_db.tables import trainings
from s2s_jobs.runner import QueueFull, Runner
from s2s_jobs.snapshot import CANCELLED, DONE, FAILED, FAILED_KEY, QUEUED, RUNNING
from s2s_jobs.store import ModelStore
from s2s_jobs.trainer import Trainer, pack, train_default, unpack
from tests.training_backend import inprocess_training  # noqa: F401 (an autouse fixture: runners train in-process)
from tests.waiting import wait_until

TINY = TrainConfig(embed=8, hidden=16, steps=12, batch=16, max_len=6, lr=0.01, seed=501)
LEASE = 2.0  # short, so a lapse is seconds away; renewed every LEASE/4
GATE = threading.Event()  # gated_train holds its first step until a test sets it
TRAINED: list[TrainConfig] = []


def gated_train(config, on_progress=None, stop=None):
    """One reported step, then wait for GATE (or a stop), then the real training: a run a test can catch midway."""
    TRAINED.append(config)
    on_progress(Progress(1, config.steps, 2.5, 1.0, 0.01, None))
    wait_until(lambda: GATE.is_set() or stop(), 60, "the gate")
    return train_default(config, on_progress, stop)


def broken_train(config, on_progress=None, stop=None):
    raise RuntimeError("a fault in the trainer")


GATED = Trainer("gated", gated_train, pack, unpack)
BROKEN = Trainer("broken", broken_train, pack, unpack)


@pytest.fixture(autouse=True)
def _gate():
    GATE.clear()
    TRAINED.clear()
    yield
    GATE.set()  # nothing left waiting


def replica(db_url: str, name: str, trainer: Trainer = GATED) -> Runner:
    return Runner(trainer, max_running=1, store=ModelStore(db_url, owner=name, lease=LEASE))


def row(db, runner: Runner, config: TrainConfig, trainer: Trainer = GATED) -> sa.Row:
    key = runner.store.key(trainer, config, runner.train_threads())
    with db.connect() as conn:
        return conn.execute(sa.select(trainings).where(trainings.c.key == key)).one()


def test_a_second_replica_watches_the_first_ones_training_and_shows_its_model(db, db_url):
    one, two = replica(db_url, "one"), replica(db_url, "two")
    mine = one.submit(TINY)
    wait_until(lambda: one.snapshot(mine).step == 1, 30, "the first step on replica one")
    theirs = two.submit(TINY)  # the same settings through the other replica
    snap = two.snapshot(theirs)
    assert snap.remote and snap.state in (QUEUED, RUNNING) and not snap.ended
    # The keeper renews replica one's lease with its progress; replica two mirrors it (the loss of step 1).
    wait_until(lambda: two.snapshot(theirs).state == RUNNING, 30, "the mirrored first step")
    assert two.snapshot(theirs).losses == ((1, 2.5, 1.0),) and two.snapshot(theirs).step == 1
    GATE.set()
    assert mine.wait(120)
    assert theirs.wait(30)
    done = two.snapshot(theirs)
    assert done.state == DONE and done.stored and not done.remote
    assert done.result.run.model.state_dict().keys() == one.snapshot(mine).result.run.model.state_dict().keys()
    assert TRAINED == [TINY]  # trained once for the deployment
    assert (row(db, one, TINY).state, row(db, one, TINY).claims, row(db, one, TINY).owner) == ("done", 1, "one")
    # A third replica that starts later loads it at once; find() on a replica that never saw it finds it too.
    assert replica(db_url, "three").submit(TINY).wait(0)
    found = replica(db_url, "four").find(TINY)
    assert found is not None and found.wait(0) and TRAINED == [TINY]


def test_a_replica_that_stops_renewing_is_taken_over_after_its_lease(db, db_url):
    """Replica one claims the training and dies (its keeper never renews: a claim with no runner behind it);
    replica two watches the row until the lease lapses, then claims it and trains it to the end."""
    dead = ModelStore(db_url, owner="dead", lease=LEASE)
    two = replica(db_url, "two")
    assert dead.claim(GATED, TINY, two.train_threads(), TINY.steps).mine
    job = two.submit(TINY)
    assert two.snapshot(job).remote
    GATE.set()
    assert job.wait(60)
    snap = two.snapshot(job)
    assert snap.state == DONE and not snap.stored and not snap.remote and snap.step == TINY.steps
    taken = row(db, two, TINY)
    assert (taken.state, taken.owner, taken.claims) == ("done", "two", 2)
    assert TRAINED == [TINY]  # only replica two trained (the dead one's claim had no training behind it)


def test_a_cancelled_training_hands_its_row_back_and_a_watcher_takes_it(db, db_url):
    one, two = replica(db_url, "one"), replica(db_url, "two")
    mine = one.submit(TINY)
    wait_until(lambda: one.snapshot(mine).step == 1, 30, "the first step on replica one")
    theirs = two.submit(TINY)
    assert two.snapshot(theirs).remote
    one.cancel(mine)
    assert mine.wait(30) and one.snapshot(mine).state == CANCELLED
    # The row is free; replica two's keeper claims it on its next tick and trains it here.
    wait_until(lambda: not two.snapshot(theirs).remote, 30, "replica two taking the training")
    GATE.set()
    assert theirs.wait(120) and two.snapshot(theirs).state == DONE
    assert (row(db, two, TINY).owner, row(db, two, TINY).claims) == ("two", 2)
    # A queued claimed job that leaves the queue hands its row back too.
    other = replace(TINY, seed=502)
    blocker, queued = one.submit(replace(TINY, seed=503)), one.submit(other)
    assert one.snapshot(queued).state == QUEUED
    one.cancel(queued)
    wait_until(lambda: row(db, one, other).state == "free", 30, "the queued job's row handed back")
    one.cancel(blocker)


def test_a_failed_training_is_failed_for_its_watchers_too(db, db_url):
    one, two = replica(db_url, "one", BROKEN), replica(db_url, "two", BROKEN)
    dead = ModelStore(db_url, owner="before", lease=60.0)
    assert dead.claim(BROKEN, TINY, one.train_threads(), TINY.steps).mine  # so replica two watches, then...
    theirs = two.submit(TINY)
    assert two.snapshot(theirs).remote
    dead.give_up(dead.key(BROKEN, TINY, one.train_threads()), FAILED_KEY)  # ...the trainer raised over there
    assert theirs.wait(30)
    assert (two.snapshot(theirs).state, two.snapshot(theirs).error) == (FAILED, FAILED_KEY)
    job = one.submit(TINY)  # a failed row is claimed anew by the next visitor who presses Train
    assert job.wait(30) and one.snapshot(job).state == FAILED
    assert (row(db, one, TINY, BROKEN).state, row(db, one, TINY, BROKEN).claims) == ("failed", 2)


def test_many_replicas_asking_at_once_train_it_once(db, db_url):
    """Six replicas submit the same settings from six threads at once: exactly one claims it, the rest watch."""
    runners = [replica(db_url, f"r{i}") for i in range(6)]
    start = threading.Barrier(len(runners))
    jobs: list = [None] * len(runners)

    def ask(i: int) -> None:
        start.wait()
        jobs[i] = runners[i].submit(TINY)

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(runners))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sum(not r.snapshot(j).remote for r, j in zip(runners, jobs, strict=True)) == 1
    GATE.set()
    assert all(j.wait(120) for j in jobs)
    assert all(r.snapshot(j).state == DONE for r, j in zip(runners, jobs, strict=True))
    assert TRAINED == [TINY] and row(db, runners[0], TINY).claims == 1


# --- the repository's rules ----------------------------------------------------------------------------------


def _claim(db, owner: str, now: float, again: bool = False):
    return repo.claim(db, "k", trainer="t", code="c", config="{}", owner=owner, now=now, lease=10, total=5,
                      again=again)  # fmt: skip


def test_the_repositorys_claim_renew_finish_and_give_up(db):
    assert _claim(db, "a", 100) is None  # claimed
    held = _claim(db, "b", 105)
    assert (held.state, held.owner) == ("running", "a") and not held.lapsed(105)
    assert repo.renew(db, "k", "a", now=108, lease=10, step=2, total=5, seconds=1.0, progress=b"p")
    assert not repo.renew(db, "k", "b", now=108, lease=10, step=9, total=5, seconds=1.0, progress=None)
    assert _claim(db, "b", 117) is not None  # renewed at 108: lives to 118
    assert _claim(db, "b", 119) is None  # lapsed: taken over
    assert not repo.renew(db, "k", "a", now=119, lease=10, step=3, total=5, seconds=1.0, progress=None)  # lost it
    assert repo.finish(db, "k", "b", now=120, result=b"model-b", step=5, total=5, seconds=2.0)
    assert not repo.finish(db, "k", "a", now=121, result=b"model-a", step=5, total=5, seconds=2.0)  # b's stands
    done = repo.read(db, "k")
    assert (done.state, done.owner, done.result, done.claims) == ("done", "b", b"model-b", 2)
    assert _claim(db, "c", 122).state == "done"  # a finished model is loaded, not claimed
    assert _claim(db, "c", 123, again=True) is None  # trained again on purpose
    repo.give_up(db, "k", "c", now=124)  # cancelled: the older model stands
    assert (repo.read(db, "k").state, repo.read(db, "k").result) == ("done", b"model-b")
    assert repo.read_many(db, ["k", "missing"]).keys() == {"k"}


def test_a_watch_nobody_here_holds_is_dropped_and_found_again_while_the_other_replica_trains(db, db_url):
    """Replica two stops watching a remote training when its last visitor leaves (cancelled here after the grace);
    the next visitor there is shown the training again, not a stopped one, since replica one still trains it."""
    one, two = replica(db_url, "one"), replica(db_url, "two")
    mine = one.submit(TINY)
    wait_until(lambda: one.snapshot(mine).step == 1, 30, "the first step on replica one")
    theirs = two.submit(TINY)
    two.cancel(theirs)  # what _reap does once nobody on replica two has held it for the grace period
    assert two.snapshot(theirs).state == CANCELLED and one.snapshot(mine).state == RUNNING
    again = two.find(TINY)
    assert again is not theirs and two.snapshot(again).remote
    GATE.set()
    assert again.wait(120) and two.snapshot(again).state == DONE and TRAINED == [TINY]


def test_a_replica_whose_queue_is_full_serves_the_deployments_models_and_refuses_only_new_trainings(db, db_url):
    """Shedding with a store: replica two's queue is full (cap 1). Settings replica one finished are served, and
    settings replica one trains now are watched; new settings are refused with the wait and never claimed; a queue
    that fills while the store answers hands the fresh claim back (the row free for the next replica)."""
    one = replica(db_url, "one")
    two = Runner(GATED, max_running=1, store=ModelStore(db_url, owner="two", lease=LEASE), cap=1)
    finished, training, new, raced = (replace(TINY, seed=s) for s in (511, 512, 513, 514))
    GATE.set()
    assert one.submit(finished).wait(120)
    GATE.clear()
    theirs = one.submit(training)
    wait_until(lambda: one.snapshot(theirs).step == 1, 30, "the first step on replica one")
    busy = [two.submit(replace(TINY, seed=s)) for s in (515, 516)]  # one running, one waiting: full
    assert two.snapshot(busy[1]).state == QUEUED
    assert two.snapshot(two.submit(finished)).state == DONE  # trained by the deployment: served at once
    assert two.snapshot(two.submit(training)).remote  # trained by replica one now: watched, no place taken
    with pytest.raises(QueueFull) as refused:
        two.submit(new)
    assert (refused.value.waiting, refused.value.cap) == (1, 1)
    key = two.store.key(GATED, new, two.train_threads())
    with db.connect() as conn:  # never claimed
        assert conn.execute(sa.select(trainings).where(trainings.c.key == key)).first() is None
    claim = two.store.claim

    def claim_while_the_queue_fills(*args, **kwargs):  # another visitor's job queued while the store answered
        answer = claim(*args, **kwargs)
        two.queue_cap = 1
        return answer

    two.queue_cap, two.store.claim = 2, claim_while_the_queue_fills
    with pytest.raises(QueueFull):
        two.submit(raced)
    assert (row(db, two, raced).state, row(db, two, raced).claims) == ("free", 1)  # handed back at once
    assert new not in TRAINED and raced not in TRAINED
    GATE.set()
    for job in busy:
        two.cancel(job)
    assert theirs.wait(120) and two.wait_idle(60) and one.wait_idle(60)
