"""Encoder–decoder page in real Chromium: by default the Translation lab's trained model (trained or loaded by the
test's own server) writes a real English translation step by step; the step slider inside the picture walks the
decoder in the browser (the chosen step's frame moves before any script run, then the step's numbers under the
picture follow and the step goes into the link); editing the sentence redraws the picture with the new words and
its decoder.

The hand-off, the bridge and bad input are tested through AppTest (tests/app/test_seq2seq_app.py).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from s2s_core.catalog import translate
from s2s_core.fmt import num
from s2s_core.seq2seq import default_config, parse_config, run
from s2s_core.seq2seq.frames import brief
from tests.browser.harness import PHONE, charts_drawn, open_page, wait_for_text

pytestmark = pytest.mark.browser
CHART = ".st-key-seq2seq_step_chart"
STEP_MORE = translate("en", "seq2seq.step_more")  # the folded step numbers' expander

# Move the slider as a hand does (value + `input`), wait two painted frames, and report the framed step's
# accessible label (the frame is drawn only at the chosen step) and whether a script run had started.
MOVE = """async ([chart, value]) => {
    const input = document.querySelector(chart + ' .vega-bindings input[type=range]');
    input.value = String(value);
    input.dispatchEvent(new Event('input', {bubbles: true}));
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    const state = document.querySelector('[data-testid="stApp"]').getAttribute('data-test-script-state');
    return {texts: drawn(chart), state};
}"""
DRAWN = "window.drawn = chart => [...document.querySelectorAll(chart + ' svg text')].map(t => t.textContent);"


def drawn_texts(page) -> list[str]:
    return page.evaluate(f"[...document.querySelectorAll('{CHART} svg text')].map(t => t.textContent)")


def test_the_default_page_writes_a_real_translation_step_by_step(app_server, new_page):
    """The trained default: the output line is the toy grammar's English, the picture writes one chosen word per
    decoder step, and moving the slider to step 2 shows that step fed the word step 1 chose."""
    page = new_page()
    open_page(page, app_server, "seq2seq", "en")
    # A fresh server trains the default model first (the page says so and shows the untrained one meanwhile).
    wait_for_text(page, "Output: i read a book <eos>", timeout=300_000)
    wait_for_text(page, "the toy grammar's translation, word for word")
    charts_drawn(page)
    texts = drawn_texts(page)
    assert all(w in texts for w in ("나는", "책을", "읽는다", "h0", "<sos>", "i", "read", "a", "book", "<eos>"))
    page.evaluate(DRAWN)
    seen = page.evaluate(MOVE, [CHART, 2])
    assert seen["state"] == "notRunning"  # the picture moved before any script run
    page.get_by_text(STEP_MORE).click()  # the step's numbers are folded under the picture
    wait_for_text(page, "Input word: i")  # step 2 is fed step 1's word
    wait_for_text(page, "Chosen (greedy: the most likely word): read")
    page.wait_for_function("() => location.search.includes('seq2seq_step=2')")


def test_the_step_slider_walks_the_decoder_in_the_browser(app_server, new_page):
    dec = run(replace(default_config("en", "untrained"), steps=6)).decoding
    assert len(dec.steps) >= 2, "the default seed decodes at least two words"
    page = new_page()
    open_page(page, app_server, "seq2seq", "en", "seq2seq_model=untrained&seq2seq_steps=6")
    charts_drawn(page)
    texts = drawn_texts(page)
    assert all(w in texts for w in ("나는", "읽는다", "h0", "c0", "<sos>", dec.steps[0].chosen))
    page.evaluate(DRAWN)
    seen = page.evaluate(MOVE, [CHART, 2])
    assert seen["state"] == "notRunning"  # the picture moved before any script run
    page.get_by_text(STEP_MORE).click()  # the step's numbers are folded under the picture
    wait_for_text(page, brief(dec.steps[1].h_new))  # then the fragment follows with step 2's numbers
    wait_for_text(page, f"Input word: {dec.steps[1].input_token}")
    page.wait_for_function("() => location.search.includes('seq2seq_step=2')")


def test_editing_the_sentence_redraws_the_picture(app_server, new_page):
    new = parse_config("the cat sat", cell="lstm")
    dec = run(new).decoding
    page = new_page()
    open_page(page, app_server, "seq2seq", "en", "seq2seq_model=untrained")
    box = page.get_by_role("textbox", name="Source sentence")
    box.fill("the cat sat")
    box.press("Enter")
    page.wait_for_function(
        "([chart, w]) => [...document.querySelectorAll(chart + ' svg text')].some(t => t.textContent === w)",
        arg=[CHART, "cat"],
    )
    charts_drawn(page)
    texts = drawn_texts(page)
    assert all(w in texts for w in ("the", "cat", "sat", dec.steps[0].chosen))
    # The old source words are gone from the encoder; they stay only among the faint words of the previous
    # output ("before your edit"), which the untrained decoder may choose from the shared vocabulary.
    old = run(default_config("en", "untrained")).decoding.output
    assert all(texts.count(w) == old.count(w) for w in ("나는", "책을", "읽는다")), texts


def test_a_phone_prints_the_states_numbers(new_page, app_server):
    """At 390 px a four-word sentence's squares are about 30 px wide: their numbers are printed without the leading
    zero ("−.13"), the decoder's first state among them (the tooltip keeps 4 decimals)."""
    h_new = run(parse_config("I read a book")).decoding.steps[0].h_new
    page = new_page(PHONE)
    open_page(page, app_server, "seq2seq", "en", "seq2seq_model=untrained&seq2seq_source=I%20read%20a%20book")
    charts_drawn(page)
    texts = {t.replace("−", "-") for t in drawn_texts(page)}
    for v in h_new.tolist():
        assert num(round(v, 2)).replace("0.", ".", 1) in texts, (v, sorted(texts))


EMPTY_GROUPS = '[data-testid="stVegaLiteChart"] g.role-mark[role="graphics-symbol"]:empty'


def test_a_phone_opens_on_the_picture_with_the_steps_numbers_folded(new_page, app_server):
    """Issue 25, at 390 px in Korean: the picture starts in the top half of the first screen; the step's "h before
    / after" lines are not on it (folded under the picture) until the learner opens them; the waist's name stands
    above the chains' outline (it crossed the decoder's outline and the step's frame); no empty mark group."""
    page = new_page(PHONE)
    open_page(page, app_server, "seq2seq", "ko", "seq2seq_model=untrained")
    charts_drawn(page)
    top = page.locator(CHART).evaluate("e => e.getBoundingClientRect().top")
    assert top < PHONE["height"] / 2, top
    before = translate("ko", "seq2seq.step_h").split(":", 1)[0]  # "이전 h"
    visible = """t => [...document.querySelectorAll('[data-testid="stMarkdownContainer"]')]
        .some(e => e.checkVisibility() && e.innerText.includes(t))"""
    assert not page.evaluate(visible, before)  # folded: not on the screen
    page.get_by_text(translate("ko", "seq2seq.step_more")).click()
    page.wait_for_function(visible, arg=before)  # one tap opens it
    name = translate("ko", "seq2seq.picture.handoff")
    boxes = page.evaluate(
        """([chart, name]) => {
            const label = [...document.querySelectorAll(chart + ' svg text')].find(t => t.textContent === name);
            const areas = [...document.querySelectorAll(chart + ' svg .mark-area path')];
            const box = r => ({top: r.top, bottom: r.bottom, left: r.left, right: r.right});
            return {label: label && box(label.getBoundingClientRect()),
                    outline: areas.map(p => box(p.getBoundingClientRect()))};
        }""",
        [CHART, name],
    )
    assert boxes["label"] is not None and boxes["outline"], boxes
    assert all(boxes["label"]["bottom"] <= o["top"] for o in boxes["outline"]), boxes  # above both outlines
    assert page.locator(EMPTY_GROUPS).count() == 0
