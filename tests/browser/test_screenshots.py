"""Screenshots at 1280 px and 390 px, Korean and English, into screenshots/: every existing page in
`make screenshots` and `make test-all`, a sample in `make test` (the reference page, attention: English on a
desktop and Korean on a phone, which keeps the screenshot path tested at half the cost).

Open them with an image viewer before calling a page done (README: "Looking at the pages").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from s2s_ui.registry import existing_pages
from tests.browser.harness import DESKTOP, PHONE, charts_drawn, full_height, open_page
from tests.sizes import pick

pytestmark = pytest.mark.browser
OUT = Path(__file__).resolve().parent.parent.parent / "screenshots"
PAGES = pick([s for s in existing_pages() if s.ns == "attention"], existing_pages())
SHOTS = pick(
    [("en", "desktop", DESKTOP), ("ko", "phone", PHONE)],
    [(lang, name, size) for lang in ("en", "ko") for name, size in (("desktop", DESKTOP), ("phone", PHONE))],
)


@pytest.mark.parametrize("spec", PAGES, ids=lambda s: s.ns)
def test_screenshot_every_page(app_server, new_page, spec):
    OUT.mkdir(exist_ok=True)
    for lang, name, viewport in SHOTS:
        page = new_page(viewport)
        open_page(page, app_server, spec.url, lang)
        charts_drawn(page, at_least=0)  # every chart on the page has drawn before the picture is taken
        full_height(page, viewport)
        path = OUT / f"{spec.ns}-{lang}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        assert path.stat().st_size > 10_000
        page.context.close()
