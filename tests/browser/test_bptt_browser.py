"""BPTT page in real Chromium: moving ρ or the truncation redraws the gradient chart and its numbers."""

from __future__ import annotations

import pytest

from s2s_core.bptt import BpttConfig, backprop_through_time
from s2s_core.bptt.frames import sci
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


def test_raising_rho_redraws_the_gradient_chart(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "bptt", "en")
    at_09 = backprop_through_time(BpttConfig(rho=0.9)).by_cell("rnn").ratio(20, full=False)
    assert f"RNN: 20 steps back the gradient is {sci(at_09)}" in main_text(page)
    before = _chart_pixels(page, 0)
    # The ρ slider is the second slider (after T); two steps of 0.05 to the right: ρ = 1.0.
    rho = page.get_by_role("slider").nth(1)
    rho.press("ArrowRight")
    wait_idle(page)
    rho.press("ArrowRight")
    wait_idle(page)
    at_10 = backprop_through_time(BpttConfig(rho=1.0)).by_cell("rnn").ratio(20, full=False)
    wait_for_text(page, f"RNN: 20 steps back the gradient is {sci(at_10)}")
    assert _chart_pixels(page, 0) != before
    assert "bptt_rho=1" in page.url


def test_truncation_cuts_the_curves_in_korean(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "bptt", "ko")
    before = _chart_pixels(page, 0)
    box = page.get_by_role("spinbutton", name="절단: k단계마다 detach() (0이면 끔)")
    box.fill("10")
    box.press("Enter")
    wait_idle(page)
    wait_for_text(page, "10, 20단계 뒤에서 상태를 detach합니다")
    assert "RNN: 20단계 앞의 기울기는 마지막 단계의 0배입니다" in main_text(page)
    assert _chart_pixels(page, 0) != before
    assert page.locator('[data-testid="stException"]').count() == 0
