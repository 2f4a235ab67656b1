"""Tampered URLs on every existing page through AppTest: unknown keys, wrong types, huge or negative sizes,
<script> in text values. Nothing raises, nothing renders as HTML, every message is filled in, the page draws.
"""

from __future__ import annotations

import os

import pytest
from streamlit.testing.v1 import AppTest

from s2s_core.catalog import translate
from s2s_ui.link import KEYS
from s2s_ui.registry import existing_pages
from s2s_ui.state import Page
from tests.app.conftest import LANGS, ROOT
from tests.robustness.fuzz import SCRIPT, exception_summary, full_details, html_leaks, open_page_full, unfilled_texts
from tests.robustness.known_bugs import split_known, xfail_if_known
from tests.sizes import pick

HOSTILE_URL_VALUES = (
    "",
    "abc",
    "-5",
    "0",
    "-1",
    "99999999999",
    "-99999999999",
    "NaN",
    SCRIPT,
    "1.5",
    "true",
    "%00\x00",
    "a" * 3000,
    "1,2;3",
    ";;;",
    "1," * 40,
    ";".join(["1,2"] * 40),
    "나는 책을 읽는다",
    "[1, 2]",
    '{"a": 1}',
    "1e19",
)
INFINITE = ("1e309", "-inf", "nan")
# Runs per page (each run sets every key at once, rotating through the values): 4 in `make test`, all 21 in
# `make test-all` (tests/sizes.py); URL_RUNS overrides both.
URL_RUNS = int(os.environ.get("URL_RUNS") or pick(4, len(HOSTILE_URL_VALUES)))


def url_keys(ns: str) -> list[str]:
    """The keys this page reads from the URL: its declared fields (a family by its key, with the members a default
    run reads), and every key a default run read through s2s_ui/link.py (tests that the two agree elsewhere)."""
    at = open_page_full(ns, "en")
    read = set(at.session_state[KEYS] if KEYS in at.session_state else set())  # noqa: SIM401 (AppTest's state has no .get)
    declared = set() if ns == "home" else {f.key for f in Page.of(ns).fields}
    return sorted(read | declared)


def check(at: AppTest, ns: str, lang: str, where: str, unfilled: dict[str, str]) -> None:
    assert not at.exception, f"{where}\n{exception_summary(at)}"
    assert not html_leaks(at), f"{where}\n{html_leaks(at)}"
    if ns != "home":
        titles = [str(el.value) for el in at.title]
        assert translate(lang, f"{ns}.title") in titles, f"{where}: the page did not draw ({titles})"
    for text in unfilled_texts(at):
        unfilled.setdefault(text, where)


@pytest.mark.timeout(max(900, URL_RUNS * 120))
@pytest.mark.parametrize("spec", existing_pages(), ids=lambda s: s.ns)
def test_tampered_urls(spec, request):
    xfail_if_known(request, spec.ns, "url")
    keys = url_keys(spec.ns) + ["zz_unknown_key", "lang_"]
    unfilled: dict[str, str] = {}
    for i in range(URL_RUNS):
        lang = LANGS[i % 2]
        query = {k: HOSTILE_URL_VALUES[(i * 7 + j) % len(HOSTILE_URL_VALUES)] for j, k in enumerate(keys)}
        at = open_page_full(spec.ns, lang, query=query)
        check(
            at, spec.ns, lang, f"page={spec.ns} lang={lang} query={ {k: v[:40] for k, v in query.items()} }", unfilled
        )
    unknown, reasons = split_known(list(unfilled))
    assert not unknown, "a message lost its values:\n" + "\n".join(f"{t}\n  with {unfilled[t]}" for t in unknown)
    if reasons:
        pytest.xfail("; ".join(reasons))


@pytest.mark.parametrize("spec", existing_pages(), ids=lambda s: s.ns)
def test_infinite_numbers_in_url(spec):
    """?key=1e309 / inf / nan on every key: the link helper's core check rejects them before a widget sees them
    (Streamlit's own bound int number_input raised on int(inf))."""
    keys = url_keys(spec.ns)
    for i, value in enumerate(INFINITE):
        lang = LANGS[i % len(LANGS)]
        at = open_page_full(spec.ns, lang, query=dict.fromkeys(keys, value))
        check(at, spec.ns, lang, f"page={spec.ns} lang={lang} every key={value}", {})


def test_hostile_language_value_falls_back():
    """?lang= itself tampered on a fresh session: a known language is chosen and the app draws."""
    for bad in (SCRIPT, "", "xx", "ko,en", "EN", "a" * 3000):
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
        at.query_params["lang"] = bad
        with full_details():
            at.run()
        assert not at.exception, exception_summary(at)
        assert at.query_params.get("lang") in LANGS, at.query_params  # the router rewrote ?lang= to a known one
        assert not html_leaks(at)
