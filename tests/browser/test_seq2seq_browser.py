"""Encoder–decoder page in real Chromium: picking a decoder step (a segmented control, by its role and label)
redraws that step, goes into the link, and every chart draws.

The hand-off, the bridge, sentence edits and bad input are tested through AppTest (tests/app/test_seq2seq_app.py).
"""

from __future__ import annotations

import pytest

from s2s_core.fmt import vec as vector_text
from s2s_core.seq2seq import Seq2SeqConfig, run
from s2s_ui.catalog import translate
from tests.browser.harness import charts_drawn, main_text, open_page, settle, wait_for_text

pytestmark = pytest.mark.browser


def test_stepping_the_decoder_redraws_that_step(app_server, new_page):
    dec = run(Seq2SeqConfig(steps=6)).decoding
    assert len(dec.steps) >= 2, "the default seed decodes at least two words"
    page = new_page()
    open_page(page, app_server, "seq2seq", "en", "seq2seq_steps=6")
    assert vector_text(dec.steps[0].h_new) in main_text(page)
    group = page.get_by_role("radiogroup", name=translate("en", "seq2seq.step_label"))
    group.get_by_role("radio", name="t2", exact=True).click()
    wait_for_text(page, vector_text(dec.steps[1].h_new))
    settle(page)
    assert f"Input word: {dec.steps[1].input_token}" in main_text(page)
    page.wait_for_function("() => location.search.includes('seq2seq_step=2')")  # the raw step, not the label
    charts_drawn(page, 5)
