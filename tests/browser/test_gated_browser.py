"""Both gated pages (LSTM, GRU) in real Chromium, issue 25: the cell picture's flow has arrowheads, its line legend
stands only while a gate is forced, the override tab's legend tells its two runs apart by shape, the force control
fits its column at 1280 px, and on a phone the picture starts in the top half of the first screen with no chart
text under 11 px."""

from __future__ import annotations

import pytest

from s2s_core.catalog import translate
from tests.browser.harness import PHONE, charts_drawn, open_page, settle

pytestmark = pytest.mark.browser

FORCED = {"lstm": ("f", "i", "o"), "gru": ("z", "r")}  # the forceable gates: their steps' chips and 0 | 1
HEADS = """chart => [...document.querySelectorAll(chart + ' svg g.flow_heads_marks path')]
    .map(p => p.getAttribute('d'))"""
LEGENDS = """chart => [...document.querySelectorAll(chart + ' svg .role-legend')].map(l => l.textContent)"""


def chart(ns: str) -> str:
    return f".st-key-{ns}_step_chart"


@pytest.mark.parametrize("ns", ["lstm", "gru"])
def test_the_flow_has_heads_and_the_line_legend_waits_for_a_forced_gate(app_server, new_page, ns):
    page = new_page()
    open_page(page, app_server, ns, "en")
    charts_drawn(page)
    heads = page.evaluate(HEADS, chart(ns))
    assert len(heads) >= 6 and all(d and d.startswith("M") for d in heads)  # triangles drawn at the wires' ends
    assert page.evaluate(LEGENDS, chart(ns)) == []  # no dashed line, so no line legend
    # A forced gate: dashed lines, and now the legend that names both lines.
    gate = FORCED[ns][0]
    open_page(page, app_server, ns, "en", f"{ns}_force_{gate}=2,3&{ns}_tabs=override")
    charts_drawn(page, at_least=2)
    (legend,) = page.evaluate(LEGENDS, chart(ns))
    assert translate("en", f"{ns}.picture.natural") in legend and translate("en", f"{ns}.picture.forced") in legend
    assert len(page.evaluate(HEADS, chart(ns))) == len(heads)
    # The override tab's lines: the run legend's two marks differ by shape (and dash), not only by colour.
    runs = page.evaluate(
        """name => [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')].slice(1).map(c =>
            [...c.querySelectorAll('.role-legend')].filter(l => l.textContent.includes(name))
            .flatMap(l => [...l.querySelectorAll('.role-legend-symbol path')].map(p => p.getAttribute('d'))))
            .filter(symbols => symbols.length)""",
        translate("en", f"{ns}.natural"),
    )
    assert len(runs) == (2 if ns == "lstm" else 1), runs  # c and h, or h alone
    assert runs and all(len(symbols) == 2 and symbols[0] != symbols[1] for symbols in runs), runs


@pytest.mark.parametrize("ns", ["lstm", "gru"])
def test_the_force_control_and_try_this_fit_their_column_at_1280(app_server, new_page, ns):
    page = new_page()
    lang = "ko" if ns == "gru" else "en"  # the longer words of one, the Korean chips of the other
    open_page(page, app_server, ns, lang, f"{ns}_force_{FORCED[ns][0]}=1,2,3,4")
    page.locator('[data-testid="stExpander"] summary', has_text=translate(lang, f"{ns}.force_heading")).click()
    settle(page)
    keys = [f"{ns}_force_{g}{end}" for g in FORCED[ns] for end in ("", "_to")]
    boxes = page.evaluate(
        """keys => {
            const col = document.querySelector('.st-key-s2s_controls').getBoundingClientRect();
            const inside = e => { const r = e.getBoundingClientRect();
                return r.width > 0 && r.left >= col.left - 0.5 && r.right <= col.right + 0.5; };
            return keys.map(k => {
                const box = document.querySelector('.st-key-' + k);
                const buttons = [...box.querySelectorAll('button')];
                return [k, buttons.length, buttons.every(inside),
                        buttons.every(b => b.scrollWidth <= b.clientWidth + 1), box.scrollWidth <= box.clientWidth];
            });
        }""",
        keys,
    )
    for key, n, within, whole, fits in boxes:
        assert n >= 2 and within and whole and fits, (key, n, within, whole, fits)  # 4 chips, or 0 and 1
    try_this = page.get_by_role("button", name=translate(lang, "ui.try_this"))
    col = page.locator(".st-key-s2s_controls").bounding_box()
    box = try_this.bounding_box()
    assert box["x"] >= col["x"] - 0.5 and box["x"] + box["width"] <= col["x"] + col["width"] + 0.5
    try_this.click()
    body = page.locator('[data-testid="stPopoverBody"]')
    body.wait_for()
    popover = body.bounding_box()
    assert popover["x"] >= 0 and popover["x"] + popover["width"] <= page.viewport_size["width"]
    assert body.evaluate("b => [...b.querySelectorAll('button')].every(x => x.scrollWidth <= x.clientWidth + 1)")


@pytest.mark.parametrize(("ns", "lang"), [("lstm", "ko"), ("gru", "en")])
def test_on_a_phone_the_picture_starts_in_the_top_half_and_reads_at_11px(app_server, browser, ns, lang):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale=f"{lang}-KR")
    try:
        page = context.new_page()
        page.set_default_timeout(180_000)
        open_page(page, app_server, ns, lang)
        charts_drawn(page)
        top = page.locator(f"{chart(ns)} svg").first.bounding_box()["y"]
        assert top < PHONE["height"] / 2, top
        sizes = page.evaluate(
            """c => [...document.querySelectorAll(c + ' svg text')].filter(t => t.textContent.trim())
                .map(t => parseFloat(getComputedStyle(t).fontSize))""",
            chart(ns),
        )
        assert sizes and min(sizes) >= 11, min(sizes)
    finally:
        context.close()
