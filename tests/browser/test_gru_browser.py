"""GRU page in real Chromium: the cell picture steps in the browser; update gate z = 1 copies h_(t-1) unchanged,
so the freeze holds h at h_1, and the picture redraws as the forced run.

The tab's step view, the LSTM comparison, bad input and the question are tested through AppTest
(tests/app/test_gru_app.py).
"""

from __future__ import annotations

import pytest

from s2s_core.catalog import translate
from s2s_core.fmt import vec as vec_text
from s2s_core.gated.fields import DEFAULT_SENTENCES
from s2s_core.gru import gru_gates, parse_config
from tests.browser.harness import click_until_linked, open_page, settle, wait_for_text
from tests.browser.test_lstm_browser import VISIBLE_CHARTS, open_forcing, picture_title, step_moves_in_the_browser

pytestmark = pytest.mark.browser


def test_update_gate_one_freezes_h_and_the_picture_steps(app_server, new_page):
    page = new_page(locale="ko-KR")
    open_page(page, app_server, "gru", "ko")
    page.wait_for_function(VISIBLE_CHARTS, arg=1)
    assert picture_title(page) == translate("ko", "gru.picture.title")
    run = gru_gates(parse_config("sentence", DEFAULT_SENTENCES["ko"], None, 3, 4, 0)).run
    step_moves_in_the_browser(page, "gru", run.h, DEFAULT_SENTENCES["ko"].split())
    open_forcing(page, translate("ko", "gru.force_heading"))
    settle(page)  # the last step's fragment rerun has ended: a click during it was lost under load (CI run)
    click_until_linked(page, page.get_by_role("button", name=translate("ko", "gru.freeze")), "gru_force_z")
    forced = gru_gates(parse_config("sentence", DEFAULT_SENTENCES["ko"], None, 3, 4, 0, {"z": ([2, 3, 4], 1)})).forced
    wait_for_text(page, f"h = {vec_text(forced.h[-1])}")
    settle(page)
    assert vec_text(forced.h[0]) == vec_text(forced.h[-1])
    page.wait_for_function("() => location.search.includes('gru_force_z=')")  # the override is in the link
    page.wait_for_function(VISIBLE_CHARTS, arg=2)  # the picture (now the forced run) + the override tab's h lines
    assert picture_title(page) == translate("ko", "gru.picture.title_forced")
