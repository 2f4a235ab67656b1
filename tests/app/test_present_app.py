"""Presentation mode (?present=1) under AppTest: the flag is a link value like the others (s2s_ui/present.py).

Read once per session from the link, kept across a page switch in the session and in the link, its rules put on
the page (s2s_ui/style.py); a value that cannot be read is named in a toast in the learner's language and the
default (off) is used. What the rules do to the drawn page is tested in Chromium (tests/browser/test_present_*).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from s2s_core.catalog import translate
from s2s_ui.style import PRESENT_CSS
from tests.app.conftest import LANGS, toasts

ROOT = Path(__file__).resolve().parent.parent.parent


def start(query: dict[str, str], page: str = "attention") -> AppTest:
    """A new session opened on a link to `page` with `query` (the flag is read on the session's first run)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    for key, value in query.items():
        at.query_params[key] = value
    at.switch_page(f"pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def styles(at: AppTest) -> str:
    """Every <style>-only st.html body on the page (s2s_ui/style.apply_style puts the app's CSS there)."""
    return "".join(el.proto.body for el in at.get("html"))


def present_rules_on(at: AppTest) -> bool:
    return PRESENT_CSS.strip() in styles(at)


def test_the_flag_turns_presentation_mode_on_and_stays_through_a_page_switch():
    at = start({"lang": "en", "present": "1"})
    assert present_rules_on(at)
    assert at.query_params.get("present") == "1"
    # st.navigation starts another page with a link of its own: the session's flag is written back into it.
    at.query_params.clear()
    at.switch_page("pages/bptt.py").run()
    assert not at.exception
    assert present_rules_on(at)
    assert at.query_params.get("present") == "1"
    assert toasts(at) == ""


def test_without_the_flag_nothing_changes():
    at = start({"lang": "en"})
    assert not present_rules_on(at)
    assert "present" not in at.query_params
    assert "@media print" in styles(at)  # the print handout's rules are always there (print media only)


@pytest.mark.parametrize("raw", ["0", "false", "off"])
def test_an_explicit_off_is_the_default_and_leaves_no_parameter(raw):
    at = start({"lang": "en", "present": raw})
    assert not present_rules_on(at)
    assert "present" not in at.query_params
    assert toasts(at) == ""


@pytest.mark.parametrize("lang", LANGS)
def test_a_bad_value_is_named_in_a_toast_and_the_default_is_used(lang):
    at = start({"lang": lang, "present": "projector"})
    assert not present_rules_on(at)
    assert "present" not in at.query_params  # the bad value leaves the link
    said = toasts(at)
    assert translate(lang, "ui.present.field") in said  # the field, in the learner's language
    assert "projector" in said and "?present=" in said
    # Read once: a later run does not read the link again nor repeat the message.
    at.query_params["present"] = "1"
    at.run()
    assert not present_rules_on(at)
    assert toasts(at) == ""
