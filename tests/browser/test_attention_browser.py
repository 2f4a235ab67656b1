"""Attention page in real Chromium: an edit reruns and goes into the link; the step slider inside the picture
redraws in the browser (no server rerun), then the step lands in the link; Play walks the steps.

What AppTest already sees (the seed's contexts, bad cells, a broken link, the step read from a link) is
tested in tests/app only.
"""

from __future__ import annotations

import pytest

from s2s_ui.catalog import translate
from tests.browser.harness import charts_drawn, edit_grid_cell, open_page, wait_for_text

pytestmark = pytest.mark.browser
CHART = ".st-key-att_step_chart"
SLIDER = f"{CHART} .vega-bindings input[type=range]"

# Move the slider as a hand does (value + `input`), wait two painted frames, and report what is drawn then
# and whether a script run had started by that moment.
MOVE = """async ([chart, value]) => {
    const input = document.querySelector(chart + ' .vega-bindings input[type=range]');
    input.value = String(value);
    input.dispatchEvent(new Event('input', {bubbles: true}));
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    const texts = [...document.querySelectorAll(chart + ' svg text')].map(t => t.textContent);
    const state = document.querySelector('[data-testid="stApp"]').getAttribute('data-test-script-state');
    return {texts, state};
}"""


def drawn_texts(page) -> list[str]:
    return page.evaluate(f"[...document.querySelectorAll('{CHART} svg text')].map(t => t.textContent)")


def test_editing_a_source_cell_changes_the_context(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "attention", "en")
    assert "t1 context [3.4, 2.2]" in drawn_texts(page)  # the seed's number is on the picture itself
    # s3 = [6, 2] -> [10, 2]: step 1's first component becomes 0.2×2 + 0.3×0 + 0.5×10 = 5.4.
    edit_grid_cell(page, grid_index=0, row=2, col=0, text="10")
    wait_for_text(page, "[5.4, 2.2]")
    wait_for_text(page, "0.2×2 + 0.3×0 + 0.5×10 = 5.4")  # the step-by-step tab redraws in the same rerun
    assert "att_src=2%2C0%3B0%2C4%3B10%2C2" in page.url  # the edited table is in the shareable link
    charts_drawn(page)
    page.wait_for_function(
        "([chart, text]) => [...document.querySelectorAll(chart + ' svg text')].some(t => t.textContent === text)",
        arg=[CHART, "t1 context [5.4, 2.2]"],
    )
    assert "before" in drawn_texts(page)  # the previous context stays faint behind the new one


def test_the_step_slider_redraws_in_the_browser_then_goes_into_the_link(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "attention", "en")
    charts_drawn(page)
    seen = page.evaluate(MOVE, [CHART, 2])
    assert "t2 context [1.8, 1.4]" in seen["texts"] and "t1 context [3.4, 2.2]" not in seen["texts"]
    assert seen["state"] == "notRunning"  # drawn by the browser before any script run
    wait_for_text(page, "0.6×[2, 0] + 0.3×[0, 4] + 0.1×[6, 2] = [1.8, 1.4]")  # the fragment followed
    page.wait_for_function("() => location.search.includes('att_step=2')")


def test_play_walks_the_steps_and_stops_at_the_last(app_server, new_page):
    """In Korean: Play's label is the learner's, Enter presses it, it moves the slider and stops at the end."""
    from playwright.sync_api import expect  # imported here: a machine without Playwright skips, not errors

    page = new_page()
    open_page(page, app_server, "attention", "ko")
    charts_drawn(page)
    play = page.locator("button.s2s-play")
    expect(play).to_have_text("▶ " + translate("ko", "steps.play"))
    assert play.get_attribute("aria-pressed") == "false"
    play.focus()
    page.keyboard.press("Enter")  # keyboard accessible: a real button
    page.wait_for_function(f"() => document.querySelector('{SLIDER}').value === '2'")
    page.wait_for_function("() => location.search.includes('att_step=2')")
    assert "t2 문맥 [1.8, 1.4]" in drawn_texts(page)
    expect(play).to_have_attribute("aria-pressed", "false", timeout=30_000)  # stopped at the last step
    expect(play).to_have_text("▶ " + translate("ko", "steps.play"))
    wait_for_text(page, "= [1.8, 1.4]")


def test_clicking_a_source_writes_out_its_share(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "attention", "en")
    charts_drawn(page)
    # A click where s2's arrow head is drawn (its accessible label is the learner's text: source and vector);
    # the topmost mark there is the source's invisible click target.
    box = page.locator(f'{CHART} svg path[aria-label="s2 [0, 4]"]').first.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wait_for_text(page, "s2 at step t1: weight 0.3 × [0, 4] = [0, 1.2]")
