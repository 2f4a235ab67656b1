"""Encoder–decoder page in real Chromium: step the decoder, break and fix the hand-off, edit the sentence."""

from __future__ import annotations

import pytest

from s2s_core.fmt import vec as vector_text
from s2s_core.seq2seq import Seq2SeqConfig, run
from tests.browser.harness import main_text, open_page, wait_for_text, wait_idle

pytestmark = pytest.mark.browser


def _open(page, base_url: str, lang: str, extra: str = "") -> None:
    """Home first: a fresh server answers its very first deep link to a URL that differs from the file
    name (no longer possible: URL paths equal file names) with a "Page not found" dialog."""
    open_page(page, base_url, "", lang)
    open_page(page, base_url, "seq2seq", lang, extra)


def _click(page, group: str, name: str) -> None:
    """Pick one option of the segmented control labelled `group` (its options are radios) and wait."""
    page.get_by_role("radiogroup", name=group).get_by_role("radio", name=name, exact=True).click()
    page.wait_for_timeout(300)
    wait_idle(page)


@pytest.mark.parametrize("lang, heading", [("en", "The hand-off"), ("ko", "넘겨주기")])
def test_defaults_show_the_live_hand_off(app_server, new_page, lang, heading):
    page = new_page()
    _open(page, app_server, lang)
    text = main_text(page)
    assert heading in text
    assert vector_text(run(Seq2SeqConfig()).handoff.h0[-1, 0]) in text
    assert page.locator('[data-testid="stVegaLiteChart"]').count() >= 5


def test_stepping_the_decoder_redraws_that_step(app_server, new_page):
    config = Seq2SeqConfig(steps=6)
    dec = run(config).decoding
    assert len(dec.steps) >= 2, "the default seed decodes at least two words"
    page = new_page()
    _open(page, app_server, "en", "seq2seq_steps=6")
    assert vector_text(dec.steps[0].h_new) in main_text(page)
    _click(page, "Show step", "t2")
    wait_for_text(page, vector_text(dec.steps[1].h_new))
    assert f"Input word: {dec.steps[1].input_token}" in main_text(page)
    assert "seq2seq_step=t2" in page.url  # bound controls carry the label


def test_bidirectional_needs_a_bridge_and_the_bridge_fixes_it(app_server, new_page):
    page = new_page()
    _open(page, app_server, "en")
    page.get_by_text("Bidirectional (K = 2)", exact=True).click()
    page.wait_for_timeout(300)
    wait_idle(page)
    alert = page.locator('[data-testid="stAlert"]').filter(has_text="Bridge:")
    alert.first.wait_for()
    assert "(2, 1, 6)" in alert.first.inner_text()
    assert "h_n (2, 1, 6)" in main_text(page)  # the encoder section is still drawn
    _click(page, "Bridge", "Linear + tanh")
    wait_for_text(page, "The bridge lays all 2 rows of h_n side by side")
    config = Seq2SeqConfig(bidirectional=True, bridge="linear")
    assert vector_text(run(config).handoff.h0[-1, 0]) in main_text(page)


def test_editing_the_sentence_in_korean_redraws(app_server, new_page):
    page = new_page(locale="ko-KR")
    _open(page, app_server, "ko")
    box = page.get_by_label("원문 문장 (단어는 띄어쓰기로 구분)", exact=True)
    box.fill("오늘 점심에 무엇을 먹을까")
    box.press("Enter")
    page.wait_for_timeout(300)
    wait_idle(page)
    wait_for_text(page, "단어 (S = 4)")
    text = main_text(page)
    assert "outputs (1, 4, 6)" in text
    assert vector_text(run(Seq2SeqConfig(source=("오늘", "점심에", "무엇을", "먹을까"))).handoff.h0[-1, 0]) in text
