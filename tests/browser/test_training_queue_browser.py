"""Shedding on a real server in Chromium (s2s_jobs/runner.py QueueFull): one trainer and a queue of one
($S2S_TRAIN_QUEUE_CAP=1). One visitor trains, a second waits (number 1 in the queue), and a third, on a phone in
Korean, is told the queue is full and when a place frees, with the Train button kept; once the first visitor stops,
the third visitor's press queues their training. The refusal's rules (joining, trained settings, defaults,
another replica's models) are in tests/core/test_jobs.py and tests/db/test_replica_claims.py.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

import pytest

from s2s_core.catalog import translate
from scripts.serve import serving
from tests.browser.harness import PHONE, main_text, settle, wait_for_text
from tests.browser.test_training_browser import _open

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]
LONG = "training_steps=3000&training_max_seconds=60&training_hidden=16&training_embed=16&training_batch=32"


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    env = os.environ | {"S2S_TRAIN_WORKERS": "1", "S2S_TRAIN_WARM": "0", "S2S_TRAIN_QUEUE_CAP": "1"}
    with serving(env=env) as (base, _proc):
        yield base


def _press_train(page, lang: str) -> None:
    page.get_by_role("button", name=translate(lang, "training.train"), exact=True).click()


def test_a_full_queue_tells_the_third_visitor_the_wait_and_takes_them_once_a_place_frees(server, new_page):
    first, second = new_page(), new_page()
    third = new_page(PHONE, "ko-KR")
    for page, seed in ((first, 9301), (second, 9302)):
        _open(page, server, "en", f"{LONG}&training_seed={seed}")
        _press_train(page, "en")
    wait_for_text(first, translate("en", "training.cancel"), timeout=120_000)  # training: its Stop button
    wait_for_text(second, "number 1 in the queue", timeout=120_000)
    _open(third, server, "ko", f"{LONG}&training_seed=9303")
    _press_train(third, "ko")
    head = translate("ko", "training.queue_full", waiting=1, cap=1, wait="").split("약")[0]
    wait_for_text(third, head, timeout=120_000)
    settle(third)
    text = main_text(third)
    assert re.search(r"약 \d+초 뒤에 자리가 나니", text), text[:400]  # the wait, a number of seconds
    assert "대기열 1번째" not in text  # refused, not queued
    first.get_by_role("button", name=translate("en", "training.cancel")).click()  # a place frees...
    first.get_by_role("button", name=translate("en", "training.train"), exact=True).wait_for(timeout=120_000)
    wait_for_text(second, translate("en", "training.cancel"), timeout=120_000)  # ...the second visitor trains
    _press_train(third, "ko")  # the same button, pressed again
    wait_for_text(third, "대기열 1번째", timeout=120_000)
    for page, lang in ((third, "ko"), (second, "en")):
        label = translate(lang, "training.leave_queue" if page is third else "training.cancel")
        page.get_by_role("button", name=label).click()
        settle(page)
