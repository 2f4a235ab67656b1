"""Tensor shapes page in real Chromium: two toggles (switched by their names) redraw the shapes table as the
browser shows it, go into the link, and the charts draw.

Padding, packing, the quiz, the failures and bad input are tested through AppTest (tests/app/test_shapes_app.py).
"""

from __future__ import annotations

import pytest

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
