"""Attention page in real Chromium: an edit reruns and goes into the link; the step slider inside the picture
redraws in the browser (no server rerun), then the step lands in the link; Play walks the steps; a click on a
source writes out its share and goes into the link, and that link reopens the same pick; Reset forgets the pick in
the browser's own view too.

What AppTest already sees (the seed's contexts, bad cells, a broken link, the step read from a link) is
tested in tests/app only.
"""

from __future__ import annotations

import pytest

from s2s_core.catalog import translate
from tests.browser.harness import charts_drawn, edit_grid_cell, main_text, open_page, settle, wait_for_text

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
    # The previous context stays faint behind the new one, and the key under the plot says so.
    assert translate("en", "attention.chart.key_before") in drawn_texts(page)


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


def click_source(page, label: str) -> None:
    """A click where a source's arrow head is drawn (its accessible label is the learner's text: source and vector);
    the topmost mark there is the source's invisible click target."""
    box = page.locator(f'{CHART} svg path[aria-label="{label}"]').first.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def pick_hint_shown(page) -> None:
    wait_for_text(page, translate("en", "attention.pick_hint"))


def test_clicking_a_source_writes_out_its_share_and_the_link_reopens_it(app_server, new_page):
    """Issue 23: the picked source is in the link. Click s2, read the link, open it in a new session: s2's share is
    written out again (the chart's own selection starts there), and a click on another source moves the pick."""
    page = new_page()
    open_page(page, app_server, "attention", "en")
    charts_drawn(page)
    click_source(page, "s2 [0, 4]")
    wait_for_text(page, "s2 at step t1: weight 0.3 × [0, 4] = [0, 1.2]")
    page.wait_for_function("() => location.search.includes('att_pick=s2')")
    link = page.url
    shared = new_page()  # another browser context: a new session that only has the link
    shared.goto(link)
    settle(shared)
    charts_drawn(shared)
    wait_for_text(shared, "s2 at step t1: weight 0.3 × [0, 4] = [0, 1.2]")
    plot = shared.locator(f"{CHART} svg.marks").first.bounding_box()
    shared.mouse.dblclick(plot["x"] + plot["width"] - 30, plot["y"] + plot["height"] - 60)  # no clear: it stays
    shared.evaluate(MOVE, [CHART, 2])  # the step moves; the pick stays
    wait_for_text(shared, "s2 at step t2: weight 0.3 × [0, 4] = [0, 1.2]")
    click_source(shared, "s3 [6, 2]")
    wait_for_text(shared, "s3 at step t2: weight 0.1 × [6, 2] = [0.6, 0.2]")
    shared.wait_for_function("() => location.search.includes('att_pick=s3') && location.search.includes('att_step=2')")


def test_reset_forgets_the_pick_in_the_browsers_view_too(app_server, new_page):
    """The browser keeps a chart's selections and puts them back when it is drawn again: after Reset, the next
    move of the slider must not bring the forgotten pick back into the text or the link."""
    page = new_page()
    open_page(page, app_server, "attention", "en")
    charts_drawn(page)
    click_source(page, "s1 [2, 0]")
    wait_for_text(page, "s1 at step t1: weight 0.2 × [2, 0] = [0.4, 0]")
    page.wait_for_function("() => location.search.includes('att_pick=s1')")
    page.get_by_role("button", name=translate("en", "ui.reset")).click()
    settle(page)
    pick_hint_shown(page)
    assert "att_" not in page.url
    charts_drawn(page)
    page.evaluate(MOVE, [CHART, 2])
    page.wait_for_function("() => location.search.includes('att_step=2')")
    settle(page)
    pick_hint_shown(page)
    assert "att_pick" not in page.url
    assert "s1 at step" not in main_text(page)
