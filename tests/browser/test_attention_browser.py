"""Attention page in real Chromium: defaults show the seed's contexts; editing a cell redraws the context."""

from __future__ import annotations

import pytest

from tests.browser.harness import edit_grid_cell, main_text, open_page, wait_for_text

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang, context_word", [("en", "Context vector"), ("ko", "문맥 벡터")])
def test_defaults_show_seed_contexts(app_server, new_page, lang, context_word):
    page = new_page()
    open_page(page, app_server, "attention", lang)
    text = main_text(page)
    assert context_word in text
    assert "[3.4, 2.2]" in text and "[1.8, 1.4]" in text


def test_editing_a_source_cell_changes_the_context(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "attention", "en")
    assert "[3.4, 2.2]" in main_text(page)
    # s3 = [6, 2] -> [10, 2]: step 1's first component becomes 0.2×2 + 0.3×0 + 0.5×10 = 5.4.
    edit_grid_cell(page, grid_index=0, row=2, col=0, n_cols=2, text="10")
    wait_for_text(page, "[5.4, 2.2]")
    assert "0.2×2 + 0.3×0 + 0.5×10 = 5.4" in main_text(page)
    assert "10%2C2" in page.url  # the edited table is in the shareable link


def test_url_carries_the_table_and_bad_cell_gets_a_message(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "attention", "ko", extra="att_src=2,0;0,abc;6,2")
    alert = page.locator('[data-testid="stAlert"]').filter(has_text="입력 벡터")
    assert alert.count() >= 1
    assert "abc" in alert.first.inner_text()
    assert "cell" in main_text(page)  # the cell-vs-context note still renders


def test_out_of_range_link_value_falls_back_with_a_notice(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "attention", "en", extra="att_dim=99")
    # att_dim=99 is over the cap of 8: the default (2) is used and a notice names the parameter.
    toasts = page.locator('[data-testid="stToast"]')
    toasts.first.wait_for(timeout=30_000)
    assert "att_dim" in " ".join(toasts.all_inner_texts())
    assert "[3.4, 2.2]" in main_text(page)  # the page still works with the default
