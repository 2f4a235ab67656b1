"""Accessibility audit in Chromium: axe-core's WCAG 2.1 A/AA rules find no critical or serious violation in the
app's own markup, in the light and the dark theme (the accessibility budget in docs/PERFORMANCE.md; issue 14).

`make test`: three pages (Home, the reference attention page, the masks page's tables) in English, both themes;
`make test-all` (--full): every page in both languages and both themes. The audit and its exclusions, each
with its reason, live in scripts/audit_a11y.py, which `make bench` runs on every page for the README's table.
"""

from __future__ import annotations

import pytest

from s2s_ui.registry import existing_pages
from scripts.audit_a11y import THEMES, audit, blocking
from tests.browser.harness import DESKTOP, open_page
from tests.sizes import pick

pytestmark = pytest.mark.browser
SAMPLE = ("home", "attention", "masks")
PAGES = pick([s for s in existing_pages() if s.ns in SAMPLE], existing_pages())
LANGS = pick(("en",), ("en", "ko"))


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("spec", PAGES, ids=lambda s: s.ns)
def test_no_critical_or_serious_violation(app_server, browser, spec, theme):
    for lang in LANGS:
        context = browser.new_context(viewport=DESKTOP, color_scheme=theme)
        try:
            page = context.new_page()
            page.set_default_timeout(180_000)
            open_page(page, app_server, spec.url, lang)
            found = blocking(audit(page))
            assert not found, f"{spec.ns} ({theme}, {lang}):\n" + "\n".join(found)
        finally:
            context.close()
