"""GRU page in real Chromium: a new hidden size redraws gates and parameter counts; z = 1 freezes h."""

from __future__ import annotations

import pytest

from s2s_core.fmt import vec as vec_text
from s2s_core.gru import gru_gates, parse_config
from s2s_core.gru.compare import compare
from tests.browser.harness import main_text, open_page, wait_for_text, wait_idle
from tests.browser.test_lstm_browser import assert_every_chart_drawn

pytestmark = pytest.mark.browser
SENTENCE = "나는 도서관에서 책을 읽는다"


def test_a_new_hidden_size_redraws_the_gates_and_counts(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "gru", "en")
    chart = page.locator('[data-testid="stVegaLiteChart"]').first
    chart.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    image_before = chart.screenshot()

    box = page.get_by_label("Hidden size H")
    box.fill("6")
    box.press("Enter")
    result = gru_gates(parse_config("sentence", SENTENCE, None, 3, 6, 0))
    wait_for_text(page, vec_text(result.torch_h_n))
    wait_idle(page)
    comp = compare(3, 6)
    text = main_text(page)
    assert f"The GRU has {comp.totals['gru']} parameters, the LSTM {comp.totals['lstm']}" in text
    assert "gru_H=6" in page.url
    chart.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    assert chart.screenshot() != image_before


def test_update_gate_one_freezes_h(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "gru", "ko")
    page.get_by_role("button", name="2단계부터 h 얼리기 (z = 1)").click()
    forced = gru_gates(parse_config("sentence", SENTENCE, None, 3, 4, 0, {"z": ([2, 3, 4], 1)})).forced
    wait_for_text(page, f"h = {vec_text(forced.h[-1])}")
    wait_idle(page)
    assert vec_text(forced.h[0]) == vec_text(forced.h[-1])
    assert "gru_force_z=" in page.url
    # step (2) + all-steps gates (3) + h (1) + override line (1) + parameters (1)
    assert_every_chart_drawn(page, 8)
