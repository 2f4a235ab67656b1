"""Home in real Chromium: a box of the learning path picture is a link; clicking it opens that page in the same
language, on a desktop and on a phone (where the picture is a centred column and the fork's boxes are narrower).

What the picture holds (every existing page, its title and link) is tested through AppTest
(tests/app/test_home_app.py) and the layout's data in tests/core/test_path.py.
"""

from __future__ import annotations

import pytest

from s2s_core.catalog import translate
from tests.browser.harness import DESKTOP, PHONE, charts_drawn, open_page, settle

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    "viewport, lang, ns, n", [(DESKTOP, "en", "rnn", 2), (PHONE, "ko", "gru", 5)], ids=["desktop-en", "phone-ko"]
)
def test_clicking_a_box_opens_its_page_in_the_same_language(app_server, new_page, viewport, lang, ns, n):
    page = new_page(viewport)
    open_page(page, app_server, "", lang)
    charts_drawn(page, 1)
    title = translate(lang, f"{ns}.title")
    box = page.locator(f'[data-testid="stVegaLiteChart"] svg [role="graphics-symbol"][aria-label^="{n}. {title}"]')
    assert box.count() >= 2  # the box and its title: both links
    bounds = box.first.bounding_box()
    page.mouse.click(bounds["x"] + bounds["width"] / 2, bounds["y"] + bounds["height"] / 2)  # where a learner clicks
    # a full load of the page's own URL (page.url can lag behind location here, so ask the document)
    page.wait_for_function(
        "([path, query]) => location.pathname.endsWith(path) && location.search === query",
        arg=[f"/{ns}", f"?lang={lang}"],
    )
    settle(page)
    page.wait_for_function("t => document.querySelector('h1')?.innerText.trim() === t", arg=title)
