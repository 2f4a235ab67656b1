"""Encoder–decoder page in real Chromium: in the "Step by step" tab, picking a decoder step (a segmented control,
by its role and label) redraws that step, goes into the link, and the visible charts draw.

The hand-off, the bridge, sentence edits and bad input are tested through AppTest (tests/app/test_seq2seq_app.py).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from s2s_core.fmt import vec as vector_text
from s2s_core.seq2seq import default_config, run
from s2s_ui.catalog import translate
from tests.browser.harness import main_text, open_page, settle, wait_for_text

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


def test_stepping_the_decoder_redraws_that_step(app_server, new_page):
    dec = run(replace(default_config("en"), steps=6)).decoding
    assert len(dec.steps) >= 2, "the default seed decodes at least two words"
    page = new_page()
    open_page(page, app_server, "seq2seq", "en", "seq2seq_steps=6")
    page.get_by_role("tab", name=translate("en", "ui.tab_steps")).click()  # the steps sit in a folded tab
    settle(page)
    assert vector_text(dec.steps[0].h_new) in main_text(page)
    group = page.get_by_role("radiogroup", name=translate("en", "seq2seq.step_label"))
    group.get_by_role("radio", name="t2", exact=True).click()
    wait_for_text(page, vector_text(dec.steps[1].h_new))
    settle(page)
    assert f"Input word: {dec.steps[1].input_token}" in main_text(page)
    page.wait_for_function("() => location.search.includes('seq2seq_step=2')")  # the raw step, not the label
    visible_charts_drawn(page, 3)  # the picture, the step's top-k bars, the decoder's states
