"""Home page: the language default and the sidebar switch (that the learning path lists every existing page,
in both languages, is checked in test_smoke_app.py)."""

from __future__ import annotations

from s2s_ui.catalog import translate
from tests.app.conftest import all_text, open_page


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
