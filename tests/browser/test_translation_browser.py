"""Translation lab in real Chromium: the default model, trained by the server's worker pool when it started (as a
class's first visitor finds it), read the English beside the map and the verb row's map cell from its accessible
label, then type another Korean sentence and read its English. Pressing Train and the live progress are the
Training lab's browser tests (the same s2s_ui/training/live.py); the Translation AppTest presses this page's."""

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
