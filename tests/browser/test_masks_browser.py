"""Padding & masks page in real Chromium: typing a source sentence redraws the losses, the token grid and the link.

Every message for bad or all-PAD sentences, and the checks against PyTorch, are tested through AppTest
(tests/app/test_masks_app.py).
"""

from __future__ import annotations

import pytest

from s2s_core.fmt import num as fmt
from s2s_core.masks import MasksConfig, compute_masks
from s2s_ui.catalog import translate
from tests.browser.harness import chart_labels, charts_drawn, main_text, open_page, settle, wait_for_text

pytestmark = pytest.mark.browser


def test_editing_a_source_redraws_the_numbers_the_tokens_and_the_url(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "masks", "en")
    default = compute_masks(MasksConfig())
    text = main_text(page)
    assert fmt(default.loss_ignore) in text and fmt(default.loss_all) in text
    # Sentence 2 "고마워" -> "고마워 정말로": one PAD fewer, so new ids, new model outputs, new losses.
    box = page.get_by_label(translate("en", "masks.source_label", row=2), exact=True)
    box.fill("고마워 정말로")
    box.press("Enter")
    src = list(MasksConfig().sources)
    src[1] = ("고마워", "정말로")
    edited = compute_masks(MasksConfig(sources=tuple(src)))
    wait_for_text(page, fmt(edited.loss_ignore))
    settle(page)
    assert fmt(edited.loss_all) in main_text(page)
    assert "masks_src_2=" in page.url
    charts_drawn(page, 5)
    # The source-id grid (the first chart) draws the new word in sentence 2, where a PAD was.
    assert any("sentence: 2;" in lab and "token: 정말로;" in lab for lab in chart_labels(page, 0))
