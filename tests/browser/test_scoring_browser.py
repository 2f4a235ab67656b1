"""Bahdanau vs Luong page in real Chromium: switch score functions and windows, read the redrawn weights."""

from __future__ import annotations

import pytest

from s2s_core.fmt import vec as vector_text
from s2s_core.scoring.compute import ScoringConfig, compare
from tests.browser.harness import main_text, open_page, wait_for_text, wait_idle

pytestmark = pytest.mark.browser


def _open(page, base_url: str, lang: str, extra: str = "") -> None:
    """Home first: a fresh server answers its very first deep link to a URL that differs from the file
    name (no longer possible: URL paths equal file names) with a "Page not found" dialog."""
    open_page(page, base_url, "", lang)
    open_page(page, base_url, "scoring", lang, extra)


def _click(page, group: str, name: str) -> None:
    """Pick one option of the segmented control labelled `group` (its options are radios) and wait."""
    page.get_by_role("radiogroup", name=group).get_by_role("radio", name=name, exact=True).click()
    page.wait_for_timeout(300)
    wait_idle(page)


def _weights(config: ScoringConfig, name: str) -> str:
    return vector_text(compare(config).get(name).read.weights[0])


@pytest.mark.parametrize("lang, heading", [("en", "Keys vs values"), ("ko", "키와 값")])
def test_defaults_show_every_function(app_server, new_page, lang, heading):
    page = new_page()
    _open(page, app_server, lang)
    text = main_text(page)
    assert heading in text
    for name in ("additive", "dot", "general", "concat", "scaled_dot"):
        assert _weights(ScoringConfig(), name) in text
    assert page.locator('[data-testid="stGraphVizChart"]').count() == 1


def test_switching_the_score_function_changes_the_weights(app_server, new_page):
    page = new_page()
    _open(page, app_server, "en")
    line = "Weights: " + _weights(ScoringConfig(), "additive")
    assert line in main_text(page)
    _click(page, "Score function to look at", "dot (Luong)")
    wait_for_text(page, "Weights: " + _weights(ScoringConfig(focus="dot"), "dot"))
    assert line not in main_text(page)
    assert "the keys ARE the values" in main_text(page)
    _click(page, "Score function to look at", "general (Luong)")
    wait_for_text(page, "Weights: " + _weights(ScoringConfig(focus="general"), "general"))


def test_local_window_and_wiring(app_server, new_page):
    page = new_page()
    _open(page, app_server, "en")
    _click(page, "Which positions may be read", "local-m: fixed p")
    local = ScoringConfig(window="local_m", center=3, half_width=1)
    wait_for_text(page, "Final weights: " + _weights(local, "additive"))
    assert "−∞" in main_text(page)
    _click(page, "The state that scores", "current s_t")  # with the context still into the input: impossible
    alert = page.locator('[data-testid="stAlert"]').filter(has_text="Where the context goes")
    alert.first.wait_for()
    _click(page, "The context goes", "into the output (with s_t)")
    wait_for_text(page, "run the GRU first, score with the new state s_t")
    flow = compare(ScoringConfig(window="local_m", query_from="current", context_into="output")).flow
    assert vector_text(flow.read.weights[0]) in main_text(page)


def test_a_third_number_in_s_stops_only_dot_in_korean(app_server, new_page):
    page = new_page(locale="ko-KR")
    _open(page, app_server, "ko")
    box = page.get_by_label("디코더 상태 s (숫자를 쉼표로 구분)", exact=True)
    box.fill("0.3, 0.2, 1")
    box.press("Enter")
    page.wait_for_timeout(300)
    wait_idle(page)
    alert = page.locator('[data-testid="stAlert"]').filter(has_text="디코더 상태 s")
    alert.first.wait_for()
    assert "3" in alert.first.inner_text() and "2" in alert.first.inner_text()
    config = ScoringConfig(dec_state=(0.3, 0.2, 1.0))
    assert _weights(config, "additive") in main_text(page)  # additive still scores H_d ≠ H_e
