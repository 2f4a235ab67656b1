"""Browser harness: one `streamlit run` per test session, driven by Playwright in Debian's Chromium.

The fixtures here are registered once, in tests/conftest.py: a session fixture imported into two
conftest files becomes two instances, and a second `sync_playwright()` inside the first one's running
loop fails ("Sync API inside the asyncio loop"). Test files import only the helpers below.
A missing browser is a failure when REQUIRE_BROWSER=1 (CI) and a loud skip elsewhere (tests/conftest.py).
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from scripts.serve import free_port, start, stop, wait_healthy

ROOT = Path(__file__).resolve().parent.parent.parent
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'


def browser_missing_reason() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -r requirements-dev.txt)"
    return None


@pytest.fixture(scope="session")
def app_server(browser) -> Iterator[str]:
    """Base URL of a running app, shared by every browser test in the session.

    One visit to / first: a fresh server starts in Streamlit's pages-folder mode until app.py has run
    once (s2s_ui/frame.py), and a deep link whose URL differs from its file name would otherwise meet
    a "page not found" notice on that first visit.
    """
    port = free_port()
    proc = start(port)
    try:
        wait_healthy(proc, port, timeout=90)
        warm = browser.new_page()
        warm.set_default_timeout(180_000)
        warm.goto(f"http://127.0.0.1:{port}/?lang=en")
        wait_idle(warm, timeout=180_000)
        warm.close()
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(proc)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def new_page(browser):
    """Factory: a fresh browser page (own context = own Streamlit session) at a viewport size."""
    contexts = []

    def make(viewport: dict[str, int] = DESKTOP, locale: str = "en-US"):
        ctx = browser.new_context(viewport=viewport, locale=locale)
        contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(180_000)
        return page

    yield make
    for ctx in contexts:
        ctx.close()


def wait_idle(page, timeout: float = 180_000) -> None:
    """Wait until the script run has finished and nothing is still loading; fail on any exception box."""
    page.wait_for_selector(IDLE, timeout=timeout)
    page.wait_for_function(
        """() => {
            const app = document.querySelector('[data-testid="stApp"]');
            return app && app.getAttribute('data-test-script-state') === 'notRunning'
                && !document.querySelector('[data-testid="stSkeleton"]');
        }""",
        timeout=timeout,
    )
    assert page.locator('[data-testid="stException"]').count() == 0, "a traceback reached the page"


def next_frame(page, frames: int = 2) -> None:
    """Wait for `frames` painted animation frames: what the page does in reaction to a render has started."""
    page.evaluate(
        """n => new Promise(done => {
        const tick = k => k ? requestAnimationFrame(() => tick(k - 1)) : done();
        tick(n);
    })""",
        frames,
    )


def settle(page, timeout: float = 180_000) -> None:
    """Wait for idle, let the browser paint twice, wait for idle again: a rerun that the first draw asks for
    (a widget reporting its value on mount) has been requested by then, and is waited for too."""
    wait_idle(page, timeout)
    next_frame(page)
    wait_idle(page, timeout)


def open_page(page, base_url: str, url_path: str, lang: str, extra: str = "") -> None:
    """Go to /<url_path>?lang=<lang>[&extra] and wait for the first full draw (and any rerun it asks for)."""
    query = f"lang={lang}" + (f"&{extra}" if extra else "")
    page.goto(f"{base_url}/{url_path}?{query}")
    settle(page)


def charts_drawn(page, at_least: int = 1, timeout: float = 60_000) -> int:
    """Wait until at least `at_least` visible Vega-Lite charts are on the page and every visible one compiled and
    drew (a spec Vega-Lite rejects leaves an empty, zero-height box); returns how many charts there are.

    Charts in a tab that is not open (or a closed expander) are not visible and have no size: they are skipped.
    """
    page.wait_for_function(
        """n => {
            const charts = [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
                .filter(c => c.checkVisibility());
            return charts.length >= n && charts.every(c => c.querySelector('svg, canvas')
                && c.getBoundingClientRect().height > 40);
        }""",
        arg=at_least,
        timeout=timeout,
    )
    return page.locator('[data-testid="stVegaLiteChart"]').count()


def chart_labels(page, index: int) -> list[str]:
    """The aria-labels of the marks Vega drew in the index-th chart (SVG renderer): what a screen reader reads,
    and the chart's data as drawn ("x: 3; y: 0.25" per bar, point or cell)."""
    chart = page.locator('[data-testid="stVegaLiteChart"]').nth(index)
    return chart.evaluate(
        """c => [...c.querySelectorAll('svg [aria-label]')]
            .filter(e => e.getAttribute('role') === 'graphics-symbol')
            .map(e => e.getAttribute('aria-label'))"""
    )


def wait_for_mark(page, index: int, *parts: str, timeout: float = 30_000) -> None:
    """Wait until a mark of the index-th chart has an accessible label holding every one of `parts` (the chart
    was redrawn with them, as `chart_labels` would read it); on a timeout, keep a screenshot."""
    try:
        page.wait_for_function(
            """([index, parts]) => {
                const chart = document.querySelectorAll('[data-testid="stVegaLiteChart"]')[index];
                return !!chart && [...chart.querySelectorAll('svg [aria-label]')]
                    .filter(e => e.getAttribute('role') === 'graphics-symbol')
                    .some(e => parts.every(p => e.getAttribute('aria-label').includes(p)));
            }""",
            arg=[index, list(parts)],
            timeout=timeout,
        )
    except Exception:
        keep_failure_screenshot(page, f"wait_for_mark {parts!r}")
        raise


def full_height(page, viewport: dict[str, int]) -> None:
    """Streamlit scrolls inside its main block, not the document: grow the viewport to the content, for a
    full-page screenshot."""
    height = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.set_viewport_size({"width": viewport["width"], "height": min(int(height) + 50, 12_000)})
    next_frame(page)  # the width is unchanged, so nothing is re-laid out: one painted frame is enough
    wait_idle(page)


def main_text(page) -> str:
    return page.locator('[data-testid="stMain"]').inner_text()


def edit_grid_cell(page, grid_index: int, row: int, col: int, text: str) -> None:
    """Type `text` into a st.data_editor cell (0-based data row/col) and commit it, then wait for the rerun.

    The grid is a canvas; its cells are reached the way a keyboard user reaches them, and read through the
    grid's own accessibility table (td#glide-cell-<col>-<row>, column 0 being the row markers): focusing the
    grid selects its first cell, the arrow keys move the selection, Enter opens the editor on it.
    """
    grid = page.locator('[data-testid="stDataFrame"]').nth(grid_index)
    grid.scroll_into_view_if_needed()
    target = grid.locator(f"#glide-cell-{col + 1}-{row}")
    target.wait_for(state="attached")  # the accessibility table is drawn once the grid is on screen
    value = target.text_content()
    grid.locator('[data-testid="data-grid-canvas"]').focus()
    grid.locator('#glide-cell-1-0[aria-selected="true"]').wait_for(state="attached", timeout=30_000)
    for key, times in (("ArrowDown", row), ("ArrowRight", col)):
        for _ in range(times):
            page.keyboard.press(key)
    grid.locator(f'#glide-cell-{col + 1}-{row}[aria-selected="true"]').wait_for(state="attached", timeout=30_000)
    page.keyboard.press("Enter")  # open the cell editor
    editor = page.locator("textarea.gdg-input, input.gdg-input").first
    editor.wait_for(state="visible", timeout=30_000)
    assert editor.input_value() == value, f"the editor opened on another cell: {editor.input_value()!r} != {value!r}"
    # Type only once the overlay editor has focus: under load it opens late and keys would be lost.
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.classList.contains('gdg-input')", timeout=30_000
    )
    page.keyboard.press("Control+a")
    page.keyboard.type(text)
    # Enter commits what React last rendered: wait until the editor holds the typed text, then for two painted
    # frames, by which React has rendered it (Enter right after the last key committed the old value).
    page.wait_for_function(
        "t => document.activeElement && document.activeElement.value === t", arg=text, timeout=30_000
    )
    next_frame(page)
    page.keyboard.press("Enter")  # commit: Streamlit reruns
    editor.wait_for(state="hidden", timeout=30_000)
    settle(page)


def wait_for_text(page, text: str, timeout: float = 30_000, within: str = '[data-testid="stMain"]') -> None:
    """Wait until the main area (or the element `within` selects) shows `text` (after a rerun redrew it); on a
    timeout, keep a screenshot."""
    try:
        page.wait_for_function(
            "([t, css]) => { const el = document.querySelector(css); return el !== null && el.innerText.includes(t) }",
            arg=[text, within],
            timeout=timeout,
        )
    except Exception:
        keep_failure_screenshot(page, f"wait_for_text {text!r}")
        raise


def keep_failure_screenshot(page, what: str) -> None:
    """A full-viewport screenshot in screenshots/failures/ (git-ignored), named after the page's URL path."""
    out = ROOT / "screenshots" / "failures"
    out.mkdir(parents=True, exist_ok=True)
    name = page.url.split("//", 1)[-1].split("/", 1)[-1].split("?", 1)[0] or "home"
    path = out / f"{name}-{int(time.time())}.png"
    page.screenshot(path=str(path))
    print(f"\n[browser] {what} failed at {page.url}; screenshot: {path}", file=sys.stderr)


def click_until_linked(page, button, param: str, timeout: float = 20_000) -> None:
    """Click `button`, whose rerun writes `param` into the link; if the link has not got it within `timeout`, settle
    and click once more. Under a loaded 2-worker `make test` a click has been swallowed twice (GRU and LSTM freeze:
    a rerun starting as the click landed); a learner would click again too. Use only for idempotent buttons."""
    has_param = f"() => location.search.includes('{param}=')"
    button.click()
    try:
        page.wait_for_function(has_param, timeout=timeout)
    except Exception:
        settle(page)
        button.click()


def open_tab(page, tab, timeout: float = 60_000) -> None:
    """Click `tab` (a locator, or the exact name of a tab in the main area) and wait until its panel holds text.

    The tabs under a picture are lazy (s2s_ui/explainer.details): the click asks for a rerun, and only that rerun
    draws the tab's content. Waiting for the script to be idle is not enough, since the check can run before the
    rerun starts; the open tab's panel (the one element named by its aria-controls, Streamlit keeps no other) is
    empty until the content arrives.
    """
    if isinstance(tab, str):
        tab = page.locator('[data-testid="stMain"]').get_by_role("tab", name=tab, exact=True)
    name = tab.inner_text().strip()
    tab.click()
    try:
        page.wait_for_function(
            """name => {
                // Found again on every poll: a rerun may replace the tab's element.
                const tabs = [...document.querySelectorAll('[data-testid="stMain"] [role="tab"]')];
                const tab = tabs.find(t => t.innerText.trim() === name);
                if (!tab || tab.getAttribute('aria-selected') !== 'true') return false;
                const panel = document.getElementById(tab.getAttribute('aria-controls'));
                const app = document.querySelector('[data-testid="stApp"]');
                return panel !== null && panel.innerText.trim().length > 0
                    && app.getAttribute('data-test-script-state') === 'notRunning';
            }""",
            arg=name,
            timeout=timeout,
        )
    except Exception:
        keep_failure_screenshot(page, "open_tab")
        raise
    settle(page)
