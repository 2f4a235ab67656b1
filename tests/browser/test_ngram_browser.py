"""Next-token page in real Chromium: editing the sentence or the corpus redraws the numbers and the charts."""

from __future__ import annotations

import pytest

from tests.browser.conftest import main_text, open_page, wait_idle

pytestmark = pytest.mark.browser

CHARTS = '[data-testid="stVegaLiteChart"]'


def _wait_for_text(page, text: str) -> None:
    page.wait_for_function(
        "t => document.querySelector('[data-testid=\"stMain\"]').innerText.includes(t)", arg=text)


def test_editing_the_sentence_redraws_the_product_and_its_chart(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "next-token", "en")
    assert "0.0139" in main_text(page)  # 2/8 × 2/2 × 1/2 × 4/6 × 2/4 × 1/3 × 1/1
    factors = page.locator(CHARTS).nth(1)
    factors.scroll_into_view_if_needed()
    page.wait_for_timeout(300)  # let Vega finish its first paint before comparing pixels
    before = factors.screenshot()

    box = page.get_by_label("Sentence to score")
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
    open_page(page, app_server, "next-token", "ko")
    assert "2/4" in main_text(page)  # 오늘 점심에 → 김밥을 2/4
    area = page.get_by_label("말뭉치", exact=True)
    area.click()
    area.press("Control+End")
    area.type("\n오늘 점심에 김밥을 먹었다")
    area.press("Control+Enter")
    wait_idle(page)
    _wait_for_text(page, "3/5")  # one more 김밥을 after 오늘 점심에
    assert "ngram_corpus_ko=" in page.url


def test_bad_url_values_get_a_message_and_the_page_goes_on(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "next-token", "ko", extra="ngram_n=2")
    alert = page.locator('[data-testid="stAlert"]').filter(has_text="앞부분")
    assert alert.count() >= 1
    assert "2단어" in alert.first.inner_text()
    assert page.locator(CHARTS).count() >= 3  # factors, sparsity and window charts still drawn
