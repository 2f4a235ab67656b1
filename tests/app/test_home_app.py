"""Home page: the language default, the sidebar switch, and the learning path picture (every existing page a
box linked to its page, in both languages; that the cards list every page is checked in test_smoke_app.py)."""

from __future__ import annotations

import json

import pytest

from s2s_core.catalog import translate
from s2s_ui.registry import existing_pages
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


@pytest.mark.parametrize("language", ["en", "ko"])
def test_home_opens_on_the_learning_path_each_box_a_link_in_the_learners_language(language):
    at = open_page("home", language)
    assert not at.exception
    charts = at.get("vega_lite_chart")
    assert charts, "Home opens on the learning path picture"
    spec = json.loads(charts[0].proto.spec)
    assert spec["title"]["text"] == translate(language, "home.path_chart_title")
    boxes = {row["ns"]: row for row in _chart_rows(charts[0]) if "ns" in row}
    steps = [p for p in existing_pages() if p.ns != "home"]
    assert set(boxes) == {p.ns for p in steps}  # every existing page is drawn, and only those
    for page in steps:  # named in this language, linked to its page with ?lang=
        assert translate(language, f"{page.ns}.title") in boxes[page.ns]["label"]
        assert boxes[page.ns]["href"] == f"{page.url}?lang={language}"
    assert len(at.get("page_link")) == len(steps)  # the list of page cards stays below (the accessible path)


def _chart_rows(chart) -> list[dict]:
    """The chart's data rows (Streamlit ships inline datasets as Arrow IPC)."""
    import pyarrow as pa

    return [row for data in chart.proto.datasets for row in pa.ipc.open_stream(data.data.data).read_all().to_pylist()]
