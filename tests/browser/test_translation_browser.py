"""Translation lab in real Chromium: the default model, trained by the server's worker pool when it started (as a
class's first visitor finds it), read the English beside the map and the verb row's map cell from its accessible
label, then type another Korean sentence and read its English; after two edits the map's rows and columns are
still drawn in the sentences' order (issue 24 §1: "t8 · <eos>" was drawn at the top). Pressing Train and the live
progress are the Training lab's browser tests (the same s2s_ui/training/live.py); the Translation AppTest presses
this page's."""

from __future__ import annotations

import pytest

from tests.browser.harness import charts_drawn, main_text, wait_for_text, wait_idle

pytestmark = pytest.mark.browser
QUIZ = "Can it therefore compute the 3rd English word"  # the question: drawn once a trained model is on the page


def _cell_labels(page) -> list[str]:
    """The accessible labels of the visible map's cells ('output step: t2 · read; source position: …; weight: 1')."""
    charts_drawn(page)
    return page.locator('[data-testid="stVegaLiteChart"] svg [role="graphics-symbol"]').evaluate_all(
        "els => els.filter(e => e.checkVisibility()).map(e => e.getAttribute('aria-label') || '')"
    )


def _weight(labels: list[str], step: str, position: str) -> float:
    (label,) = [x for x in labels if step in x and position in x and "weight: " in x]
    return float(label.rsplit("weight: ", 1)[1])


def _drawn_order(page) -> tuple[list[str], list[str]]:
    """The map's column labels left to right and its row labels top to bottom, as the SVG draws them: the axis
    texts ("s1" over "나는"; "t1 · she") of the visible chart that has row labels, sorted by their position."""
    charts_drawn(page)
    return page.evaluate(
        """() => {
            const chart = [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
                .filter(c => c.checkVisibility())
                .find(c => [...c.querySelectorAll('svg text')].some(e => /^t\\d+ · /.test(e.textContent)));
            const texts = [...chart.querySelectorAll('svg text')].map(e => {
                const r = e.getBoundingClientRect();
                return {text: e.textContent, x: r.left + r.width / 2, y: r.top + r.height / 2};
            });
            const cols = texts.filter(e => /^s\\d+/.test(e.text)).sort((a, b) => a.x - b.x);
            const rows = texts.filter(e => /^t\\d+ · /.test(e.text)).sort((a, b) => a.y - b.y);
            return [cols.map(e => e.text.match(/^s\\d+/)[0]), rows.map(e => e.text.split(' · ')[0])];
        }"""
    )


def test_the_warm_model_reads_the_english_and_a_map_cell_then_type_a_sentence(app_server, new_page):
    page = new_page()
    page.goto(f"{app_server}/translation?lang=en")
    wait_for_text(page, QUIZ, timeout=180_000)  # the page polls the warm job until it is done
    wait_idle(page)
    assert "English: i read a book in the library" in main_text(page)
    labels = _cell_labels(page)
    # The crossing: the English verb (2nd row) looks at the LAST Korean word.
    assert _weight(labels, "t2 · read", "s4 · 읽었다") > 0.5
    assert _weight(labels, "t2 · read", "s1 · 나는") < 0.5

    box = page.get_by_role("textbox", name="Korean sentence")
    box.fill("그녀는 빨간 사과를 샀다")
    box.press("Enter")
    wait_for_text(page, "English: she bought a red apple")
    wait_idle(page)
    assert _weight(_cell_labels(page), "t2 · bought", "s4 · 샀다") > 0.5


def test_after_two_edits_the_map_is_drawn_in_the_sentences_order(app_server, new_page):
    page = new_page()
    page.goto(f"{app_server}/translation?lang=en")
    wait_for_text(page, QUIZ, timeout=180_000)
    wait_idle(page)
    box = page.get_by_role("textbox", name="Korean sentence")
    # A longer sentence, then a shorter one: each swaps the chart's data in place (the scramble came after edits).
    for sentence, english in (
        ("그녀는 어제 학교에서 사과를 먹었다", "English: she ate an apple at school yesterday"),
        ("그녀는 빨간 사과를 샀다", "English: she bought a red apple"),
    ):
        box.fill(sentence)
        box.press("Enter")
        wait_for_text(page, english)
        wait_idle(page)
        columns, rows = _drawn_order(page)
        n_words = len(sentence.split())
        n_rows = len(english.removeprefix("English: ").split()) + 1  # the words and <eos>
        assert columns == [f"s{i}" for i in range(1, n_words + 1)], (sentence, columns)
        assert rows == [f"t{i}" for i in range(1, n_rows + 1)], (sentence, rows)


def _columns_in(page, where: str) -> list[str]:
    """The column words ("s1" over "나는" gives "나는") of the map drawn inside `where` (a CSS selector), in order."""
    return page.evaluate(
        """where => {
            const chart = document.querySelector(where + ' [data-testid="stVegaLiteChart"]');
            if (!chart) return [];
            return [...chart.querySelectorAll('svg .role-axis-label text')]
                .filter(e => e.querySelectorAll('tspan').length === 2)
                .map(e => ({x: e.getBoundingClientRect().left, word: e.querySelectorAll('tspan')[1].textContent}))
                .sort((a, b) => a.x - b.x).map(e => e.word);
        }""",
        where,
    )


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_tab_bar_fits_at_1280(app_server, new_page, lang):
    """Issue 25 §3: at 1280 px nothing is clipped, the Translation lab's ten tabs included (no hidden overflow)."""
    page = new_page()
    page.goto(f"{app_server}/translation?lang={lang}")
    wait_idle(page)
    page.wait_for_selector('[role="tablist"]')
    widths = page.evaluate(
        "() => [...document.querySelectorAll('[role=\"tablist\"]')].map(e => [e.scrollWidth, e.clientWidth])"
    )
    assert widths and all(scroll <= client for scroll, client in widths), widths


def test_word_chips_build_a_sentence_and_an_unknown_word_keeps_the_map_faded(app_server, new_page):
    """The grammar's words are chips under the sentence box: clicking 책을 then 읽는다 after 나는 gives the sentence,
    and the map's columns are its words. A word the grammar does not know is named once, and the last good map stays
    on the page, faded (its columns still the last sentence's words); a good sentence brings the live map back."""
    page = new_page()
    page.goto(f"{app_server}/translation?lang=en")
    wait_idle(page)
    box = page.get_by_role("textbox", name="Korean sentence")
    box.fill("나는")
    box.press("Enter")
    wait_idle(page)
    page.get_by_text("Words the model knows").click()
    for word in ("책을", "읽는다"):
        page.locator('[data-testid="stButtonGroup"] button').filter(has_text=word).first.click()
        page.wait_for_function(
            "w => document.querySelector('input[aria-label=\"Korean sentence\"]').value.endsWith(w)", arg=word
        )
        wait_idle(page)
    assert box.input_value() == "나는 책을 읽는다"
    page.wait_for_function("() => location.search.includes('translation_source=')")  # the link follows
    picture = ".st-key-s2s_picture"
    page.wait_for_function(
        f"() => document.querySelector('{picture} [data-testid=\"stVegaLiteChart\"] svg')"
        "?.textContent.includes('읽는다')"
    )
    assert _columns_in(page, picture) == ["나는", "책을", "읽는다"]

    box.fill("나는 공항에서 책을 읽는다")
    box.press("Enter")
    wait_idle(page)
    alerts = page.locator('[data-testid="stAlert"]').filter(has_text="공항에서")
    alerts.first.wait_for(timeout=60_000)  # Enter's rerun may start after the idle check above: wait for its message
    wait_idle(page)
    assert alerts.count() == 1  # the message names the word, once
    faded = ".st-key-s2s_kept_translation"
    page.wait_for_selector(f'{faded} [data-testid="stVegaLiteChart"] svg')
    assert _columns_in(page, faded) == ["나는", "책을", "읽는다"]  # the last good sentence's map, kept
    assert float(page.evaluate(f"() => getComputedStyle(document.querySelector('{faded}')).opacity")) < 1

    box.fill("그녀는 빵을 먹었다")
    box.press("Enter")
    wait_idle(page)
    page.wait_for_function(
        f"() => document.querySelector('{picture} [data-testid=\"stVegaLiteChart\"] svg')"
        "?.textContent.includes('먹었다')"
    )
    assert page.locator(faded).count() == 0 and _columns_in(page, picture) == ["그녀는", "빵을", "먹었다"]
