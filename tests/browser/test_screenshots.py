"""Screenshots at 1280 px and 390 px, Korean and English, into screenshots/: every existing page in
`make screenshots` and `make test-all`, a sample (the reference page, attention) in `make test`.

Open them with an image viewer before calling a page done (README: "Looking at the pages").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from s2s_ui.registry import existing_pages
from tests.browser.harness import DESKTOP, PHONE, charts_drawn, next_frame, open_page, wait_idle
from tests.sizes import pick

pytestmark = pytest.mark.browser
OUT = Path(__file__).resolve().parent.parent.parent / "screenshots"
PAGES = pick([s for s in existing_pages() if s.ns == "attention"], existing_pages())


@pytest.mark.parametrize("spec", PAGES, ids=lambda s: s.ns)
def test_screenshot_every_page(app_server, new_page, spec):
    OUT.mkdir(exist_ok=True)
    for lang in ("en", "ko"):
        for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            page = new_page(viewport)
            open_page(page, app_server, spec.url, lang)
            charts_drawn(page, at_least=0)  # every chart on the page has drawn before the picture is taken
            full_height(page, viewport)
            path = OUT / f"{spec.ns}-{lang}-{name}.png"
            page.screenshot(path=str(path), full_page=True)
            assert path.stat().st_size > 10_000
            page.context.close()


def full_height(page, viewport: dict[str, int]) -> None:
    """Streamlit scrolls inside its main block, not the document: grow the viewport to the content."""
    height = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.set_viewport_size({"width": viewport["width"], "height": min(int(height) + 50, 12_000)})
    next_frame(page)  # the width is unchanged, so nothing is re-laid out: one painted frame is enough
    wait_idle(page)
