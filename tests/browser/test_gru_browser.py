"""GRU page in real Chromium (Korean): the freeze button holds h still, and every chart compiles and draws.

Hidden sizes, parameter counts, the step view and bad input are tested through AppTest (tests/app/test_gru_app.py).
"""

from __future__ import annotations

import pytest

from s2s_core.fmt import vec as vec_text
from s2s_core.gru import gru_gates, parse_config
from s2s_ui.catalog import translate
from tests.browser.harness import charts_drawn, open_page, settle, wait_for_text

pytestmark = pytest.mark.browser
SENTENCE = "나는 도서관에서 책을 읽는다"


def test_update_gate_one_freezes_h(app_server, new_page):
    page = new_page(locale="ko-KR")
    open_page(page, app_server, "gru", "ko")
    page.get_by_role("button", name=translate("ko", "gru.freeze")).click()
    forced = gru_gates(parse_config("sentence", SENTENCE, None, 3, 4, 0, {"z": ([2, 3, 4], 1)})).forced
    wait_for_text(page, f"h = {vec_text(forced.h[-1])}")
    settle(page)
    assert vec_text(forced.h[0]) == vec_text(forced.h[-1])
    page.wait_for_function("() => location.search.includes('gru_force_z=')")  # the override is in the link
    # step (2) + all-steps gates (3) + h (1) + override line (1) + parameters (1)
    charts_drawn(page, 8)
