"""Every content page has the two download buttons (SVG, PNG) under its main picture, and the SVG button's file is
that picture: same title, the learner's theme (s2s_ui/download.py, s2s_core/export.py).

One AppTest session walks the twelve pages (as a learner does with the navigation), in the dark theme. The files
are made only when a button is clicked, by the callable the button registered with Streamlit's media manager; the
test records those callables as Streamlit registers them and calls the SVG one, as a click would.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.testing.v1 import AppTest

from s2s_core.catalog import translate
from s2s_core.export import THEMES
from s2s_jobs import jobs
from s2s_jobs.settings import BACKEND_ENV
from s2s_ui.registry import existing_pages
from tests.app.conftest import open_page

ROOT = Path(__file__).resolve().parent.parent.parent
PAGES = [p.ns for p in existing_pages() if p.ns != "home"]
SVG_NS = "{http://www.w3.org/2000/svg}"
LABS = ("training", "translation")
# pages/ngram.py draws its picture with st.vega_lite_chart itself (a click on a candidate extends the prefix), not
# through s2s_ui/charts.draw or a step control: it has no buttons until it does (draw() takes the same arguments).
NOT_YET: dict[str, str] = {}  # a page whose main picture does not get the buttons yet (none)


@pytest.fixture(scope="module")
def made() -> Iterator[dict[str, object]]:
    """file name -> the callable a download button registered (the last one registered under that name)."""
    seen: dict[str, object] = {}
    original = MediaFileManager.add_deferred

    def record(self, data_callable, mimetype, coordinates, file_name=None, **kwargs):
        seen[file_name] = data_callable
        return original(self, data_callable, mimetype, coordinates, file_name, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(MediaFileManager, "add_deferred", record)
        # The labs train in this process (tests/training_backend.py): set for the module, as the session is
        patch.setenv(BACKEND_ENV, "inprocess")
        yield seen


@pytest.fixture(scope="module")
def app(made) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["lang"] = "en"
    at.context = {"theme": "dark"}
    at.run()
    assert not at.exception
    return at


def in_order(node) -> Iterator[object]:
    """The elements under `node` in the order the page shows them."""
    for child in getattr(node, "children", {}).values():
        yield child
        yield from in_order(child)


def key_of(node) -> str:
    ident = getattr(getattr(node, "proto", None), "id", "") or ""
    return ident.rsplit("-", 1)[-1] if ident.startswith("$$ID-") else ""


def first_title(spec: dict) -> str:
    title = spec.get("title")
    text = title.get("text") if isinstance(title, dict) else title
    return text[0] if isinstance(text, list) else text


@pytest.mark.parametrize(
    "ns",
    [
        pytest.param(ns, marks=pytest.mark.xfail(strict=True, reason=NOT_YET[ns])) if ns in NOT_YET else ns
        for ns in PAGES
    ],
)
def test_the_main_picture_has_svg_and_png_buttons_and_the_svg_is_that_picture(app, made, ns):
    if ns in LABS:  # a warm-up model still training shows its progress there, not the picture
        assert jobs.runner().wait_idle(180)
    app.switch_page(f"pages/{ns}.py").run()
    assert not app.exception, [e.value for e in app.exception]
    picture = next(n for n in in_order(app.main) if key_of(n) == "s2s_picture")
    drawn = list(in_order(picture))
    charts = [i for i, n in enumerate(drawn) if getattr(n, "type", "") == "vega_lite_chart"]
    buttons = {key_of(n): (i, n) for i, n in enumerate(drawn) if getattr(n, "type", "") == "download_button"}
    svg, png = buttons.get(f"s2s_download_{ns}_svg"), buttons.get(f"s2s_download_{ns}_png")
    shown = [(getattr(n, "type", ""), str(getattr(n, "value", ""))[:60]) for n in drawn]
    assert svg and png, f"{ns}: no download buttons under the picture ({sorted(buttons)}; {shown})"
    assert charts and charts[0] < svg[0] < png[0]  # under the page's first picture, SVG then PNG
    assert svg[1].proto.label == translate("en", "ui.download.svg")
    assert png[1].proto.label == translate("en", "ui.download.png")
    assert svg[1].proto.ignore_rerun and png[1].proto.ignore_rerun  # a click downloads; the page does not rerun
    assert svg[1].proto.deferred_file_id  # made when clicked, not on this run
    # The file the SVG button makes: the chart above it, in the dark theme the learner has.
    file = made[f"{ns}_picture_en_dark.svg"]()
    root = ET.fromstring(file.decode("utf-8"))
    assert root.find(f"{SVG_NS}rect").get("fill") == THEMES["dark"].background
    title = first_title(json.loads(drawn[charts[0]].proto.spec))
    words = [t.text for t in root.iter(f"{SVG_NS}text")] + [t.text for t in root.iter(f"{SVG_NS}tspan")]
    assert title is None or title in words, f"{ns}: the file's title is not the picture's ({title!r})"
    assert f"{ns}_picture_en_dark.png" in made


def test_a_faded_kept_picture_has_no_buttons_and_a_fixed_input_brings_them_back():
    """A bad input keeps the last good picture, faded (s2s_ui/kept.py): its file would show an input no longer on the
    page, so it gets no buttons; the fixed cell draws the live picture with them again."""
    at = open_page("attention", "en")
    assert len(at.get("download_button")) == 2
    for text, buttons in (("x", 0), ("8", 2)):
        at.session_state["att_src"] = {"edited_rows": {1: {"d2": text}}, "added_rows": [], "deleted_rows": []}
        at.run()
        assert not at.exception and len(at.get("vega_lite_chart")) == 1  # the picture, faded or live
        assert len(at.get("download_button")) == buttons
