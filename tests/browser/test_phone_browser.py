"""A phone's first screen: at 390 × 844 (a touch screen) every page opens on its main picture, in both languages.

GUIDE §1 "How a page looks": on a phone the picture comes first (s2s_ui/explainer.py keys the two columns,
s2s_ui/style.py moves the picture's column above the controls' below 640 px). Read off the drawn page, per page
and language:
- the main picture (the first chart in the picture column) starts in the top half of the first screen and has
  drawn (its SVG or canvas is taller than 100 px);
- nothing is wider than the screen (no chart or block sticks out to be clipped or scrolled sideways);
- no chart text on the page is smaller than 11 px;
- no chart title is cut short with "…" (Vega cuts a title wider than its chart; s2s_core.chartkit.title_lines
  breaks one into lines instead).
"""

from __future__ import annotations

import pytest

from s2s_ui.explainer import PICTURE_KEY
from s2s_ui.registry import existing_pages
from s2s_ui.state import Page
from tests.browser.harness import PHONE, charts_drawn, open_page

pytestmark = pytest.mark.browser
PAGES = [s for s in existing_pages() if s.ns != "home"]  # Home has no picture: it lists the pages
FIRST_SCREEN_TOP = PHONE["height"] / 2  # the picture starts in the top half of the first screen
MIN_FONT_PX = 11

# Blocks that scroll sideways by design, under a finger: the tab bar, a table, a code block. (A slider's own input is
# visually hidden inside a 1 px clipped box: `[style*="clip"]`.)
SCROLLS = '[role="tablist"], [data-testid="stDataFrame"], [data-testid="stCode"], [data-testid="stTable"]'
MEASURE = (
    """key => {
    const SCROLLS = '"""
    + SCROLLS
    + """';
    const column = document.querySelector('.st-key-' + key);
    const chart = column && [...column.querySelectorAll('[data-testid="stVegaLiteChart"]')]
        .find(c => c.checkVisibility() && c.querySelector('svg, canvas'));
    const drawn = chart && chart.querySelector('svg, canvas').getBoundingClientRect();
    const wide = [...document.querySelectorAll('[data-testid="stMain"] *')]
        .filter(e => e.checkVisibility() && e.getBoundingClientRect().width > 0)
        .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1
                     && !e.closest(SCROLLS) && !e.closest('[style*="clip"]'))
        .map(e => `${e.getAttribute('data-testid') || e.tagName} right=${Math.round(e.getBoundingClientRect().right)}`);
    const fonts = [...document.querySelectorAll('[data-testid="stVegaLiteChart"] svg text')]
        .filter(e => e.checkVisibility() && e.textContent.trim())
        .map(e => [e.textContent.trim().slice(0, 30), parseFloat(getComputedStyle(e).fontSize)]);
    const cut = [...document.querySelectorAll('[data-testid="stVegaLiteChart"] svg .role-title text')]
        .filter(e => e.checkVisibility() && e.textContent.includes('…')).map(e => e.textContent);
    return {
        top: drawn ? drawn.top : null, height: drawn ? drawn.height : 0,
        wide: wide.slice(0, 5), small: fonts.filter(([, px]) => px < 11 - 0.01).slice(0, 5), cut: cut.slice(0, 5),
    };
}"""
)


@pytest.mark.parametrize("spec", PAGES, ids=lambda s: s.ns)
def test_a_phone_opens_on_the_picture(app_server, browser, spec):
    for lang in ("en", "ko"):
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        try:
            page = context.new_page()
            page.set_default_timeout(180_000)
            open_page(page, app_server, spec.url, lang)
            charts_drawn(page, at_least=1)
            seen = page.evaluate(MEASURE, PICTURE_KEY)
            where = f"{spec.ns} ({lang}, 390 px)"
            assert seen["top"] is not None, f"{where}: no picture drawn in the picture column"
            assert seen["top"] <= FIRST_SCREEN_TOP, f"{where}: the picture starts at {seen['top']:.0f} px"
            assert seen["height"] > 100, f"{where}: the picture is {seen['height']:.0f} px tall"
            assert not seen["wide"], f"{where}: wider than the screen: {seen['wide']}"
            assert not seen["small"], f"{where}: chart text under {MIN_FONT_PX} px: {seen['small']}"
            assert not seen["cut"], f"{where}: a chart title cut short: {seen['cut']}"
        finally:
            context.close()


def step_key(ns: str) -> str | None:
    """The key of the page's picture step control (its `step` field), or None for a page without one."""
    return next((f.key for f in Page.of(ns).fields if f.kind == "step"), None)


STEPPED = [s for s in PAGES if step_key(s.ns)]
TAP_SLIDER = """chart => {
    const input = document.querySelector(chart + ' .vega-bindings input[type=range]');
    if (!input || !input.checkVisibility()) return null;
    input.scrollIntoView({block: 'center'});
    const box = input.getBoundingClientRect();
    return {x: box.left, y: box.top, width: box.width, height: box.height,
            value: Number(input.value), min: Number(input.min), max: Number(input.max)};
}"""


@pytest.mark.parametrize("spec", STEPPED, ids=lambda s: s.ns)
def test_a_finger_moves_the_pictures_step(app_server, browser, spec):
    """Stepping works by touch: the picture's own slider is a 24 px touch target, a tap on it at the far end from its
    thumb moves the step, and the picture redraws in the browser (its drawn marks change)."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.set_default_timeout(180_000)
        open_page(page, app_server, spec.url, "en")
        chart = f".st-key-{step_key(spec.ns)}_chart"
        page.wait_for_selector(f"{chart} svg.marks")
        box = page.evaluate(TAP_SLIDER, chart)
        if box is None or box["max"] <= box["min"]:
            pytest.fail(f"{spec.ns}: no step slider to tap at 390 px ({box})")
        assert box["height"] >= 24, f"{spec.ns}: the slider is {box['height']:.0f} px tall, under a finger's 24 px"
        before = page.evaluate("c => document.querySelector(c + ' svg.marks').innerHTML", chart)
        to_end = box["value"] <= (box["min"] + box["max"]) / 2  # tap the end that is farther from the thumb
        x = box["x"] + (box["width"] - 4 if to_end else 4)
        page.touchscreen.tap(x, box["y"] + box["height"] / 2)
        page.wait_for_function(
            "([c, v]) => Number(document.querySelector(c + ' .vega-bindings input[type=range]').value) !== v",
            arg=[chart, box["value"]],
            timeout=10_000,
        )
        page.wait_for_function(
            "([c, b]) => document.querySelector(c + ' svg.marks').innerHTML !== b", arg=[chart, before], timeout=10_000
        )
    finally:
        context.close()
