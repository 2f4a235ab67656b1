"""RNN page in real Chromium: an edit redraws the chain from the new sentence; the step slider inside the picture
redraws in the browser (no server rerun) and the step lands in the link; Play walks to the last step.

The formula from a link's step, the check, the quiz and bad input are tested in tests/app/test_rnn_app.py.
"""

from __future__ import annotations

import pytest

from s2s_core.catalog import translate
from tests.browser.harness import DESKTOP, charts_drawn, open_page, wait_for_text

pytestmark = pytest.mark.browser
CHART = ".st-key-rnn_step_chart"
SLIDER = f"{CHART} .vega-bindings input[type=range]"

# Move the slider as a hand does (value + `input`), wait two painted frames, report what is drawn then and
# whether a script run had started by that moment.
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


def test_an_edit_redraws_the_chain_and_a_step_redraws_in_the_browser(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "rnn", "en")
    charts_drawn(page)
    texts = drawn_texts(page)
    assert "book" in texts and "h1 = tanh(W_x·x1 + W_h·h0 + b)" in texts
    # 1) Step 3 in the browser: its formula is drawn before any script run starts.
    seen = page.evaluate(MOVE, [CHART, 3])
    assert "h3 = tanh(W_x·x3 + W_h·h2 + b)" in seen["texts"] and "h1 = tanh(W_x·x1 + W_h·h0 + b)" not in seen["texts"]
    assert seen["state"] == "notRunning"
    wait_for_text(page, translate("en", "rnn.step_heading", t=3, S=4, token="a"))  # the fragment followed
    page.wait_for_function("() => location.search.includes('rnn_step=3')")
    # 2) A new sentence reruns the page: the chain is redrawn from it (five words, five steps).
    box = page.get_by_label(translate("en", "rnn.field.sentence"), exact=True)
    box.fill("the dog saw the cat")
    box.press("Enter")
    page.wait_for_function(
        "([chart, text]) => [...document.querySelectorAll(chart + ' svg text')].some(t => t.textContent === text)",
        arg=[CHART, "h5"],
    )
    assert "dog" in drawn_texts(page) and "book" not in drawn_texts(page)


def test_play_walks_to_the_last_step(app_server, new_page):
    """In Korean: Play moves the picture's own slider and stops at the last step."""
    from playwright.sync_api import expect  # imported here: a machine without Playwright skips, not errors

    page = new_page(locale="ko-KR")
    open_page(page, app_server, "rnn", "ko")
    charts_drawn(page)
    play = page.locator("button.s2s-play")
    expect(play).to_have_text("▶ " + translate("ko", "steps.play"))
    play.click()
    page.wait_for_function(f"() => document.querySelector('{SLIDER}').value === '3'", timeout=60_000)
    expect(play).to_have_attribute("aria-pressed", "false", timeout=30_000)  # stopped at the last step
    assert "h3 = tanh(W_x·x3 + W_h·h2 + b)" in drawn_texts(page)
    wait_for_text(page, "3단계 중 3단계: 토큰 “읽는다”", timeout=60_000)


# Every text mark of the picture as the eye gets it: its computed fill blended with the page's background by its
# opacity (the element's and its groups', times fill-opacity), with the page's background, as "r,g,b" lists.
SEEN_TEXT = """chart => {
    const rgb = css => css.match(/[\\d.]+/g).slice(0, 3).map(Number);
    const bg = rgb(getComputedStyle(document.querySelector('[data-testid="stApp"]')).backgroundColor);
    const out = [];
    for (const t of document.querySelectorAll(chart + ' svg text')) {
        let alpha = Number(getComputedStyle(t).fillOpacity || 1);
        for (let e = t; e && e.tagName !== 'svg'; e = e.parentElement) alpha *= Number(getComputedStyle(e).opacity);
        const fill = rgb(getComputedStyle(t).fill);
        out.push({text: t.textContent, rgb: fill.map((v, i) => alpha * v + (1 - alpha) * bg[i])});
    }
    return {bg, texts: out};
}"""
EMPTY_GROUPS = '[data-testid="stVegaLiteChart"] g.role-mark[role="graphics-symbol"]:empty'


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_weights_names_are_readable_and_no_mark_group_is_empty(app_server, browser, scheme):
    """Issue 25: the grey W_x names were 3.2:1 on the dark background; every W_x and W_h name (the chosen step's
    and the faded ones) now keeps 4.5:1 on both themes. Before any edit the previous input's dots have no data:
    that layer is left out, so no empty mark group with a role and no name is drawn (axe svg-img-alt)."""
    from s2s_ui.charts import contrast

    context = browser.new_context(viewport=DESKTOP, color_scheme=scheme)
    try:
        page = context.new_page()
        page.set_default_timeout(180_000)
        open_page(page, app_server, "rnn", "en")
        charts_drawn(page)
        seen = page.evaluate(SEEN_TEXT, CHART)
        names = [t for t in seen["texts"] if t["text"] in ("W_x", "W_h")]
        assert {t["text"] for t in names} == {"W_x", "W_h"} and len(names) == 8, names  # 4 steps, two names each
        for t in names:
            ratio = contrast(tuple(round(v) for v in t["rgb"]), tuple(seen["bg"]))
            assert ratio >= 4.5, f"{scheme}: {t['text']} at {t['rgb']} on {seen['bg']} is {ratio:.2f}:1"
        assert page.locator(EMPTY_GROUPS).count() == 0
    finally:
        context.close()
