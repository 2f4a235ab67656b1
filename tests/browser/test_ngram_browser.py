"""Next-token page in real Chromium (Korean): a line typed into the corpus (committed with Ctrl+Enter) changes
the counts in the text and the bars of the continuation chart.

The product, smoothing, the quiz and bad input are tested through AppTest (tests/app/test_ngram_app.py).
"""

from __future__ import annotations

import pytest

from s2s_ui.catalog import translate
from tests.browser.harness import chart_labels, charts_drawn, next_frame, open_page, settle, wait_for_text

pytestmark = pytest.mark.browser


def _drawn_probability(page, word: str) -> float:
    """The continuation chart's bar for `word`, as drawn: its aria-label reads "<word>: w; <model>: m; <p>: p"."""
    labels = chart_labels(page, 0)
    for label in labels:
        parts = [part.split(": ", 1)[-1] for part in label.split("; ")]
        if len(parts) > 1 and parts[0] == word:
            return float(parts[-1])  # the last tooltip field is the probability
    raise AssertionError(f"no bar for {word!r} in {labels}")


def test_adding_a_corpus_line_changes_the_counts_and_the_bars(app_server, new_page):
    page = new_page(locale="ko-KR")
    open_page(page, app_server, "ngram", "ko")
    wait_for_text(page, "“오늘 점심에”은(는) 4번 나옵니다")  # 김밥을 2, 라면을 1, 친구를 1
    charts_drawn(page, 1)  # the picture; the other charts wait in folded tabs
    assert _drawn_probability(page, "김밥을") == pytest.approx(2 / 4)
    area = page.get_by_role("textbox", name=translate("ko", "ngram.field.corpus"), exact=True)
    area.click()
    area.press("Control+End")
    area.type("\n오늘 점심에 김밥을 먹었다")
    area.press("Control+Enter")
    wait_for_text(page, "“오늘 점심에”은(는) 5번 나옵니다")  # one more 김밥을 after 오늘 점심에: 3/5
    settle(page)
    charts_drawn(page, 1)  # the picture; the other charts wait in folded tabs
    for _ in range(100):  # Vega may still be swapping in the new data after the script run ended
        if _drawn_probability(page, "김밥을") == pytest.approx(3 / 5):
            break
        next_frame(page)
    assert _drawn_probability(page, "김밥을") == pytest.approx(3 / 5)
    assert "ngram_corpus_ko=" in page.url
