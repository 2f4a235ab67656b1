"""Download the attention picture in Chromium after moving its step (issue 26, "Take it away": pictures).

The learner moves the picture's own step slider to t2, clicks "Download SVG", and gets a file of the picture at t2,
in the page's language, on the page's own background and in its text colour (read from the page, not assumed). The
click makes the file (deferred) without a rerun of the page. Once in English on the light theme, once in Korean on
the dark one; one page load each.
"""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET

import pytest

from s2s_core.catalog import translate
from s2s_core.export import PNG_SIGNATURE
from tests.browser.harness import DESKTOP, charts_drawn, open_page, settle

pytestmark = pytest.mark.browser
SVG_NS = "{http://www.w3.org/2000/svg}"
CHART = ".st-key-att_step_chart"
MOVE = """async ([chart, value]) => {
    const input = document.querySelector(chart + ' .vega-bindings input[type=range]');
    input.value = String(value);
    input.dispatchEvent(new Event('input', {bubbles: true}));
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
}"""
# The line under the picture follows the step once the fragment reran: its buttons now hold step t2's callable.
FOLLOWED = """text => [...document.querySelectorAll('.st-key-s2s_picture [data-testid="stMarkdown"]')]
    .some(e => e.innerText.includes(text))"""
COLOURS = """() => { const app = getComputedStyle(document.querySelector('[data-testid="stApp"]'));
    return {background: app.backgroundColor, text: app.color}; }"""
# From now on, note any run of the script (a click that reran the page would show it).
WATCH_RUNS = """() => { window.__s2sRan = false; const app = document.querySelector('[data-testid="stApp"]');
    const ran = () => { if (app.getAttribute('data-test-script-state') === 'running') window.__s2sRan = true; };
    new MutationObserver(ran).observe(app, {attributes: true, attributeFilter: ['data-test-script-state']}); }"""


def rgb(colour: str) -> tuple[int, int, int]:
    """ "rgb(23, 22, 20)" (a computed style) or "#171614" (an SVG fill) as numbers."""
    if colour.startswith("#"):
        return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]
    return tuple(int(float(v)) for v in colour[colour.index("(") + 1 : colour.index(")")].split(",")[:3])  # type: ignore[return-value]


def download(page, key: str) -> tuple[str, bytes, float]:
    """Click the button in its keyed box as a learner does; (the file's suggested name, its bytes, seconds)."""
    started = time.perf_counter()
    with page.expect_download(timeout=60_000) as info:
        page.locator(f".st-key-{key} button:visible").click()
    done = info.value
    with open(done.path(), "rb") as fh:
        return done.suggested_filename, fh.read(), time.perf_counter() - started


@pytest.mark.parametrize(("lang", "scheme"), [("en", "light"), ("ko", "dark")])
def test_the_svg_holds_the_step_the_learner_moved_to_in_the_pages_language_and_theme(app_server, browser, lang, scheme):
    context = browser.new_context(viewport=DESKTOP, color_scheme=scheme, accept_downloads=True, locale=lang)
    try:
        page = context.new_page()
        page.set_default_timeout(180_000)
        open_page(page, app_server, "attention", lang)
        charts_drawn(page)
        page.evaluate(MOVE, [CHART, 2])
        page.wait_for_function(FOLLOWED, arg="[1.8, 1.4]", timeout=60_000)  # the seed's t2 context, under the picture
        settle(page)
        screen = {k: rgb(v) for k, v in page.evaluate(COLOURS).items()}
        page.evaluate(WATCH_RUNS)

        name, data, seconds = download(page, "s2s_download_attention_svg")
        assert name == f"attention_picture_{lang}_{scheme}.svg"
        root = ET.fromstring(data.decode("utf-8"))
        words = [t.text for t in root.iter(f"{SVG_NS}text")] + [t.text for t in root.iter(f"{SVG_NS}tspan")]
        assert translate(lang, "attention.chart.title_plane") in words  # the page's language
        assert translate(lang, "attention.chart.context", step="t2", vector="[1.8, 1.4]") in words  # the moved step
        assert translate(lang, "attention.chart.context", step="t1", vector="[3.4, 2.2]") not in words
        # The file looks like the screen: the page's background behind it, the page's text colour on it.
        assert rgb(root.find(f"{SVG_NS}rect").get("fill")) == screen["background"]
        fills = {rgb(f) for t in root.iter(f"{SVG_NS}text") if (f := t.get("fill", "")).startswith("#")}
        assert screen["text"] in fills, (screen, fills)
        assert not page.evaluate("() => window.__s2sRan")  # the click downloaded without rerunning the page
        print(f"\nSVG {lang}/{scheme}: {len(data):,} bytes, {seconds:.2f} s from click to file")

        if lang == "ko":  # the PNG button too, once
            name, data, seconds = download(page, "s2s_download_attention_png")
            assert name == "attention_picture_ko_dark.png" and data.startswith(PNG_SIGNATURE)
            print(f"PNG ko/dark: {len(data):,} bytes, {seconds:.2f} s from click to file")
    finally:
        context.close()
