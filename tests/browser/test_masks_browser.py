"""Padding & masks page in real Chromium: typing a target sentence redraws the losses, the picture and the link.

Every message for bad or all-PAD sentences, and the checks against PyTorch, are tested through AppTest
(tests/app/test_masks_app.py).
"""

from __future__ import annotations

from urllib.parse import quote

import pytest

from s2s_core.catalog import translate
from s2s_core.fmt import num as fmt
from s2s_core.masks import MasksConfig, compute_masks, default_config
from s2s_core.masks.picture import two_lines
from tests.browser.harness import (
    PHONE,
    chart_labels,
    charts_drawn,
    main_text,
    open_page,
    settle,
    wait_for_mark,
    wait_for_text,
)

pytestmark = pytest.mark.browser


def test_editing_a_source_redraws_the_numbers_the_tokens_and_the_url(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "masks", "en")
    en = default_config("en")
    default = compute_masks(en)
    text = main_text(page)
    assert fmt(default.loss_ignore) in text and fmt(default.loss_all) in text
    # Target 2 "merci" -> "merci beaucoup": one PAD fewer, so new ids, new model outputs, new losses.
    box = page.get_by_label(translate("en", "masks.target_label", row=2), exact=True)
    box.fill("merci beaucoup")
    box.press("Enter")
    tgt = list(en.targets)
    tgt[1] = ("merci", "beaucoup")
    edited = compute_masks(MasksConfig(sources=en.sources, targets=tuple(tgt)))
    wait_for_text(page, fmt(edited.loss_ignore))
    settle(page)
    assert fmt(edited.loss_all) in main_text(page)
    assert "masks_tgt_2=" in page.url
    # Only the open tab is drawn (its charts below the fold): wait for the picture.
    page.locator('[data-testid="stVegaLiteChart"] svg').first.wait_for(state="visible")
    # The picture (the first chart: target + <eos>) draws the new word in sentence 2, where a PAD was.
    assert any("token: beaucoup" in lab for lab in chart_labels(page, 0))
    # The overlay switch inside the chart: the attention mask writes −∞ on every PAD source cell, in the browser.
    svg_text = "c => [...c.querySelectorAll('svg text')].map(e => e.textContent)"
    chart = page.locator('[data-testid="stVegaLiteChart"]').first
    assert "−∞" not in chart.evaluate(svg_text)
    chart.get_by_label(translate("en", "masks.picture.attention")).check()
    page.wait_for_function(
        "() => [...document.querySelector('[data-testid=\"stVegaLiteChart\"]').querySelectorAll('svg text')]"
        ".some(e => e.textContent === '−∞')"
    )
    n_pad_sources = int((~compute_masks(MasksConfig(sources=en.sources, targets=tuple(tgt))).src_mask).sum())
    assert chart.evaluate(svg_text).count("−∞") == n_pad_sources


def test_a_phone_shows_long_words_whole_on_two_lines(app_server, new_page):
    """Nine target columns at 390 px: a word too wide for its cell is drawn on two lines, never cut to "mer…"."""
    words = "je lis une merveilleuse histoire sur l'océan aujourd'hui"
    page = new_page(PHONE)
    open_page(page, app_server, "masks", "en", "masks_tgt_1=" + quote(words))
    charts_drawn(page)
    chart = page.locator('[data-testid="stVegaLiteChart"]').first
    drawn = chart.evaluate("c => [...c.querySelectorAll('svg text')].map(e => e.textContent)")
    assert not any("…" in d for d in drawn), drawn
    for word in words.split():
        assert word in drawn or two_lines(word).replace("\n", "") in drawn, (word, drawn)
    assert two_lines("merveilleuse").replace("\n", "") in drawn  # this one needs two lines on a phone


def test_the_final_state_tab_from_its_link_draws_the_picked_sentence(app_server, new_page):
    """Issue 23 as served: the server draws only the open tab, and the final-state chart is the picked sentence's
    (it was titled "Sentence 1" when this tab read a choice the attention tab made in the same run)."""
    page = new_page()
    open_page(page, app_server, "masks", "en", "masks_tabs=final&masks_row=2")
    charts_drawn(page, 2)  # the picture and the final-state chart
    texts = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=\"stVegaLiteChart\"] svg text')].map(e => e.textContent)"
    )
    assert translate("en", "masks.chart.final_chart", row=2) in texts, texts
    assert translate("en", "masks.chart.final_chart", row=1) not in texts
    assert translate("en", "masks.chart.heat_masked") not in texts  # the attention tab is not drawn at all


# --- issue 25: the fields show their sentences, the outlines keep their contrast, a finger steps the picture ------


BACKGROUNDS = {"light": (255, 255, 255), "dark": (0x17, 0x16, 0x14)}  # .streamlit/config.toml's two themes
FIELDS_FIT = """() => [...document.querySelectorAll('.st-key-s2s_controls input[type="text"]')]
    .map(e => [e.value, e.scrollWidth, e.clientWidth])"""
# Every drawn token cell of the picture: its accessible label and how its outline is painted.
CELL_OUTLINES = """c => [...c.querySelectorAll('svg path[aria-label]')]
    .filter(e => e.getAttribute('role') === 'graphics-symbol' && e.getAttribute('aria-label').includes('; '))
    .map(e => {
        const up = [];
        for (let n = e; n && n.tagName !== 'svg'; n = n.parentElement) up.push(n.getAttribute('opacity') || '1');
        return {label: e.getAttribute('aria-label'), stroke: e.getAttribute('stroke'),
                width: parseFloat(e.getAttribute('stroke-width') || '1'),
                alpha: up.map(parseFloat).reduce((a, b) => a * b, 1)
                       * parseFloat(e.getAttribute('stroke-opacity') || '1')};
    })"""


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def _seen(stroke: str, alpha: float, background: tuple[int, int, int]) -> tuple[int, int, int]:
    """The outline's colour as painted over the background, its opacity applied."""
    return tuple(round(alpha * c + (1 - alpha) * b) for c, b in zip(_rgb(stroke), background, strict=True))


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_every_sentence_field_shows_its_whole_default_at_1280(app_server, new_page, lang):
    """Issue 25 §3: the source and target fields, each the controls column's width, show their default sentence
    whole (side by side, "i had noodles for lunch today" was cut to "i had noodles f")."""
    page = new_page()
    open_page(page, app_server, "masks", lang)
    seen = page.evaluate(FIELDS_FIT)
    assert len(seen) == 2 * len(default_config(lang).sources), seen
    assert [(v, s, c) for v, s, c in seen if s > c] == [], seen


def test_the_cells_outlines_keep_3_to_1_on_both_backgrounds_under_either_mask(app_server, new_page):
    """The source's blue and the target's vermillion outline carry meaning: drawn at full opacity, they keep 3:1
    against the light and the dark page (faded to 0.45 they were 1.8:1). The side the chosen mask leaves alone is
    told by a thinner outline instead."""
    from s2s_ui.charts import contrast

    page = new_page()
    open_page(page, app_server, "masks", "en")
    charts_drawn(page)
    chart = page.locator('[data-testid="stVegaLiteChart"]').first
    for overlay, acted_on in (("loss", "target"), ("attention", "source")):
        if overlay == "attention":
            chart.get_by_label(translate("en", "masks.picture.attention")).check()
            page.wait_for_function(
                "() => [...document.querySelector('[data-testid=\"stVegaLiteChart\"]').querySelectorAll('svg text')]"
                ".some(e => e.textContent === '−∞')"
            )
        cells = chart.evaluate(CELL_OUTLINES)
        sides = {side: [c for c in cells if c["label"].startswith(side + ";")] for side in ("source", "target")}
        assert sides["source"] and sides["target"], cells[:3]
        for side, drawn in sides.items():
            for cell in drawn:
                for name, background in BACKGROUNDS.items():
                    ratio = contrast(_seen(cell["stroke"], cell["alpha"], background), background)
                    assert ratio >= 3.0, (overlay, side, name, round(ratio, 2), cell)
            widths = {c["width"] for c in drawn}
            other = {c["width"] for c in sides["source" if side == "target" else "target"]}
            if side == acted_on:
                assert min(widths) > max(other), (overlay, side, widths, other)  # the side the mask acts on


def test_a_finger_steps_the_picture_on_a_phone(app_server, browser):
    """At 390 × 844 on a touch screen the picture starts in the screen's top half, its sentence slider is on the
    first screen, and a tap on the slider's track moves the step: the weight strip is redrawn for that sentence
    and the line under the picture follows."""
    from s2s_core.masks.picture import weight_line
    from s2s_ui.explainer import PICTURE_KEY

    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.set_default_timeout(180_000)
        open_page(page, app_server, "masks", "en")
        charts_drawn(page)
        picture = page.locator(f'.st-key-{PICTURE_KEY} [data-testid="stVegaLiteChart"]').first
        assert picture.bounding_box()["y"] <= PHONE["height"] / 2
        slider = picture.locator('.vega-bindings input[type="range"]')
        box = slider.bounding_box()
        assert box["y"] + box["height"] <= PHONE["height"], box  # on the first screen, under the picture
        assert slider.input_value() == "2"  # it opens on "thanks", the sentence with the most PAD
        page.touchscreen.tap(box["x"] + 2, box["y"] + box["height"] / 2)  # the track's left end: sentence 1
        page.wait_for_function("el => el.value === '1'", arg=slider.element_handle(), timeout=10_000)
        first = compute_masks(default_config("en"))
        weights = [fmt(w) for w in first.weights_masked[0, 0].tolist()]
        wait_for_mark(page, 0, "position: 1", f"with the mask: {weights[0]}")
        masked, unmasked = weight_line(first, 0)
        line = translate("en", "masks.picture.follow", row=1, masked=masked, unmasked=unmasked).replace("**", "")
        # The line under the picture is the fragment's, which reruns after the move: wait for it, not for a moment.
        page.wait_for_function(
            "t => document.querySelector('[data-testid=\"stMain\"]').innerText.includes(t)", arg=line, timeout=60_000
        )
        settle(page)
        assert line in main_text(page)
    finally:
        context.close()
