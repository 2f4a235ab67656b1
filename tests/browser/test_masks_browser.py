"""Padding & masks page in real Chromium: typing a target sentence redraws the losses, the picture and the link.

Every message for bad or all-PAD sentences, and the checks against PyTorch, are tested through AppTest
(tests/app/test_masks_app.py).
"""

from __future__ import annotations

from urllib.parse import quote

import pytest

from s2s_core.fmt import num as fmt
from s2s_core.masks import MasksConfig, compute_masks, default_config
from s2s_core.masks.picture import two_lines
from s2s_ui.catalog import translate
from tests.browser.harness import PHONE, chart_labels, charts_drawn, main_text, open_page, settle, wait_for_text

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
