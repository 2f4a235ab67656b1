"""Next-token page in real Chromium: editing the sentence or the corpus redraws the numbers and the charts."""

from __future__ import annotations

import pytest

from tests.browser.harness import main_text, open_page, wait_idle

pytestmark = pytest.mark.browser

CHARTS = '[data-testid="stVegaLiteChart"]'


@pytest.fixture(scope="module", autouse=True)
def _router_ready(app_server, browser):
    """Visit the root once first. A fresh server starts in Streamlit's old pages-folder mode until app.py
    has run; kept as a belt-and-braces warm-up; URL paths now equal file names, so no "Page not found" either way."""
    ctx = browser.new_context()
    page = ctx.new_page()
    page.set_default_timeout(90_000)
    page.goto(f"{app_server}/?lang=en")
    wait_idle(page, timeout=90_000)
    ctx.close()


def _open(page, app_server: str, lang: str, extra: str = "") -> None:
    open_page(page, app_server, "ngram", lang, extra)
    assert page.locator('[role="dialog"]').count() == 0


def _wait_for_text(page, text: str) -> None:
    page.wait_for_function(
        "t => document.querySelector('[data-testid=\"stMain\"]').innerText.includes(t)", arg=text)


def test_editing_the_sentence_redraws_the_product_and_its_chart(app_server, new_page):
    page = new_page()
    _open(page, app_server, "en")
    assert "0.0139" in main_text(page)  # 2/8 × 2/2 × 1/2 × 4/6 × 2/4 × 1/3 × 1/1
    factors = page.locator(CHARTS).nth(1)
    factors.scroll_into_view_if_needed()
    page.wait_for_timeout(300)  # let Vega finish its first paint before comparing pixels
    before = factors.screenshot()

    box = page.get_by_role("textbox", name="Sentence to score", exact=True)
    box.fill("today at lunch we ate rice")
    box.press("Enter")
    wait_idle(page)
    _wait_for_text(page, "0.1111")
    assert "4/8 × 4/4 × 4/4 × 4/6 × 2/4 × 2/3 × 2/2" in main_text(page)
    factors.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    assert factors.screenshot() != before  # the factor chart was redrawn with the new bars
    assert "ngram_sentence_en=" in page.url  # the edit lives in the URL


def test_adding_a_corpus_line_changes_the_counts(app_server, new_page):
    page = new_page()
    _open(page, app_server, "ko")
    assert "“오늘 점심에”은(는) 4번 나옵니다" in main_text(page)  # 김밥을 2, 라면을 1, 친구를 1
    bars = page.locator(CHARTS).first
    bars.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    before = bars.screenshot()
    area = page.get_by_role("textbox", name="말뭉치", exact=True)
    area.click()
    area.press("Control+End")
    area.type("\n오늘 점심에 김밥을 먹었다")
    area.press("Control+Enter")
    wait_idle(page)
    _wait_for_text(page, "“오늘 점심에”은(는) 5번 나옵니다")  # one more 김밥을 after 오늘 점심에: 3/5
    bars.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    assert bars.screenshot() != before
    assert "ngram_corpus_ko=" in page.url


def test_bad_url_values_get_a_message_and_the_page_goes_on(app_server, new_page):
    page = new_page()
    _open(page, app_server, "ko", extra="ngram_n=2")
    alert = page.locator('[data-testid="stAlert"]').filter(has_text="앞부분")
    assert alert.count() >= 1
    assert "2단어" in alert.first.inner_text()
    assert page.locator(CHARTS).count() >= 3  # factors, sparsity and window charts still drawn
