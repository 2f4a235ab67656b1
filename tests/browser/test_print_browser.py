"""A printed page is a handout (s2s_ui/style.py PRINT_CSS), read in real Chromium with print media emulated.

Per page, from the print layout (the main block is A4's printable width there, as on the paper):
- nothing of the screen's machinery shows: no sidebar, no controls column, no button, input or slider (a
  question's choices stay: a question to answer on paper);
- every chart block is kept whole by a page break (`break-inside: avoid`) and is short enough for one page, so
  the rule can hold, and no wider than the paper;
- the main picture lies wholly on the first page, under the title: no page is cut through it, none is left
  with the title alone.
The attention page, printed by Chromium itself to an A4 PDF, has exactly two pages in both languages.
"""

from __future__ import annotations

import re

import pytest

from s2s_ui.explainer import CONTROLS_KEY, PICTURE_KEY
from s2s_ui.registry import existing_pages
from s2s_ui.style import PAGE_MARGIN_MM, PAPER_WIDTH_MM
from tests.browser.harness import charts_drawn, open_page

pytestmark = pytest.mark.browser
PAGES = [s for s in existing_pages() if s.ns not in ("home", "attention")]  # attention: its own test below
PX_PER_MM = 96 / 25.4  # CSS pixels per millimetre
PAGE_HEIGHT = (297 - 2 * PAGE_MARGIN_MM) * PX_PER_MM  # A4's printable height
TEXT_WIDTH = (PAPER_WIDTH_MM - 2 * PAGE_MARGIN_MM) * PX_PER_MM

# Interactive things a handout has no use for (a radio's own input is a question's choice: it stays).
WIDGETS = (
    'button, input:not([type="radio"]), select, textarea, [role="slider"], .vega-bindings, '
    '[data-testid="stBidiComponentIsolated"], [data-testid="stTooltipIcon"]'
)
MEASURE = """([picture, controls, widgets]) => {
    const shown = sel => [...document.querySelectorAll(sel)].filter(e => e.checkVisibility());
    const block = document.querySelector('[data-testid="stMainBlockContainer"]').getBoundingClientRect();
    const charts = shown('[data-testid="stVegaLiteChart"]').map(chart => {
        const box = chart.closest('[data-testid="stElementContainer"]');
        const r = box.getBoundingClientRect();
        return {top: r.top - block.top, height: r.height, width: chart.querySelector('svg, canvas')
            .getBoundingClientRect().width, avoid: getComputedStyle(box).breakInside,
            picture: !!chart.closest('.st-key-' + picture)};
    });
    const describe = e => (e.closest('[data-testid]')?.getAttribute('data-testid') || e.tagName)
        + ' ' + (e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 30);
    return {
        blockTop: block.top + window.scrollY, blockWidth: block.width, charts,
        sidebar: shown('[data-testid="stSidebar"]').length, controls: shown('.st-key-' + controls).length,
        widgets: shown('[data-testid="stMain"] :is(' + widgets + ')').map(describe).slice(0, 5),
    };
}"""


def print_layout(page) -> dict:
    """The page as the printer lays it out: print media emulated, the charts redrawn at the paper's width."""
    page.emulate_media(media="print")
    charts_drawn(page, at_least=1)
    page.wait_for_function(  # the picture's chart has been redrawn at the narrower, paper-wide column
        "w => [...document.querySelectorAll('[data-testid=\"stVegaLiteChart\"] svg')]"
        ".every(s => s.getBoundingClientRect().width <= w + 1)",
        arg=TEXT_WIDTH,
        timeout=30_000,
    )
    return page.evaluate(MEASURE, [PICTURE_KEY, CONTROLS_KEY, WIDGETS])


def check_handout(seen: dict, where: str) -> None:
    assert seen["sidebar"] == 0, f"{where}: the sidebar is printed"
    assert seen["controls"] == 0, f"{where}: the controls column is printed"
    assert seen["widgets"] == [], f"{where}: printed controls: {seen['widgets']}"
    assert seen["blockTop"] < 2, f"{where}: the handout starts {seen['blockTop']:.0f} px down the first page"
    assert seen["blockWidth"] <= TEXT_WIDTH + 1, f"{where}: the text is wider than A4 ({seen['blockWidth']:.0f} px)"
    pictures = [c for c in seen["charts"] if c["picture"]]
    assert pictures, f"{where}: no picture in the print layout"
    for chart in seen["charts"]:
        assert chart["avoid"] == "avoid", f"{where}: a page break may cut a chart ({chart})"
        assert chart["height"] <= PAGE_HEIGHT, f"{where}: a chart taller than a page ({chart})"
        assert chart["width"] <= TEXT_WIDTH + 1, f"{where}: a chart wider than the paper ({chart})"
    first = pictures[0]
    assert first["top"] + first["height"] <= PAGE_HEIGHT, (
        f"{where}: the picture ({first['top']:.0f}-{first['top'] + first['height']:.0f} px) crosses the end of "
        f"the first page ({PAGE_HEIGHT:.0f} px)"
    )


def pdf_pages(pdf: bytes) -> int:
    """Pages in a PDF Chromium wrote: its page objects (`/Type /Page`, not the `/Type /Pages` tree node)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_attention_page_prints_on_two_a4_pages(app_server, new_page, lang):
    page = new_page()
    open_page(page, app_server, "attention", lang)
    check_handout(print_layout(page), f"attention ({lang})")
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF")
    assert pdf_pages(pdf) == 2


@pytest.mark.parametrize("spec", PAGES, ids=lambda s: s.ns)
def test_every_page_prints_as_a_handout(app_server, new_page, spec):
    page = new_page()
    open_page(page, app_server, spec.url, "en")
    check_handout(print_layout(page), spec.ns)
