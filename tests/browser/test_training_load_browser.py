"""A class pressing Train at once, in real Chromium, on a server with one trainer (S2S_TRAIN_WORKERS=1) and a short
grace (S2S_TRAIN_GRACE=3): each session sees its own progress or its place in the queue and ends with its own
model while another session's attention page keeps responding; leaving the queue, Stop, a visitor who closes the
tab (their place is freed), a worker process killed mid-run (a clear message, and the next job runs), the time
limit ending a run inside the worker; screenshots of the queue and progress states.

The server here is this file's own (the environment above, no warm-up, so the queue is predictable); small step
counts come through the URL. Three sessions in `make test`, five with --full (tests/sizes.py).
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from s2s_core.catalog import translate
from scripts.serve import serving
from tests.browser.harness import DESKTOP, PHONE, charts_drawn, main_text, settle, wait_for_text, wait_idle
from tests.sizes import pick
from tests.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]
OUT = Path(__file__).resolve().parent.parent.parent / "screenshots"
SESSIONS = pick(3, 5)
SMALL = "training_hidden=16&training_embed=16&training_batch=32&training_max_len=6"
LONG = f"{SMALL}&training_steps=3000&training_max_seconds=60"  # trains until stopped (or for a minute)
TRAINED = "On the held-out sources, which is higher"  # the quiz under the trained picture
SLOW = 240_000  # ms: a loaded 2-core machine with several Chromium tabs is slow, not broken


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, psutil.Process]]:
    """`streamlit run` with one trainer, a 3 s grace and no warm-up: (base URL, the server's process)."""
    env = os.environ | {
        "S2S_TRAIN_WORKERS": "1",
        "S2S_TRAIN_GRACE": "3",
        "S2S_TRAIN_WARM": "0",
        "S2S_TRAIN_BACKEND": "process",
    }
    with serving(env=env) as (base, proc):
        yield base, psutil.Process(proc.pid)


def workers(server_proc: psutil.Process) -> list[psutil.Process]:
    """The training worker processes: the forkserver's children (the forkserver is the server's child)."""
    found = []
    for child in server_proc.children():
        try:
            if "multiprocessing.forkserver" in " ".join(child.cmdline()):
                found += child.children()
        except psutil.NoSuchProcess:
            continue
    return found


@pytest.fixture
def pool_idle(server):
    """Before and after each test: no worker left (a test's leftovers are cancelled by the grace, then end)."""

    def wait() -> None:
        wait_until(lambda: not workers(server[1]), timeout=90, what="no training worker left")

    wait()
    yield
    wait()


def open_training(page, base: str, query: str, lang: str = "en") -> None:
    page.goto(f"{base}/training?lang={lang}&{query}")
    settle(page, SLOW)
    close = page.locator('[role="dialog"] button[aria-label="Close"]')  # a fresh server's "Page not found"
    if close.count():
        close.first.click()
        settle(page, SLOW)


def record_progress(page) -> None:
    """Remember every progress-bar text the page shows (a short run can come and go between two looks)."""
    page.evaluate("""() => {
        window.__progress = [];
        const seen = () => {
            for (const bar of document.querySelectorAll('[data-testid="stProgress"]')) {
                const text = bar.innerText.trim();
                if (text && !window.__progress.includes(text)) window.__progress.push(text);
            }
        };
        new MutationObserver(seen).observe(document.body, {childList: true, subtree: true, characterData: true});
    }""")


def seen_progress(page) -> list[str]:
    return page.evaluate("() => window.__progress")


def press(page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


def wait_progress(page, pattern: str, timeout: float = SLOW) -> None:
    """Wait until a progress text matching the regular expression has been on screen."""
    page.wait_for_function("p => window.__progress.some(t => new RegExp(p).test(t))", arg=pattern, timeout=timeout)


def test_a_class_presses_train_at_once(server, new_page, pool_idle):
    base, _ = server
    # 1) Another visitor reads the attention page meanwhile.
    reader = new_page()
    reader.goto(f"{base}/attention?lang=en")
    settle(reader, SLOW)
    # 2) The class: distinct settings (their own step counts), everyone presses Train within a moment.
    steps = [30 + 5 * i for i in range(SESSIONS)]
    pages = [new_page() for _ in steps]
    for i, (page, n) in enumerate(zip(pages, steps, strict=True)):
        open_training(page, base, f"{SMALL}&training_steps={n}&training_seed={700 + i}")
        record_progress(page)
    for page in pages:
        press(page, "Train")
    # 3) While they train or wait, the reader's edits still redraw.
    # The edit: the page's first choice in the main area (the attention page's weights / raw scores mode), switched
    # back and forth; a real rerun each time (the number fields sit folded in the explainer frame).
    modes = reader.locator('[data-testid="stMain"] [data-testid="stButtonGroup"]').first.locator("button")
    for k in range(3):
        t0 = time.monotonic()
        before = main_text(reader)
        modes.nth((k + 1) % 2).click()
        reader.wait_for_function(
            "t => document.querySelector('[data-testid=\"stMain\"]').innerText !== t", arg=before, timeout=60_000
        )
        wait_idle(reader, 60_000)
        assert time.monotonic() - t0 < 30, "the attention page stalled while the class trained"
    # 4) Each session ends with its own model; on the way it saw its own progress or its place in the queue.
    for page, n in zip(pages, steps, strict=True):
        wait_for_text(page, TRAINED, timeout=SLOW)
        wait_idle(page, SLOW)
        assert f"{n} steps in" in main_text(page)  # its own run: its own step count
        shown = seen_progress(page)
        assert any(f"of {n}" in s or "in the queue" in s for s in shown), shown
    queued = [p for p in pages if any("in the queue" in s for s in seen_progress(p))]
    assert len(queued) >= SESSIONS - 2  # one trainer: all but the first (or two) waited their turn
    assert all(p.locator('[data-testid="stException"]').count() == 0 for p in [reader, *pages])


def test_leave_the_queue_and_stop(server, new_page, pool_idle):
    base, _ = server
    first, second = new_page(), new_page()
    open_training(first, base, f"{LONG}&training_seed=710")
    open_training(second, base, f"{LONG}&training_seed=711")
    record_progress(first)
    record_progress(second)
    press(first, "Train")
    wait_progress(first, r"Step [1-9]\d* of 3000")
    press(second, "Train")
    wait_progress(second, "you are number 1 in the queue")
    assert "Trainings this server runs at once: 1" in main_text(second)
    press(second, "Leave the queue")
    wait_for_text(second, translate("en", "training.cancelled_before"), timeout=60_000)
    assert second.get_by_role("button", name="Train", exact=True).count() == 1
    press(first, "Stop training")
    wait_for_text(first, "Training was stopped after", timeout=60_000)
    assert first.get_by_role("button", name="Train", exact=True).count() == 1


def test_a_visitor_who_leaves_frees_their_place(server, new_page, pool_idle):
    base, proc = server
    running, leaving, staying = new_page(), new_page(), new_page()
    for page, seed in ((running, 720), (leaving, 721)):
        open_training(page, base, f"{LONG}&training_seed={seed}")
        record_progress(page)
    open_training(staying, base, f"{SMALL}&training_steps=30&training_seed=722")
    record_progress(staying)
    press(running, "Train")
    wait_progress(running, r"Step [1-9]\d* of 3000")
    press(leaving, "Train")
    wait_progress(leaving, "you are number 1 in the queue")
    press(staying, "Train")
    wait_progress(staying, "you are number 2 in the queue")
    # 1) The queued visitor closes the tab: after the grace their place is given up.
    leaving.context.close()
    wait_progress(staying, "you are number 1 in the queue", timeout=60_000)
    # 2) The training visitor closes the tab too: their worker is stopped, and the next in line trains.
    (worker,) = workers(proc)
    running.context.close()
    psutil.wait_procs([worker], timeout=60)
    assert not worker.is_running() or worker.status() == psutil.STATUS_ZOMBIE
    wait_for_text(staying, TRAINED, timeout=SLOW)
    assert "30 steps in" in main_text(staying)


def test_a_worker_killed_mid_run(server, new_page, pool_idle):
    base, proc = server
    victim, next_one = new_page(), new_page()
    open_training(victim, base, f"{LONG}&training_seed=730")
    record_progress(victim)
    press(victim, "Train")
    wait_progress(victim, r"Step [1-9]\d* of 3000")
    (worker,) = workers(proc)
    os.kill(worker.pid, signal.SIGKILL)  # out of memory, an operator's mistake: the process is gone
    wait_for_text(victim, translate("en", "training.crashed"), timeout=60_000)
    assert victim.get_by_role("button", name="Train", exact=True).count() == 1
    # The pool recovers: the next job gets a fresh worker and finishes.
    open_training(next_one, base, f"{SMALL}&training_steps=30&training_seed=731")
    press(next_one, "Train")
    wait_for_text(next_one, TRAINED, timeout=SLOW)
    assert "30 steps in" in main_text(next_one)


def test_the_time_limit_ends_a_run_inside_the_worker(server, new_page, pool_idle):
    page = new_page()
    open_training(page, server[0], f"{SMALL}&training_steps=3000&training_max_seconds=2&training_seed=740")
    press(page, "Train")
    wait_for_text(page, TRAINED, timeout=SLOW)
    warning = page.locator('[data-testid="stAlert"]').filter(has_text="hit the time limit of 2 s")
    assert warning.count() == 1


def _shoot(page, name: str) -> None:
    OUT.mkdir(exist_ok=True)
    path = OUT / f"training-{name}.png"
    page.screenshot(path=str(path), full_page=False)
    assert path.stat().st_size > 10_000


@pytest.mark.parametrize(
    "lang, size", pick([("en", "desktop")], [("en", "desktop"), ("en", "phone"), ("ko", "desktop"), ("ko", "phone")])
)
def test_screenshots_of_progress_and_queue(server, new_page, pool_idle, lang, size):
    """Training and waiting, as each visitor sees them, into screenshots/ (training-progress-*, training-queue-*)."""
    base = server[0]
    viewport = DESKTOP if size == "desktop" else PHONE
    words = {
        "train": translate(lang, "training.train"),
        "leave": translate(lang, "training.leave_queue"),
        "stop": translate(lang, "training.cancel"),
    }
    trainer, waiter = new_page(viewport), new_page(viewport)
    for page, seed in ((trainer, 750), (waiter, 751)):
        open_training(page, base, f"{LONG}&training_seed={seed}", lang)
        record_progress(page)
    press(trainer, words["train"])
    wait_progress(trainer, r"[1-9]\d*\D+3000|3000\D+[1-9]\d*")  # a few steps (Step 12 of 3000 / 3000스텝 중 12스텝)
    charts_drawn(trainer, 1, SLOW)  # the loss curve so far
    press(waiter, words["train"])
    waiter.wait_for_function("() => document.querySelector('[data-testid=\"stProgress\"]')", timeout=SLOW)
    for page in (trainer, waiter):
        page.get_by_role(
            "button", name=words["stop"] if page is trainer else words["leave"]
        ).scroll_into_view_if_needed()
    _shoot(trainer, f"progress-{lang}-{size}")
    _shoot(waiter, f"queue-{lang}-{size}")
    press(waiter, words["leave"])
    press(trainer, words["stop"])
    wait_idle(trainer, SLOW)
