"""GRU page in real Chromium (Korean): the freeze button holds h still, and the picture redraws as that run.

Hidden sizes, parameter counts, the step view, bad input, the question and the prepared cases are tested through
AppTest (tests/app/test_gru_app.py).
"""

from __future__ import annotations

import pytest

from s2s_core.fmt import vec as vec_text
from s2s_core.gated.inputs import DEFAULT_SENTENCES
from s2s_core.gru import gru_gates, parse_config
from s2s_ui.catalog import translate
from tests.browser.harness import open_page, settle, wait_for_text
from tests.browser.test_lstm_browser import VISIBLE_CHARTS, picture_title

pytestmark = pytest.mark.browser


def test_update_gate_one_freezes_h(app_server, new_page):
    page = new_page(locale="ko-KR")
    open_page(page, app_server, "gru", "ko")
    page.wait_for_function(VISIBLE_CHARTS, arg=1)
    page.get_by_role("button", name=translate("ko", "gru.freeze")).click()
    forced = gru_gates(parse_config("sentence", DEFAULT_SENTENCES["ko"], None, 3, 4, 0, {"z": ([2, 3, 4], 1)})).forced
    wait_for_text(page, f"h = {vec_text(forced.h[-1])}")
    settle(page)
    assert vec_text(forced.h[0]) == vec_text(forced.h[-1])
    page.wait_for_function("() => location.search.includes('gru_force_z=')")  # the override is in the link
    page.wait_for_function(VISIBLE_CHARTS, arg=2)  # the picture (now the forced run) + the override tab's h lines
    assert picture_title(page) == translate("ko", "gru.picture.title_forced")
