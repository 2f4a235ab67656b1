"""LSTM gates page in real Chromium (Korean): the freeze button holds c still, and every chart compiles and draws.

The step view, table input, shared links and bad input are tested through AppTest (tests/app/test_lstm_app.py).
"""

from __future__ import annotations

import pytest

from s2s_core.fmt import vec as vec_text
from s2s_core.lstm import lstm_gates, parse_config
from s2s_ui.catalog import translate
from tests.browser.harness import charts_drawn, main_text, open_page, settle, wait_for_text

pytestmark = pytest.mark.browser


def test_freezing_the_cell_holds_c_and_changes_h(app_server, new_page):
    page = new_page(locale="ko-KR")
    open_page(page, app_server, "lstm", "ko")
    page.get_by_role("button", name=translate("ko", "lstm.freeze")).click()
    config = parse_config(
        "sentence", "나는 도서관에서 책을 읽는다", None, 3, 4, 0, {"f": ([2, 3, 4], 1), "i": ([2, 3, 4], 0)}
    )
    forced = lstm_gates(config).forced
    wait_for_text(page, f"c = {vec_text(forced.c[-1])}")
    settle(page)
    text = main_text(page)
    assert vec_text(forced.c[0]) == vec_text(forced.c[-1])  # c_1 carried unchanged to the end
    assert f"h = {vec_text(forced.h[-1])}" in text
    assert translate("ko", "lstm.override_first", step=2) in text
    page.wait_for_function("() => location.search.includes('lstm_force_f=')")  # the override is in the link
    # step (2) + all-steps gates (4) + c and h (2) + override lines (2); the forced gates sit in a closed expander
    charts_drawn(page, 10)
