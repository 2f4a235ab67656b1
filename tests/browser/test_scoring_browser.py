"""Bahdanau vs Luong page in real Chromium: the picture draws; picking a score function (a segmented control in the
folded settings, by its role and label) redraws its weights in its tab, and the wiring diagram (Graphviz) draws;
Reset brings the position slider back in the browser's own view.

Windows, wiring, bad input and every function's weights are tested through AppTest
(tests/app/test_scoring_app.py).
"""

from __future__ import annotations

import pytest

from s2s_core.fmt import vec as vector_text
from s2s_core.scoring.compute import ScoringConfig, compare
from s2s_ui.catalog import translate
from tests.browser.harness import main_text, open_page, settle, wait_for_text

pytestmark = pytest.mark.browser


def _weights_line(config: ScoringConfig, name: str) -> str:
    weights = vector_text(compare(config).get(name).read.weights[0])
    return translate("en", "scoring.weights_line", weights=weights, total="1")


def test_switching_the_score_function_changes_the_weights(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "scoring", "en")
    # The picture (every function's weights) is drawn beside the controls.
    page.locator('[data-testid="stVegaLiteChart"] svg').first.wait_for(state="visible")
    page.get_by_role("tab", name=translate("en", "scoring.tab_focus")).click()
    wait_for_text(page, _weights_line(ScoringConfig(), "additive"))
    page.wait_for_function("() => location.search.includes('scoring_tabs=focus')")  # the open tab is in the link
    page.get_by_text(translate("en", "scoring.more_settings")).click()  # the folded settings
    group = page.get_by_role("radiogroup", name=translate("en", "scoring.focus_label"))
    group.get_by_role("radio", name=translate("en", "scoring.fn.dot"), exact=True).click()
    wait_for_text(page, _weights_line(ScoringConfig(focus="dot"), "dot"))
    settle(page)
    assert translate("en", "scoring.keys_are_values", name=translate("en", "scoring.fn.dot")) in main_text(page)
    page.wait_for_function("() => location.search.includes('scoring_focus=dot')")
    page.get_by_role("tab", name=translate("en", "scoring.tab_flow")).click()
    page.locator('[data-testid="stGraphVizChart"] svg').first.wait_for()  # the wiring diagram drew


def test_editing_s_redraws_the_picture_and_the_slider_picks_a_position(app_server, new_page):
    """The picture's marks name each function's weights (aria-labels); a new s redraws them with the new weights,
    and the position slider inside picture 2 moves the line under it with no full rerun."""
    from s2s_core.fmt import num
    from tests.browser.harness import chart_labels, charts_drawn, wait_for_mark

    page = new_page()
    open_page(page, app_server, "scoring", "en")
    charts_drawn(page, at_least=2)

    def dot_weight(config: ScoringConfig) -> str:
        return num(float(compare(config).get("dot").read.weights[0, 2]))

    def drawn(weight: str) -> bool:
        return any("dot (Luong)" in x and "s3" in x and weight in x for x in chart_labels(page, 0))

    assert drawn(dot_weight(ScoringConfig()))
    field = page.get_by_label(translate("en", "scoring.dec_label"), exact=True)
    field.fill("0.6, 0.4")
    field.press("Enter")
    settle(page)
    new = dot_weight(ScoringConfig(dec_state=(0.6, 0.4)))
    wait_for_mark(page, 0, "dot (Luong)", "s3", new)  # the redraw can land a frame after the rerun ends
    assert drawn(new)
    slider = page.locator(".st-key-scoring_pos_chart .vega-bindings input[type=range]")
    slider.evaluate("(el) => { el.value = 4; el.dispatchEvent(new Event('input', {bubbles: true})); }")
    wait_for_text(page, "s4: score")
    page.wait_for_function("() => location.search.includes('scoring_pos=4')")
    # Reset: the defaults, and the slider back at s1 in the browser's own view (it keeps a chart's selections).
    page.get_by_role("button", name=translate("en", "ui.reset")).click()
    settle(page)
    wait_for_mark(page, 0, "dot (Luong)", "s3", dot_weight(ScoringConfig()))
    assert "scoring_" not in page.url
    page.wait_for_function(
        "() => document.querySelector('.st-key-scoring_pos_chart .vega-bindings input').value === '1'"
    )
    wait_for_text(page, "s1: score")
