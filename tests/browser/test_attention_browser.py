"""Attention page in real Chromium: a real edit in the source-vector grid redraws the context and goes into the link.

What AppTest already sees (the seed's contexts, bad cells, a broken link) is tested in tests/app only.
"""

from __future__ import annotations

import pytest

from tests.browser.harness import charts_drawn, edit_grid_cell, main_text, open_page, wait_for_text

pytestmark = pytest.mark.browser


def test_editing_a_source_cell_changes_the_context(app_server, new_page):
    page = new_page()
    open_page(page, app_server, "attention", "en")
    assert "[3.4, 2.2]" in main_text(page)
    # s3 = [6, 2] -> [10, 2]: step 1's first component becomes 0.2×2 + 0.3×0 + 0.5×10 = 5.4.
    edit_grid_cell(page, grid_index=0, row=2, col=0, text="10")
    wait_for_text(page, "[5.4, 2.2]")
    assert "0.2×2 + 0.3×0 + 0.5×10 = 5.4" in main_text(page)
    assert "att_src=2%2C0%3B0%2C4%3B10%2C2" in page.url  # the edited table is in the shareable link
    charts_drawn(page)
