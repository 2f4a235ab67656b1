"""RNN page in real Chromium (Korean): Play walks the step view to the last step by itself, on a timer only a
browser runs, and every chart draws.

The step slider, the formula, the check, the quiz and bad input are tested through AppTest (tests/app/test_rnn_app.py).
"""

from __future__ import annotations

import pytest

from s2s_ui.catalog import translate
from tests.browser.harness import charts_drawn, main_text, open_page, settle, wait_for_text

pytestmark = pytest.mark.browser


def test_play_walks_to_the_last_step(app_server, new_page):
    page = new_page(locale="ko-KR")
    open_page(page, app_server, "rnn", "ko")
    assert "3단계 중 1단계: 토큰 “나는”" in main_text(page)
    play = page.get_by_role("button", name=translate("ko", "rnn.play"))
    play.click()
    # One step per tick; it stops by itself at the last step (and the Play button comes back).
    wait_for_text(page, "3단계 중 3단계: 토큰 “읽는다”", timeout=180_000)  # a loaded CI box ticks slowly
    play.wait_for(timeout=60_000)
    settle(page)
    charts_drawn(page, 3)
