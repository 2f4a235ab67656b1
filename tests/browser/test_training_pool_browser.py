"""The training pool stops when idle and is back before the learner's click, on a real server in Chromium.

The server here is this file's own: one trainer, no warm-up, and S2S_POOL_IDLE=3, so the forkserver (torch loaded,
~260 MB) stops three seconds after the last activity. Opening the Training lab with settings nobody has trained
shows a Train button, and that wakes the pool; pressing Train then trains as usual, and the pool stops again after
the run. The idle timer's own logic (stale timers, S2S_POOL_IDLE=0) is in tests/core/test_jobs.py.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import psutil
import pytest

from scripts.serve import serving
from tests.browser.harness import main_text, settle, wait_for_text
from tests.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]
SMALL = "training_hidden=16&training_embed=16&training_batch=32&training_max_len=6&training_steps=30"
TRAINED = "On the held-out sources, which is higher"  # the quiz under the trained picture


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, psutil.Process]]:
    env = os.environ | {
        "S2S_TRAIN_WORKERS": "1",
        "S2S_TRAIN_WARM": "0",
        "S2S_TRAIN_BACKEND": "process",
        "S2S_POOL_IDLE": "3",
    }
    with serving(env=env) as (base, proc):
        yield base, psutil.Process(proc.pid)


def forkserver_pids(server_proc: psutil.Process) -> list[int]:
    found = []
    for child in server_proc.children():
        try:
            if "multiprocessing.forkserver" in " ".join(child.cmdline()):
                found.append(child.pid)
        except psutil.NoSuchProcess:
            continue
    return found


def test_the_idle_pool_stops_and_a_train_button_brings_it_back(server, new_page):
    base, proc = server
    up = lambda: bool(forkserver_pids(proc))  # noqa: E731
    # The server's own start-up pool goes idle (no warm-up here) and stops.
    wait_until(lambda: not up(), timeout=120, what="the idle pool to stop")

    page = new_page()
    page.goto(f"{base}/training?lang=en&{SMALL}&training_seed=801")
    settle(page, 180_000)
    close = page.locator('[role="dialog"] button[aria-label="Close"]')  # a fresh server's "Page not found"
    if close.count():
        close.first.click()
        settle(page, 180_000)
    train = page.get_by_role("button", name="Train", exact=True)
    assert train.count() == 1
    wait_until(up, timeout=60, what="the Train button to wake the pool")  # before any click
    woken = forkserver_pids(proc)

    # Nobody presses Train: after the idle time it stops again, with the page still open.
    wait_until(lambda: not up(), timeout=120, what="the woken pool to stop again")

    # A reload draws the button again and wakes it; the training then runs as usual.
    page.reload()
    settle(page, 180_000)
    wait_until(up, timeout=60, what="the reload's Train button to wake the pool")
    assert forkserver_pids(proc) != woken  # a new forkserver, not the old one
    page.get_by_role("button", name="Train", exact=True).click()
    wait_for_text(page, TRAINED, timeout=240_000)
    assert "30 steps in" in main_text(page)
    wait_until(lambda: not up(), timeout=120, what="the pool to stop after the run")
