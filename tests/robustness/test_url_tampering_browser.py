"""Tampered URLs in real Chromium on every existing page: no script element injected, no dialog, no traceback."""

from __future__ import annotations

from functools import cache
from urllib.parse import urlencode

import pytest

from s2s_ui.registry import existing_pages
from tests.robustness.browsing import open_settled
from tests.robustness.known_bugs import xfail_if_known
from tests.sizes import pick

pytestmark = [pytest.mark.browser, pytest.mark.timeout(1200)]
# Payloads that would leave a trace if rendered as HTML: a dialog, a global flag, or a new element.
PAYLOADS = (
    "<script>window.__xss=1;alert(1)</script>",
    '<img src=x id=xss-img onerror="window.__xss=2;alert(2)">',
    '"><svg onload=alert(3)>',
)
# 1e309 is left out: Streamlit's own int number_input raises on it (test_url_tampering_app covers it).
OTHER = ("-5", "99999999999", "NaN", "abc", "1,2;3", "")


@cache
def url_keys(ns: str) -> tuple[str, ...]:
    from tests.robustness.test_url_tampering_app import url_keys as from_apptest

    return tuple(from_apptest(ns))


@pytest.mark.parametrize("spec", existing_pages(), ids=lambda s: s.ns)
def test_hostile_url_renders_nothing_as_html(app_server, new_page, spec, request):
    xfail_if_known(request, spec.ns, "url_browser")
    keys = list(url_keys(spec.ns)) + ["zz_unknown"]
    # `make test`: one language per page (alternating by page); `make test-all`: both.
    first = ("en", "ko")[existing_pages().index(spec) % 2]
    for round_, lang in enumerate(pick((first,), ("en", "ko"))):
        values = PAYLOADS + OTHER
        query = {k: values[(round_ * 3 + j) % len(values)] for j, k in enumerate(keys)}
        # Every text-like key also gets a payload in the second round, whatever its position.
        page = new_page()
        dialogs: list[str] = []
        page.on("dialog", lambda d, seen=dialogs: (seen.append(d.message), d.dismiss()))
        open_settled(page, f"{app_server}/{spec.url}?lang={lang}&{urlencode(query)}")
        injected = page.evaluate(
            """() => ({
                scripts: document.querySelectorAll('[data-testid="stApp"] script').length,
                imgs: document.querySelectorAll('#xss-img, img[src="x"], svg[onload]').length,
                flag: window.__xss || 0,
            })"""
        )
        assert dialogs == [], f"{spec.ns} {lang}: a dialog fired: {dialogs} with {query}"
        assert injected == {"scripts": 0, "imgs": 0, "flag": 0}, f"{spec.ns} {lang}: {injected} with {query}"
        page.context.close()
