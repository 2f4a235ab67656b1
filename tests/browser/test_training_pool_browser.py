"""The training pool stops when idle and is back before the learner's click, on a real server in Chromium.

The server here is this file's own: one trainer, no warm-up, and S2S_POOL_IDLE=4, so the forkserver (torch loaded,
~260 MB) stops four seconds after the last activity. Opening the Training lab with settings nobody has trained
shows a Train button, and that wakes the pool; pressing Train then trains as usual, and the pool stops again after
the run. The idle timer's own logic (stale timers, S2S_POOL_IDLE=0) is in tests/core/test_jobs.py.
"""

from __future__ import annotations

import os
import threading
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
        "S2S_POOL_IDLE": "4",
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


class PoolWatch:
    """Every forkserver the server has run, in order, seen by a poller every 20 ms: a pool that is up for only a
    few seconds is still seen, however long the page takes to settle."""

    def __init__(self, server_proc: psutil.Process) -> None:
        self.seen: list[int] = []
        self.up = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, args=(server_proc,), daemon=True)
        self._thread.start()

    def _poll(self, server_proc: psutil.Process) -> None:
        while not self._stop.is_set():
            pids = forkserver_pids(server_proc)
            self.seen += [pid for pid in pids if pid not in self.seen]
            self.up = bool(pids)
            self._stop.wait(0.02)  # the poll interval; close() ends it at once

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)


def _open(page, url: str) -> None:
    page.goto(url)
    settle(page, 180_000)
    close = page.locator('[role="dialog"] button[aria-label="Close"]')  # a fresh server's "Page not found"
    if close.count():
        close.first.click()
        settle(page, 180_000)


def test_the_idle_pool_stops_and_a_train_button_brings_it_back(server, new_page):
    base, proc = server
    watch = PoolWatch(proc)
    try:
        # The first visit (any page) starts the pool (app.py's warm_up, no warm models here); idle, it stops.
        page = new_page()
        _open(page, f"{base}/?lang=en")
        wait_until(lambda: watch.seen, timeout=60, what="the first visit to start the pool")
        wait_until(lambda: not watch.up, timeout=120, what="the idle pool to stop")

        # Settings nobody has trained: the Train button wakes a new forkserver before any click.
        before = len(watch.seen)
        _open(page, f"{base}/training?lang=en&{SMALL}&training_seed=801")
        assert page.get_by_role("button", name="Train", exact=True).count() == 1
        wait_until(lambda: len(watch.seen) > before, timeout=60, what="the Train button to wake the pool")

        # Nobody presses Train: after the idle time it stops again, with the page still open.
        wait_until(lambda: not watch.up, timeout=120, what="the woken pool to stop again")

        # A reload draws the button again and wakes another; the training then runs as usual.
        before = len(watch.seen)
        page.reload()
        settle(page, 180_000)
        wait_until(lambda: len(watch.seen) > before, timeout=60, what="the reload's Train button to wake the pool")
        page.get_by_role("button", name="Train", exact=True).click()
        wait_for_text(page, TRAINED, timeout=240_000)
        assert "30 steps in" in main_text(page)
        wait_until(lambda: not watch.up, timeout=120, what="the pool to stop after the run")
    finally:
        watch.close()
