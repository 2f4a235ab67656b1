"""A learner's own sentences never reach the model store (issue 29: "never written to disk"): the OWN trainer's job
runs with a real store on both backends and both databases, in a worker process too, and afterwards the store has
no row for it and the database file holds none of the sentences; identical data (and settings) is one job, other
data another."""

from __future__ import annotations

from dataclasses import replace

import pytest
import sqlalchemy as sa

from s2s_core.training import TrainConfig
from s2s_core.translation.own_data import read_pairs
from s2s_core.translation.own_train import OwnConfig, own_data
from s2s_db.tables import trainings
from s2s_jobs.process import ProcessRunner
from s2s_jobs.runner import Runner
from s2s_jobs.snapshot import DONE
from s2s_jobs.store import ModelStore
from s2s_jobs.trainer import OWN
from tests.own_pairs import toy_text
from tests.training_backend import inprocess_training  # noqa: F401 (an autouse fixture)

SETTINGS = TrainConfig(task="ko_en", embed=8, hidden=8, steps=15, batch=16, seed=9)
MARK = "마크다운처럼생긴단어"  # a word only these pairs have: looked for in the database afterwards


def _config(seed: int = 1, settings: TrainConfig = SETTINGS) -> OwnConfig:
    text = toy_text(40, seed) + f"\n{MARK} 책을 읽는다\tread a book"
    return OwnConfig(settings, own_data(read_pairs(text), seed=settings.seed))


@pytest.mark.parametrize("backend", ["inprocess", "process"])
def test_own_pairs_train_beside_a_store_and_leave_nothing_in_it(backend, db, db_url, tmp_path):
    s = ModelStore(db_url)
    runner = Runner(max_running=1, store=s) if backend == "inprocess" else ProcessRunner(max_running=1, store=s)
    try:
        config = _config()
        job = runner.submit(config, trainer=OWN)
        assert runner.submit(_config(), trainer=OWN) is job  # identical data and settings: the same job
        assert job.wait(120)
        snap = runner.snapshot(job)
        assert snap.state == DONE and not snap.stored and job._key is None
        assert snap.result.config == config and snap.result.run.steps_done == SETTINGS.steps
        assert runner.find(_config()) is job
        other = runner.submit(_config(seed=2), trainer=OWN)  # other pairs: another job
        assert other is not job and other.wait(120)
        assert runner.find(replace(config, settings=replace(SETTINGS, seed=10))) is None
        with db.connect() as conn:
            assert conn.execute(sa.select(sa.func.count()).select_from(trainings)).scalar() == 0
    finally:
        runner.shutdown()
    if db_url.startswith("sqlite:///"):
        raw = b"".join(p.read_bytes() for p in tmp_path.glob("*.sqlite3*"))
        assert MARK.encode("utf-8") not in raw and b"read a book" not in raw
    assert MARK not in repr(config) and "read a book" not in repr(config)  # a log line names no sentence
