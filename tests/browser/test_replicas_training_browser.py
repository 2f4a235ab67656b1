"""Two replicas behind nginx share their trained models (issue 28; s2s_jobs/store.py, s2s_jobs/keeper.py), on
PostgreSQL, in real Chromium, each visitor pinned to a replica by nginx's affinity cookie:

- a model trained through replica 1 is shown on replica 2 at once, without a second training (the row's claims
  count the trainings: 1);
- a replica killed mid-training (SIGKILL, its training pool with it): the other replica, which a second visitor's
  page was watching it through, takes the training over once the short lease ($S2S_TRAIN_LEASE) lapses, and both
  visitors see the model: the one who watched, and the one who pressed Train on the dead replica, whose page
  nginx sends to the living one.
"""

from __future__ import annotations

import os

import pytest
import sqlalchemy as sa

from s2s_core.catalog import translate
from scripts.replicas import topology
from scripts.serve import free_port
from tests import postgres
from tests.browser.harness import DESKTOP, main_text, settle, wait_for_text
from tests.browser.replicas import kill_machine, pinned_context, require_nginx
from tests.browser.test_training_browser import SMALL, TRAINED, _open, _train

pytestmark = pytest.mark.browser
LEASE_S = 3  # a dead replica's training is taken over about this long after its last renewal
LONG = "training_steps=1500&training_hidden=16&training_embed=16&training_batch=32&training_max_len=6"


@pytest.fixture(scope="module")
def deployment():
    """Two replicas on one PostgreSQL database, one trainer each, no warm defaults (each test trains its own)."""
    require_nginx()
    with postgres.new_database(postgres.postgres_server()) as url:
        env = {
            **os.environ,
            "S2S_DATABASE_URL": url,
            "S2S_TRAIN_WARM": "0",
            "S2S_TRAIN_WORKERS": "1",
            "S2S_TRAIN_LEASE": str(LEASE_S),
        }
        ports = [free_port() for _ in range(3)]
        with topology(2, ports[0], env, replica_ports=ports[1:]) as top:
            engine = sa.create_engine(url, poolclass=sa.NullPool)  # the test's own reads of the trainings table
            try:
                yield top, engine
            finally:
                engine.dispose()


def claims(engine: sa.Engine, seed: int) -> list[tuple[str, int]]:
    """(state, claims) of the Training lab's rows trained with this seed."""
    with engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT state, claims, config FROM trainings WHERE trainer = 'training'")).all()
    return [(r.state, r.claims) for r in rows if f"('seed', {seed})" in r.config]


def test_a_model_trained_through_replica_1_is_shown_on_replica_2_without_training_again(deployment, browser):
    top, engine = deployment
    one, _ = pinned_context(browser, top, 0, viewport=DESKTOP, locale="en-US")
    two, answered_two = pinned_context(browser, top, 1, viewport=DESKTOP, locale="ko-KR")
    try:
        first = one.new_page()
        first.set_default_timeout(180_000)
        _open(first, top.url, "en", f"{SMALL}&training_seed=9201")
        _train(first, "Train", TRAINED["en"])
        assert claims(engine, 9201) == [("done", 1)]
        second = two.new_page()
        second.set_default_timeout(180_000)
        _open(second, top.url, "ko", f"{SMALL}&training_seed=9201")
        wait_for_text(second, TRAINED["ko"], timeout=60_000)  # the trained page at once: no Train pressed
        assert translate("ko", "training.press_train")[:20] not in main_text(second)
        assert answered_two == {f"127.0.0.1:{top.replica_ports[1]}"}  # all of it from replica 2
        assert claims(engine, 9201) == [("done", 1)]  # trained once for the deployment
    finally:
        one.close()
        two.close()


def test_a_replica_killed_mid_training_leaves_the_job_to_the_other_and_both_visitors_see_the_model(deployment, browser):
    top, engine = deployment
    one, _ = pinned_context(browser, top, 0, viewport=DESKTOP, locale="en-US")
    two, _ = pinned_context(browser, top, 1, viewport=DESKTOP, locale="en-US")
    try:
        trainer = one.new_page()
        trainer.set_default_timeout(180_000)
        _open(trainer, top.url, "en", f"{LONG}&training_seed=9202")
        trainer.get_by_role("button", name="Train").click()
        trainer.wait_for_selector('[data-testid="stProgress"]')
        watcher = two.new_page()
        watcher.set_default_timeout(180_000)
        _open(watcher, top.url, "en", f"{LONG}&training_seed=9202")
        # Replica 2 shows replica 1's training: its row's progress, under the words that say whose it is.
        wait_for_text(watcher, translate("en", "training.remote")[:60], timeout=60_000)
        assert claims(engine, 9202) == [("running", 1)]
        kill_machine(top.replicas[0])
        # The lease lapses; replica 2 claims the row (the second claim) and trains the model itself.
        wait_for_text(watcher, TRAINED["en"], timeout=240_000)
        assert claims(engine, 9202) == [("done", 2)]
        # The visitor who pressed Train on replica 1: their page reconnects through nginx to replica 2, whose new
        # session finds the training by its settings (in the link) and shows the model.
        wait_for_text(trainer, TRAINED["en"], timeout=240_000)
        settle(trainer)
        assert claims(engine, 9202) == [("done", 2)]
    finally:
        one.close()
        two.close()
