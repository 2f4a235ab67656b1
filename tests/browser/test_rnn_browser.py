"""RNN page in real Chromium: editing the sentence or the step redraws the formula and the charts; Play steps."""

from __future__ import annotations

import pytest

from tests.browser.harness import main_text, open_page, wait_for_text, wait_idle

pytestmark = pytest.mark.browser

CHARTS = '[data-testid="stVegaLiteChart"]'


@pytest.fixture(scope="module", autouse=True)
def _router_ready(app_server, browser):
    """Visit the root once first, so a fresh server has left Streamlit's old pages-folder mode."""
    ctx = browser.new_context()
    page = ctx.new_page()
    page.set_default_timeout(90_000)
    page.goto(f"{app_server}/?lang=en")
    wait_idle(page, timeout=90_000)
    ctx.close()


def _chart_pixels(page, index: int) -> bytes:
    chart = page.locator(CHARTS).nth(index)
    chart.scroll_into_view_if_needed()
    page.wait_for_timeout(300)  # let Vega finish its paint before comparing pixels
    return chart.screenshot()


def test_editing_the_sentence_redraws_steps_and_heatmap(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "rnn", "en")
    assert "Step 1 of 4: the token “I”" in main_text(page)
    before = _chart_pixels(page, 2)  # the h_t heatmap (time × unit)

    box = page.get_by_role("textbox", name="Sentence", exact=True)
    box.fill("I read a long book")
    box.press("Enter")
    wait_idle(page)
    wait_for_text(page, "Step 1 of 5: the token “I”")
    assert _chart_pixels(page, 2) != before  # a fifth column appeared
    assert "rnn_sentence_en=" in page.url

    # The step slider: End jumps to the last step, whose formula and bars are redrawn.
    bars = _chart_pixels(page, 1)
    page.get_by_role("slider").first.press("End")
    wait_idle(page)
    wait_for_text(page, "Step 5 of 5: the token “book”")
    assert _chart_pixels(page, 1) != bars
    assert page.locator('[data-testid="stException"]').count() == 0


def test_play_walks_to_the_last_step_in_korean(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "rnn", "ko")
    assert "3단계 중 1단계: 토큰 “나는”" in main_text(page)
    page.get_by_role("button", name="재생").click()
    # One step per tick; it stops by itself at the last step (and the Play button comes back).
    wait_for_text(page, "3단계 중 3단계: 토큰 “읽는다”", timeout=180_000)  # a loaded CI box ticks slowly
    page.get_by_role("button", name="재생").wait_for(timeout=60_000)
    wait_idle(page)
    assert page.locator('[data-testid="stException"]').count() == 0
