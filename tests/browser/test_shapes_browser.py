"""Tensor shapes page in real Chromium: two toggles (switched by their names) redraw the shapes table as the
browser shows it, go into the link, and the charts draw; on a dark 390 px phone the picture's text neither
collides nor leaves the chart, and reads on the dark background.

Padding, packing, the quiz, the failures and bad input are tested through AppTest (tests/app/test_shapes_app.py).
"""

from __future__ import annotations

import pytest

from s2s_core.catalog import translate
from s2s_ui.charts import contrast
from tests.browser.harness import PHONE, main_text, open_page, settle, wait_for_text

pytestmark = pytest.mark.browser


def visible_charts_drawn(page, at_least: int) -> None:
    """Like harness.charts_drawn, for the charts in view: a chart in a folded tab has no height until opened."""
    page.wait_for_function(
        """n => {
            const charts = [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
                .filter(c => c.checkVisibility());
            return charts.length >= n && charts.every(c => c.querySelector('svg, canvas')
                && c.getBoundingClientRect().height > 40);
        }""",
        arg=at_least,
        timeout=60_000,
    )


def _toggle(page, label: str) -> None:
    """Flip the switch named `label` from the keyboard (its label element takes the pointer events)."""
    page.get_by_role("switch", name=label, exact=True).press("Space")
    settle(page)


def _row(text: str, tensor: str) -> str:
    """The shapes table's row for one tensor, as the browser shows it."""
    return next(line for line in text.splitlines() if line.startswith(tensor + "\t"))


def test_batch_first_and_bidirectional_redraw_the_shapes(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "shapes", "en")
    text = main_text(page)
    assert "(2, 3, 6)" in _row(text, "outputs") and "(1, 2, 6)" in _row(text, "h_n")
    _toggle(page, translate("en", "shapes.field.batch_first"))
    wait_for_text(page, "(3, 2, 6)")
    text = main_text(page)
    assert "(S, B, K·H)" in _row(text, "outputs") and "(3, 2, 6)" in _row(text, "outputs")
    assert "(L·K, B, H)" in _row(text, "h_n") and "(1, 2, 6)" in _row(text, "h_n")  # batch_first never reaches h_n
    page.wait_for_function("() => location.search.includes('shapes_batch_first=false')")
    # The picture redrew: outputs' top side is now B=2 (time runs down its left side), h_n's top side stays B=2.
    page.wait_for_function(
        """() => {
            const texts = [...document.querySelectorAll('[data-testid="stVegaLiteChart"] svg text')]
                .map(t => t.textContent);
            return texts.includes('(S=3, B=2, K·H=6)') && texts.includes('(L·K=1, B=2, H=6)');
        }"""
    )
    _toggle(page, translate("en", "shapes.field.bidirectional"))
    wait_for_text(page, "(3, 2, 12)")
    text = main_text(page)
    assert "(2, 2, 6)" in _row(text, "h_n") and "(2, 2, 6)" in _row(text, "c_n")
    visible_charts_drawn(page, 1)


# Every text of the first chart (the picture) as drawn: its box in the SVG's coordinates and its fill.
TEXTS = """c => {
  const svg = c.querySelector('svg');
  const frame = svg.getBoundingClientRect();
  const texts = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim()).map(t => {
    const b = t.getBoundingClientRect();
    return {text: t.textContent, x: b.left - frame.left, y: b.top - frame.top, w: b.width, h: b.height,
            fill: getComputedStyle(t).fill};
  });
  return {width: frame.width, texts,
          background: getComputedStyle(document.querySelector('[data-testid="stApp"]')).backgroundColor};
}"""


def _rgb(css: str) -> tuple[int, int, int]:
    return tuple(int(float(v)) for v in css[css.index("(") + 1 : css.index(")")].split(",")[:3])  # type: ignore[return-value]


def _picture_reads(page) -> None:
    """No two texts overlap, none leaves the chart's width or is cut with an ellipsis, and every text on the
    page (not inside a cell, where it is black on the cell's light fill) keeps 4.5:1 on the background."""
    drawn = page.locator('[data-testid="stVegaLiteChart"]').first.evaluate(TEXTS)
    texts, background = drawn["texts"], _rgb(drawn["background"])
    for k, a in enumerate(texts):
        assert a["x"] >= -0.5 and a["x"] + a["w"] <= drawn["width"] + 0.5, f"cut at the edge: {a}"
        assert not a["text"].endswith("…"), f"shortened: {a['text']}"
        for b in texts[k + 1 :]:
            across = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
            down = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
            assert across <= 1 or down <= 1, f"{a['text']!r} runs into {b['text']!r}"
        if _rgb(a["fill"]) != (0, 0, 0):
            assert contrast(_rgb(a["fill"]), background) >= 4.5, f"dim on the dark theme: {a}"


def test_the_picture_reads_on_a_dark_phone(app_server, browser):
    """The padded batch: PAD cells, depth labels up to the right edge, the packed strip; then the verdict line."""
    context = browser.new_context(viewport=PHONE, color_scheme="dark")
    try:
        page = context.new_page()
        page.set_default_timeout(180_000)
        open_page(page, app_server, "shapes", "en", "shapes_lengths=3%2C+1")
        visible_charts_drawn(page, 1)
        _picture_reads(page)
        page.locator(".st-key-shapes_predict__show button").click()  # the verdict joins the slices' line
        settle(page)
        page.wait_for_function(
            """said => [...document.querySelector('[data-testid="stVegaLiteChart"] svg').querySelectorAll('text')]
                .some(t => t.textContent.endsWith(said))""",
            arg=translate("en", "shapes.picture.equal"),
        )
        _picture_reads(page)
    finally:
        context.close()


DRAWN = """c => [...c.querySelector('svg').querySelectorAll('text')].filter(t => t.textContent.trim())
    .map(t => ({text: t.textContent, size: parseFloat(getComputedStyle(t).fontSize)}))"""
TWO_WAYS = "shapes_bidirectional=true&shapes_num_layers=2&shapes_lengths=3%2C+1"


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_two_directions_split_every_state_and_the_panel_traces_the_compared_slices(app_server, browser, lang):
    """Bidirectional, two layers, a short sentence: h_n's cells say their row's direction, the panel names each
    row (layer and direction) and its row of h_n, h_n[-1] on the backward side, outputs[:, -1] as [fwd | bwd];
    every caption and every text is drawn at 11 px or more, at 1280 and at 390 px. After the answer, the reason."""
    from s2s_core.chartkit import lines
    from s2s_core.shapes.picture import WHY_WIDTH
    from tests.browser.harness import DESKTOP, chart_labels

    def say(key: str, **fmt) -> str:
        return translate(lang, f"shapes.picture.panel.{key}", **fmt)

    rows = [say("fwd", layer=1), say("bwd", layer=1), say("fwd", layer=2), say("bwd", layer=2)]
    outputs = say("outputs_bi", lhs="outputs[:, -1]", h="H", size=6)
    for viewport in (DESKTOP, PHONE):
        context = browser.new_context(viewport=viewport)
        try:
            page = context.new_page()
            page.set_default_timeout(180_000)
            open_page(page, app_server, "shapes", lang, TWO_WAYS)
            visible_charts_drawn(page, 1)
            drawn = page.locator('[data-testid="stVegaLiteChart"]').first.evaluate(DRAWN)
            texts = [d["text"] for d in drawn]
            assert min(d["size"] for d in drawn) >= 11, [d for d in drawn if d["size"] < 11]
            for want in [*rows, "h_n[0]", "h_n[1]", "h_n[2]", "h_n[-1]", outputs]:
                assert want in texts, (viewport, want)
            assert texts.count("←") == texts.count("→") == 2 * 2 * 2  # h_n and c_n: 2 backward rows × B = 2
            for caption in ("(B=2, S=3, E=4)", "(B=2, S=3, K·H=12)", "(L·K=4, B=2, H=6)", "(L·K=4, B=2, H=6)"):
                assert caption in texts, (viewport, caption)  # the phone left these out before
            marks = chart_labels(page, 0)
            assert any("h_n[-1]" in m and rows[-1] in m for m in marks)  # the cell h_n[-1] comes from: layer 2 bwd
            assert any(outputs in m for m in marks)  # the outlined column
            _picture_reads(page)
            if viewport == PHONE:
                page.locator(".st-key-shapes_predict__show button").click()
                settle(page)
                why = translate(lang, "shapes.picture.why.differ_bidirectional", lhs="outputs[:, -1]")
                page.wait_for_function(
                    """said => [...document.querySelector('[data-testid="stVegaLiteChart"] svg')
                        .querySelectorAll('text')].some(t => t.textContent === said)""",
                    arg=lines(why, WHY_WIDTH)[-1],
                )
                texts = [d["text"] for d in page.locator('[data-testid="stVegaLiteChart"]').first.evaluate(DRAWN)]
                assert all(line in texts for line in lines(why, WHY_WIDTH))
                _picture_reads(page)
        finally:
            context.close()


STACKED = "shapes_bidirectional=true&shapes_num_layers=2"  # Try this "stacked": h_n has L·K = 4 rows
FIRST_SCREEN = """() => {
    const box = e => {
        if (!e) return null;
        const r = e.getBoundingClientRect();
        return {top: r.top, bottom: r.bottom};
    };
    const BOX = '[data-testid="stVerticalBlockBorderWrapper"], [data-testid="stVerticalBlock"]';
    const show = document.querySelector('.st-key-shapes_predict__show');
    return {
        picture: box(document.querySelector('.st-key-s2s_picture [data-testid="stVegaLiteChart"] svg')),
        options: box(document.querySelector('.st-key-shapes_predict')),
        show: box(show),
        question: box(show && show.closest(BOX)),
    };
}"""


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_two_layers_both_ways_keep_the_picture_and_the_question_on_the_first_screen(app_server, browser, lang):
    """Issue 25 leftovers: with Bidirectional on and two layers, the picture (h_n's four rows and the panel's four
    lines) pushed the question under it below a 1280 × 900 screen. A tall picture draws its rows at TALL_ROW_PX:
    at 1280 × 900 the whole picture and the whole question (its options and its "show me" button, inside its box)
    are on the first screen; at 390 px the picture starts in the top half of the first screen (picture first)."""
    from s2s_core.shapes.picture import TALL_ROW_PX
    from tests.browser.harness import DESKTOP

    assert TALL_ROW_PX < 28
    for viewport in (DESKTOP, PHONE):
        context = browser.new_context(viewport=viewport)
        try:
            page = context.new_page()
            page.set_default_timeout(180_000)
            open_page(page, app_server, "shapes", lang, STACKED)
            visible_charts_drawn(page, 1)
            seen = page.evaluate(FIRST_SCREEN)
            where = (lang, viewport["width"], seen)
            assert seen["picture"] and seen["options"] and seen["show"] and seen["question"], where
            if viewport == DESKTOP:
                assert seen["picture"]["bottom"] <= viewport["height"], where
                assert seen["question"]["bottom"] <= viewport["height"], where  # every part of the question
                assert seen["show"]["bottom"] <= seen["question"]["bottom"], where
            else:
                assert seen["picture"]["top"] <= viewport["height"] / 2, where
                assert seen["picture"]["bottom"] - seen["picture"]["top"] > 300, where  # drawn, at its size
            _picture_reads(page)  # no text collides or leaves the chart, at the smaller rows too
        finally:
            context.close()
