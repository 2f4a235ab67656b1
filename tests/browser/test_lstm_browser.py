"""LSTM gates page in real Chromium: a new sentence redraws the gate chart; the freeze override holds c still."""

from __future__ import annotations

import pytest

from s2s_core.fmt import vec as vec_text
from s2s_core.lstm import LstmConfig, lstm_gates, parse_config
from tests.browser.harness import main_text, open_page, wait_for_text, wait_idle

pytestmark = pytest.mark.browser
CHARTS = '[data-testid="stVegaLiteChart"]'


def assert_every_chart_drawn(page, expected: int) -> None:
    """Each Vega-Lite chart compiled and drew (a spec Vega-Lite rejects leaves an empty, zero-height box)."""
    page.wait_for_function(
        """n => {
            const charts = [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')];
            return charts.length >= n && charts.every(c => c.querySelector('svg, canvas')
                && c.getBoundingClientRect().height > 40);
        }""",
        arg=expected, timeout=60_000,
    )


def test_editing_the_sentence_redraws_the_gates(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "lstm", "en")
    before = lstm_gates(LstmConfig()).run
    assert vec_text(before.c[1]) in main_text(page)
    chart = page.locator(CHARTS).first  # the gate bars of the selected step (step 2)
    chart.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    image_before = chart.screenshot()

    box = page.get_by_label("Sentence (words separated by spaces)", exact=True)
    box.fill("나는 오늘 책을 읽는다")
    box.press("Enter")
    after = lstm_gates(parse_config("sentence", "나는 오늘 책을 읽는다", None, 3, 4, 0)).run
    wait_for_text(page, vec_text(after.gates["f"].value[1]))  # step 2's f, in the filled-in formula
    wait_idle(page)
    assert "lstm_sentence=" in page.url  # the sentence is in the shareable link
    chart.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    assert chart.screenshot() != image_before  # the bars were redrawn with the new word's gates


def test_freezing_the_cell_holds_c_and_changes_h(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "lstm", "ko")
    page.get_by_role("button", name="2단계부터 셀 얼리기 (f = 1, i = 0)").click()
    config = parse_config("sentence", "나는 도서관에서 책을 읽는다", None, 3, 4, 0,
                          {"f": ([2, 3, 4], 1), "i": ([2, 3, 4], 0)})
    forced = lstm_gates(config).forced
    wait_for_text(page, f"c = {vec_text(forced.c[-1])}")
    wait_idle(page)
    text = main_text(page)
    assert vec_text(forced.c[0]) == vec_text(forced.c[-1])  # c_1 carried unchanged to the end
    assert f"h = {vec_text(forced.h[-1])}" in text
    assert "처음으로 값이 달라지는 곳은 2단계입니다" in text
    assert "lstm_force_f=" in page.url
    # step (2) + all-steps gates (4) + c and h (2) + override lines (2); the forced gates sit in a closed expander
    assert_every_chart_drawn(page, 10)


def test_out_of_range_link_values_fall_back_without_a_traceback(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "lstm", "en", extra="lstm_H=99&lstm_step=40&lstm_force_f=9")
    assert vec_text(lstm_gates(LstmConfig()).torch_h_n) in main_text(page)
