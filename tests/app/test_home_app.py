"""Home page in both languages: the learning path lists exactly the pages that exist."""

from __future__ import annotations

from s2s_ui.catalog import translate
from s2s_ui.registry import existing_pages
from tests.app.conftest import all_text, open_page


def test_home_renders_learning_path(lang):
    at = open_page("home", lang)
    assert not at.exception
    text = all_text(at)
    assert translate(lang, "home.title") in text
    for spec in existing_pages():
        if spec.ns != "home":
            assert translate(lang, f"{spec.ns}.title") in text


def test_browser_locale_default_is_english_without_lang_param():
    from streamlit.testing.v1 import AppTest

    from tests.app.conftest import ROOT

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    assert not at.exception


def test_sidebar_switch_changes_the_language_and_the_url():
    at = open_page("home", "en")
    assert translate("en", "home.title") in all_text(at)
    at.segmented_control(key="lang_switch").set_value("ko").run()
    assert not at.exception
    assert translate("ko", "home.title") in all_text(at)
    assert at.query_params["lang"] == ["ko"] or at.query_params["lang"] == "ko"
