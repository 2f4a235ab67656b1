"""The default models and the model store (issues 24 §3 and 28), on SQLite and on PostgreSQL: a model round-trips
through the database; another code version or config misses; a corrupt or hostile row is refused without a
traceback and the model trained again; a database that is down never stops a training; a default is trained to its
step count whatever its time limit (a visitor's run keeps its limit and says so); a restart loads the defaults, and a
visitor's finished run, from the store without training them.

The claims between replicas (two runners with owners of their own on one database) are tests/db/test_replica_claims.py.
"""

from __future__ import annotations

import logging
import os
import pickle
from dataclasses import replace
from pathlib import Path

import pytest
import sqlalchemy as sa
import torch

from s2s_core.training import TrainConfig
from s2s_core.training.loop import Progress
from s2s_db import settings as db_settings
from s2s_db.tables import trainings
from s2s_jobs import jobs, settings, store
from s2s_jobs.process import CAP_MARGIN, ProcessRunner
from s2s_jobs.runner import Runner
from s2s_jobs.snapshot import DONE, OVER_CAP_KEY
from s2s_jobs.store import ModelStore
from s2s_jobs.trainer import DEFAULT, DEFAULT_CPU_SECONDS, LAB, Trainer, pack, train_default, unpack
from tests.training_backend import inprocess_training  # noqa: F401 (an autouse fixture: runners train in-process)
from tests.waiting import wait_until

TINY = TrainConfig(embed=8, hidden=16, steps=12, batch=16, max_len=6, lr=0.01, seed=401)
TRAINED: list[TrainConfig] = []  # every training counting_train started (in this process: the in-process backend)


def counting_train(config, on_progress=None, stop=None):
    TRAINED.append(config)
    return train_default(config, on_progress, stop)


def runaway_train(config, on_progress, stop):
    """A default that computes forever: only its hard CPU-seconds cap stops it."""
    on_progress(Progress(1, config.steps, 1.0, 1.0, 0.01, None))
    while True:
        sum(range(10_000))


COUNTING = Trainer("counting-default", counting_train, pack, unpack, capped=False)
RUNAWAY = Trainer("runaway-default", runaway_train, pack, unpack, capped=False)


def figures(result) -> tuple:
    """Everything a page shows about a trained model but its timings: steps, losses, held-out scores, exact match by
    length, the loss check, the checkpoint maps (output and attention weights), every weight."""
    run = result.run
    weights = tuple((k, v.tolist()) for k, v in run.model.state_dict().items())
    evals = tuple(replace(e, seconds=0.0) for e in run.evals)
    maps = result.trace.maps if result.trace is not None else None
    return (result.config, run.steps_done, run.stopped_by, run.losses, evals, run.by_length, result.loss_check, maps,
            weights)  # fmt: skip


@pytest.fixture(scope="module")
def tiny_default():
    return train_default(TINY)


def _keep(s: ModelStore, trainer: Trainer, config: TrainConfig, threads: int, result) -> str:
    """Claim config's row and keep result in it, as a runner does after a whole training; returns the key."""
    assert s.claim(trainer, config, threads, config.steps).mine
    key = s.key(trainer, config, threads)
    s.finish(key, trainer.pack(result), config.steps, config.steps, result.run.seconds)
    return key


def _set_result(db, key: str, data: bytes) -> None:
    with db.begin() as conn:
        conn.execute(trainings.update().where(trainings.c.key == key).values(result=data))


def _rows(db) -> list:
    with db.connect() as conn:
        return conn.execute(sa.select(trainings.c.trainer, trainings.c.state, trainings.c.claims)).all()


# --- the store -----------------------------------------------------------------------------------------------


def test_an_entry_round_trips(db, db_url, tiny_default):
    s = ModelStore(db_url)
    assert s.load(DEFAULT, TINY, 1) is None  # nothing yet
    _keep(s, DEFAULT, TINY, 1, tiny_default)
    loaded = s.load(DEFAULT, TINY, 1)
    assert figures(loaded) == figures(tiny_default)
    assert loaded.run.seconds == tiny_default.run.seconds  # the run's own measurement travels with it
    assert _rows(db) == [(DEFAULT.name, "done", 1)]


def test_another_code_version_or_config_misses(db, db_url, tiny_default, monkeypatch, caplog):
    s = ModelStore(db_url)
    key = _keep(s, DEFAULT, TINY, 1, tiny_default)
    assert s.load(DEFAULT, replace(TINY, seed=402), 1) is None  # another config
    assert s.load(DEFAULT, replace(TINY, max_seconds=5.0), 1) is None  # every field is part of the key
    assert s.load(DEFAULT, TINY, 2) is None  # trained on another number of threads
    assert s.load(LAB, TINY, 1) is None  # another trainer
    monkeypatch.setattr(store, "_files_hash", lambda roots: "a-newer-checkout")
    assert s.load(DEFAULT, TINY, 1) is None  # the code changed
    monkeypatch.undo()
    assert s.load(DEFAULT, TINY, 1) is not None
    # The right key whose row says another code version (copied by hand from an older deployment): refused.
    with db.begin() as conn:
        conn.execute(trainings.update().where(trainings.c.key == key).values(code="0" * 24))
    with caplog.at_level(logging.WARNING, logger="s2s_jobs.store"):
        assert s.load(DEFAULT, TINY, 1) is None
    assert "refused" in caplog.text


def test_the_code_version_covers_every_file_that_decides_training():
    files = store.source_files(("s2s_core.training.compute", "s2s_jobs.trainer"))
    names = {str(p.relative_to(store.ROOT)) for p in files}
    for needed in ("model", "loop", "tasks", "config", "compute", "trace", "fields"):
        assert f"s2s_core/training/{needed}.py" in names
    assert {"s2s_core/grammar.py", "s2s_core/rng.py", "s2s_jobs/trainer.py"} <= names
    assert not any(".venv" in n or "site-packages" in n for n in names)  # the project's own files only
    version = store.code_version(DEFAULT, 1)
    assert version == store.code_version(DEFAULT, 1) and torch.__version__ in version and version.endswith("-t1")


class Hostile:
    """A pickle that runs a command when it is loaded by an unsafe unpickler."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


@pytest.mark.parametrize("kind", ["garbage", "truncated", "hostile", "pickle"])
def test_a_corrupt_or_hostile_row_is_refused_without_a_traceback_and_trained_again(
    kind, db, db_url, tiny_default, tmp_path, caplog
):
    s = ModelStore(db_url)
    threads = torch.get_num_threads()
    key = _keep(s, DEFAULT, TINY, threads, tiny_default)
    marker = tmp_path / "ran"
    good = DEFAULT.pack(tiny_default)
    if kind == "garbage":
        _set_result(db, key, b"not a model at all")
    elif kind == "truncated":
        _set_result(db, key, good[:200])
    elif kind == "hostile":  # torch's own format around the payload
        buffer = tmp_path / "hostile.pt"
        torch.save({"format": 1, "packed": Hostile(marker)}, buffer)
        _set_result(db, key, buffer.read_bytes())
    else:  # a bare pickle
        _set_result(db, key, pickle.dumps(Hostile(marker), protocol=2))
    runner = Runner(max_running=1, store=s)
    with caplog.at_level(logging.INFO, logger="s2s_jobs"):
        job = runner.default(TINY, DEFAULT)
        assert job.wait(120)
    snap = runner.snapshot(job)
    assert snap.state == DONE and not snap.stored  # trained again, not loaded
    assert not marker.exists()  # nothing in the row ran
    refused = [r for r in caplog.records if "refused" in r.getMessage()]
    assert len(refused) == 1 and refused[0].exc_info is None and "Traceback" not in caplog.text
    assert figures(s.load(DEFAULT, TINY, threads)) == figures(snap.result)  # the row holds a good model again
    assert _rows(db) == [(DEFAULT.name, "done", 2)]  # claimed twice: the first model, and its replacement


def test_a_database_that_is_down_never_stops_a_training(caplog):
    """Nothing listens on the port: the claim fails, the store says so once in the log, the job trains here as a
    single server's would, and keeping its model is skipped quietly (the store stays out of the way for a while)."""
    s = ModelStore("postgresql+psycopg://nobody:nothing@127.0.0.1:9/none?connect_timeout=2")
    runner = Runner(max_running=1, store=s)
    with caplog.at_level(logging.WARNING, logger="s2s_jobs.store"):
        job = runner.submit(replace(TINY, seed=405))
        assert job.wait(120)
        snap = runner.snapshot(job)
        assert s.load(DEFAULT, TINY, 1) is None
    assert snap.state == DONE and not snap.stored and not snap.remote
    failed = [r for r in caplog.records if "failed" in r.getMessage()]
    assert len(failed) == 1 and "Traceback" not in caplog.text, caplog.text


# --- default models: to their step count ---------------------------------------------------------------------


def test_a_default_is_trained_to_its_step_count_whatever_its_time_limit():
    """A limit of 0 s stops any run after its first step (the clock has always passed it): a visitor's run stops
    there and says so; the same settings as a default model train all 12 steps, to the figures of a generous limit."""
    cut = replace(TINY, max_seconds=0.0, seed=403)
    runner = Runner(max_running=1)
    visitor = runner.submit(cut)
    assert visitor.wait(60)
    mine = runner.snapshot(visitor)
    assert (mine.stopped_by, mine.result.run.steps_done, mine.warm) == ("time", 1, False)
    other = Runner(max_running=1)
    default = other.default(cut, DEFAULT)
    assert default.wait(60)
    snap = other.snapshot(default)
    assert (snap.stopped_by, snap.step, snap.total, snap.warm) == ("steps", 12, 12, True)
    assert snap.result.config == cut  # the config asked for, limit included
    generous = train_default(replace(cut, max_seconds=30.0))
    assert figures(snap.result)[1:] == figures(generous)[1:]


def test_the_store_is_the_servers_and_a_named_folders(monkeypatch, tmp_path):
    """A server (worker processes) keeps its models in the app's database (the SQLite file in data/ of the repository
    by default, or in $S2S_DATA_DIR, or $S2S_DATABASE_URL); in-process (tests) only when the test names a data
    folder, like warm-up (never the repository's own data). The lease is $S2S_TRAIN_LEASE, clipped."""
    monkeypatch.delenv(settings.DATA_DIR_ENV, raising=False)
    monkeypatch.delenv(db_settings.DATABASE_URL_ENV, raising=False)
    assert settings.store_enabled("process") and not settings.store_enabled("inprocess")
    monkeypatch.setattr(jobs, "_RUNNER", None)
    assert jobs.runner().store is None  # this test trains in-process (tests/training_backend.py)
    monkeypatch.setenv(settings.DATA_DIR_ENV, str(tmp_path))
    monkeypatch.setenv(settings.LEASE_ENV, "7")
    assert settings.store_enabled("inprocess")
    monkeypatch.setattr(jobs, "_RUNNER", None)
    made = jobs.runner().store
    assert made.lease == 7.0 and made.url is None  # None: the database the classroom uses, read when first needed
    assert db_settings.database_url() == f"sqlite:///{tmp_path / 'classroom.sqlite3'}"
    for raw, lease in (("1", 2.0), ("9999", 600.0), ("soon", settings.LEASE_SECONDS), ("", settings.LEASE_SECONDS)):
        monkeypatch.setenv(settings.LEASE_ENV, raw)
        assert settings.train_lease() == lease
    monkeypatch.setattr(jobs, "_RUNNER", None)


def test_every_model_a_page_shows_by_default_is_a_default_model():
    """The Training lab's default and its twin, the Translation lab's default, its twin and its three cells: all
    trained by the uncapped DEFAULT trainer (they were the Training lab's own trainer, cut by the clock)."""
    from s2s_core.training import twin_config
    from s2s_core.translation.fields import DEFAULT as TRANSLATION
    from s2s_core.translation.lab import comparison_configs

    shown = {TrainConfig(), twin_config(TrainConfig()), TRANSLATION, twin_config(TRANSLATION)}
    shown |= set(comparison_configs(TRANSLATION))
    assert {config for _, config in jobs.WARM} == shown and len(jobs.WARM) == len(shown)
    assert all(trainer is DEFAULT and not trainer.capped for trainer, _ in jobs.WARM)


def test_a_default_has_only_the_hard_cpu_cap(caplog):
    """A default's worker has no wall-clock limit; past DEFAULT_CPU_SECONDS (+ the margin) of CPU it is killed."""
    runner = ProcessRunner(max_running=1, pool_idle=0.0)
    assert runner.cap_seconds(TINY, DEFAULT) == DEFAULT_CPU_SECONDS + CAP_MARGIN
    assert runner.cap_seconds(TINY, LAB) == TINY.max_seconds + CAP_MARGIN  # a visitor's run: its own limit
    tight = ProcessRunner(max_running=1, pool_idle=0.0, cap_margin=0.5, default_cpu_seconds=0.5)
    with caplog.at_level(logging.INFO, logger="s2s_jobs"):
        job = tight.default(replace(TINY, seed=404), RUNAWAY)
        wait_until(lambda: tight.snapshot(job).step >= 1, 120)
        assert job.wait(60)
    assert tight.snapshot(job).error == OVER_CAP_KEY
    assert "hard cap 1 CPU seconds" in caplog.text  # named in the log when the default starts


# --- a restart, visitors -------------------------------------------------------------------------------------


def test_a_restart_loads_the_defaults_from_the_store_without_training(db, db_url, tmp_path, monkeypatch):
    a, b = replace(TINY, seed=411), replace(TINY, seed=412, attention="none")
    monkeypatch.setenv(settings.DATA_DIR_ENV, str(tmp_path))
    monkeypatch.setenv(db_settings.DATABASE_URL_ENV, db_url)
    monkeypatch.setenv(settings.WARM_ENV, "1")
    monkeypatch.setattr(jobs, "WARM", ((COUNTING, a), (COUNTING, b)))
    monkeypatch.setattr(jobs, "_RUNNER", None)
    TRAINED.clear()

    def start_server() -> list:
        if jobs._RUNNER is not None:
            jobs._RUNNER.shutdown()
        monkeypatch.setattr(jobs, "_RUNNER", None)
        return jobs.warm_defaults()

    # 1) The first start trains both, once, and keeps them in the database.
    first = start_server()
    assert all(job.wait(120) for job in first)
    wait_until(lambda: len(_rows(db)) == 2 and {r.state for r in _rows(db)} == {"done"}, 30, "both rows done")
    assert [a, b] == TRAINED
    again = jobs.warm_defaults()  # asked again in the same server (another session, a second warm-up)
    assert [j.id for j in again] == [j.id for j in first]
    assert jobs.submit(a, again=True) is first[0]  # a default is never trained again
    assert jobs.default_job(b) is first[1] and jobs.default_result(b) is jobs.snapshot(first[1]).result
    # 2) A visitor's own run finishes: it is kept too (another replica, or this one after a restart, shows it).
    visitor = replace(TINY, seed=413)
    mine = jobs.submit(visitor)
    assert mine.wait(120) and jobs.snapshot(mine).state == DONE and not jobs.snapshot(mine).stored
    wait_until(lambda: len(_rows(db)) == 3, 30, "the visitor's row")
    assert sorted(_rows(db)) == sorted([(COUNTING.name, "done", 1)] * 2 + [(LAB.name, "done", 1)])
    # 3) A restart: both are there at once, loaded, not trained; the same figures. The visitor's model too.
    second = start_server()
    assert all(job.wait(0) for job in second) and [a, b] == TRAINED
    snaps = [jobs.snapshot(job) for job in second]
    assert all(s.state == DONE and s.stored and s.warm and s.stopped_by == "steps" for s in snaps)
    assert [figures(s.result) for s in snaps] == [figures(unpack(pack(f._result))) for f in first]
    assert snaps[0].losses == snaps[0].result.run.losses and snaps[0].step == a.steps
    found = jobs.find(visitor)
    assert found is not None and jobs.snapshot(found).stored
    assert figures(jobs.snapshot(found).result) == figures(unpack(pack(jobs.snapshot(mine).result)))
    # 4) New code: the old entries are not used; each default is trained once more, and replaces its row.
    monkeypatch.setattr(store, "_files_hash", lambda roots: "a-newer-checkout")
    third = start_server()
    assert all(job.wait(120) for job in third)
    assert [a, b, a, b] == TRAINED
    jobs._RUNNER.shutdown()
    monkeypatch.setattr(jobs, "_RUNNER", None)
