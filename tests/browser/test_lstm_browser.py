"""LSTM gates page in real Chromium (Korean): the freeze button holds c still, and the picture redraws as that run.

The step view, table input, shared links, bad input, the question and the prepared cases are tested through
AppTest (tests/app/test_lstm_app.py).
"""

from __future__ import annotations

import pytest

from s2s_core.fmt import vec as vec_text
from s2s_core.gated.inputs import DEFAULT_SENTENCES
from s2s_core.lstm import lstm_gates, parse_config
from s2s_ui.catalog import translate
from tests.browser.harness import main_text, open_page, settle, wait_for_text

pytestmark = pytest.mark.browser

# The charts a learner sees (the picture and the open tab's): each compiled and drew; a folded tab's are hidden.
VISIBLE_CHARTS = """n => {
    const shown = [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')].filter(c => c.offsetParent);
    return shown.length >= n
        && shown.every(c => c.querySelector('svg, canvas') && c.getBoundingClientRect().height > 40);
}"""


def picture_title(page) -> str:
    """The main picture's title as drawn (the first chart on the page, beside the controls)."""
    return page.locator('[data-testid="stVegaLiteChart"]').first.locator("svg .role-title-text").text_content()


def test_freezing_the_cell_holds_c_and_redraws_the_picture(app_server, new_page):
    page = new_page(locale="ko-KR")
    open_page(page, app_server, "lstm", "ko")
    page.wait_for_function(VISIBLE_CHARTS, arg=1)
    assert picture_title(page) == translate("ko", "lstm.picture.title")
    page.get_by_role("button", name=translate("ko", "lstm.freeze")).click()
    config = parse_config(
        "sentence", DEFAULT_SENTENCES["ko"], None, 3, 4, 0, {"f": ([2, 3, 4], 1), "i": ([2, 3, 4], 0)}
    )
    forced = lstm_gates(config).forced
    wait_for_text(page, f"c = {vec_text(forced.c[-1])}")
    settle(page)
    text = main_text(page)
    assert vec_text(forced.c[0]) == vec_text(forced.c[-1])  # c_1 carried unchanged to the end
    assert f"h = {vec_text(forced.h[-1])}" in text
    assert translate("ko", "lstm.override_first", step=2) in text
    page.wait_for_function("() => location.search.includes('lstm_force_f=')")  # the override is in the link
    # the picture (now the forced run) + the override tab's c and h lines
    page.wait_for_function(VISIBLE_CHARTS, arg=3)
    assert picture_title(page) == translate("ko", "lstm.picture.title_forced")
