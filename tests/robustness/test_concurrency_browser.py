"""Browser sessions at once on one server: each with its own inputs sees only its own results.

Ten sessions in `make test-all` (--full), three in `make test` (tests/sizes.py): the same code paths, less load.
"""

from __future__ import annotations

import re

import pytest

from s2s_core.catalog import translate
from s2s_ui.registry import existing_pages
from tests.browser.harness import main_text
from tests.robustness.browsing import goto_all
from tests.sizes import pick

pytestmark = [pytest.mark.browser, pytest.mark.timeout(1800)]
SESSIONS = pick(3, 10)


def test_sessions_each_see_their_own_attention_context(app_server, new_page):
    # s1 = [k, 0]: step 1's context is [0.2k + 3, 2.2] (seed weights 0.2, 0.3, 0.5), distinct for each session.
    pages = [new_page() for _ in range(SESSIONS)]
    ks = list(range(1, SESSIONS + 1))
    goto_all(pages, [f"{app_server}/attention?lang=en&att_src={k},0;0,4;6,2" for k in ks])
    for k, page in zip(ks, pages, strict=True):
        seen = set(re.findall(r"\[(-?[\d.]+), 2\.2\]", main_text(page)))
        assert seen == {f"{0.2 * k + 3:g}"}, f"session k={k} sees contexts {seen}"
    # 2) A second round at once: every session edits its own URL again; still nobody sees another's numbers.
    goto_all(pages, [f"{app_server}/attention?lang=ko&att_src={k},0;0,4;6,2&att_steps=0,0,1;1,0,0" for k in ks])
    for k, page in zip(ks, pages, strict=True):
        seen = set(re.findall(r"\[(-?[\d.]+), 0\]", main_text(page)))
        assert seen == {f"{k:g}"}, f"session k={k} sees step-2 contexts {seen}"


def test_sessions_on_different_pages_at_once(app_server, new_page):
    specs = existing_pages()
    chosen = [specs[i % len(specs)] for i in range(SESSIONS)]
    pages = [new_page() for _ in chosen]
    goto_all(pages, [f"{app_server}/{s.url}?lang={'ko' if i % 2 else 'en'}" for i, s in enumerate(chosen)])
    for i, (spec, page) in enumerate(zip(chosen, pages, strict=True)):
        title = translate("ko" if i % 2 else "en", f"{spec.ns}.title")
        assert title in main_text(page), f"session {i} on {spec.ns} does not show its title"
