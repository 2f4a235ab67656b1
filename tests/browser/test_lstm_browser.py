"""LSTM gates page in real Chromium: the cell picture steps in the browser (no rerun) and redraws after an edit;
the freeze button (beside the picture) holds c still, and the picture redraws as that run, dashed.

The tab's step view, table input, shared links, bad input, the question and the prepared cases are tested
through AppTest (tests/app/test_lstm_app.py).
"""

from __future__ import annotations

import pytest

from s2s_core.catalog import translate
from s2s_core.fmt import num
from s2s_core.fmt import vec as vec_text
from s2s_core.gated.fields import DEFAULT_SENTENCES
from s2s_core.lstm import lstm_gates, parse_config
from tests.browser.harness import click_until_linked, main_text, open_page, settle, wait_for_text

pytestmark = pytest.mark.browser

# The charts a learner sees (the picture and the open tab's): each compiled and drew; a folded tab's are hidden.
VISIBLE_CHARTS = """n => {
    const shown = [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')].filter(c => c.offsetParent);
    return shown.length >= n
        && shown.every(c => c.querySelector('svg, canvas') && c.getBoundingClientRect().height > 40);
}"""
# Move the picture's own step slider as a hand does (value + `input`), wait two painted frames, report the
# picture's text marks then and whether a script run had started by that moment.
MOVE = """async ([chart, value]) => {
    const input = document.querySelector(chart + ' .vega-bindings input[type=range]');
    input.value = String(value);
    input.dispatchEvent(new Event('input', {bubbles: true}));
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    const texts = [...document.querySelectorAll(chart + ' svg text')].map(t => t.textContent);
    const state = document.querySelector('[data-testid="stApp"]').getAttribute('data-test-script-state');
    return {texts, state};
}"""
HAS_TEXT = "([chart, text]) => [...document.querySelectorAll(chart + ' svg text')].some(t => t.textContent === text)"


def d3_num(x: float) -> str:
    """num(x) as the chart's d3-format writes it (a true minus sign)."""
    return num(x).replace("-", "\u2212")


def picture_title(page) -> str:
    """The main picture's title as drawn (the first chart on the page, beside the controls)."""
    return page.locator('[data-testid="stVegaLiteChart"]').first.locator("svg .role-title-text").text_content()


def step_moves_in_the_browser(page, ns: str, run_state, words: list[str]) -> None:
    """Both pages: the slider moves the picture to step 3 with no script run; the fragment's reading follows."""
    chart = f".st-key-{ns}_step_chart"
    page.wait_for_function(HAS_TEXT, arg=[chart, f"x_t = 2 · {words[1]}"])  # opens on step 2
    seen = page.evaluate(MOVE, [chart, 3])
    assert seen["state"] == "notRunning"  # drawn by the browser before any script run
    assert f"x_t = 3 · {words[2]}" in seen["texts"] and f"x_t = 2 · {words[1]}" not in seen["texts"]
    assert d3_num(float(run_state[2, 0])) in seen["texts"]  # step 3's h_t (or c_t) printed in its square
    page.wait_for_function(f"() => location.search.includes('{ns}_step=3')")  # then the step goes into the link


def slider_and_play_on_the_first_screen(page, lang: str) -> None:
    """At 1280×900 (a laptop screen) the picture's step slider and its Play button sit on the first screen."""
    slider = page.locator(".st-key-lstm_step_chart .vega-bindings input[type=range]")
    play = page.get_by_role("button", name=translate(lang, "steps.play"))
    play.wait_for()
    for box in (slider.bounding_box(), play.bounding_box()):
        assert box is not None and box["y"] + box["height"] <= page.viewport_size["height"], box


def open_forcing(page, heading: str) -> None:
    """Unfold 'Force a gate' in the controls column (the override sits beside the picture, folded)."""
    page.locator('[data-testid="stExpander"] summary', has_text=heading).click()


def test_the_picture_steps_in_the_browser_and_redraws_after_an_edit(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "lstm", "en")
    page.wait_for_function(VISIBLE_CHARTS, arg=1)
    assert picture_title(page) == translate("en", "lstm.picture.title")
    slider_and_play_on_the_first_screen(page, "en")
    run = lstm_gates(parse_config("sentence", DEFAULT_SENTENCES["en"], None, 3, 4, 0)).run
    step_moves_in_the_browser(page, "lstm", run.c, DEFAULT_SENTENCES["en"].split())
    wait_for_text(page, translate("en", "lstm.picture.reading", step="3 · a", kept="", written="", exposed="")[:8])
    # An edit reruns the page: the picture is redrawn from the new sentence (at the step the slider was on).
    box = page.locator(".st-key-lstm_sentence input")
    box.fill("the cat sat down")
    box.press("Enter")
    settle(page)
    edited = lstm_gates(parse_config("sentence", "the cat sat down", None, 3, 4, 0)).run
    page.wait_for_function(HAS_TEXT, arg=[".st-key-lstm_step_chart", "x_t = 3 · sat"])
    page.wait_for_function(HAS_TEXT, arg=[".st-key-lstm_step_chart", d3_num(float(edited.c[2, 0]))])


def test_freezing_the_cell_holds_c_and_redraws_the_picture(app_server, new_page):
    page = new_page(locale="ko-KR")
    open_page(page, app_server, "lstm", "ko")
    page.wait_for_function(VISIBLE_CHARTS, arg=1)
    assert picture_title(page) == translate("ko", "lstm.picture.title")
    slider_and_play_on_the_first_screen(page, "ko")
    open_forcing(page, translate("ko", "lstm.force_heading"))
    settle(page)  # any fragment rerun has ended: a click during one was lost under load (GRU's twin, CI run)
    click_until_linked(page, page.get_by_role("button", name=translate("ko", "lstm.freeze")), "lstm_force_f")
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
    legend = page.locator(".st-key-lstm_step_chart svg .role-legend").first.text_content()
    assert translate("ko", "lstm.picture.natural") in legend and translate("ko", "lstm.picture.forced") in legend
