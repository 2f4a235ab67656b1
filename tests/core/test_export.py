"""The main picture as SVG and PNG (s2s_core/export.py), from the very spec the attention page draws.

The spec is the page's own (s2s_ui/attention/picture.chart_spec: finished, its tables as Streamlit's Arrow bytes),
read back into rows as the download button does (s2s_ui/download.plain_spec).
"""

from __future__ import annotations

import copy
import json
import struct
import xml.etree.ElementTree as ET

import pytest

from s2s_core import export
from s2s_core.attention import parse_config
from s2s_core.attention.charts import PICK_PARAM, STEP_PARAM
from s2s_core.attention.fields import DEFAULT_SOURCES, DEFAULT_WEIGHTS
from s2s_core.catalog import LANGS, load_catalog, translate
from s2s_ui.attention.picture import chart_spec
from s2s_ui.download import plain_spec

SVG_NS = "{http://www.w3.org/2000/svg}"


def attention_spec(language: str) -> dict:
    rows = [list(r) for r in DEFAULT_SOURCES], [list(r) for r in DEFAULT_WEIGHTS]
    config = parse_config(*rows, "weights", [False] * 3)
    return plain_spec(chart_spec(config, None, language, 1, None))  # drawn at step 1, as a first visit draws it


def step(n: int) -> dict:
    return {STEP_PARAM: [{"step": n}]}


def texts(svg: str) -> list[str]:
    """Every text the SVG draws (a multi-line title's lines one by one)."""
    root = ET.fromstring(svg)  # parses as XML, or the test fails here
    out = []
    for node in root.iter(f"{SVG_NS}text"):
        spans = list(node.iter(f"{SVG_NS}tspan"))
        out += [s.text or "" for s in spans] if spans else [node.text or ""]
    return out


def png_size(png: bytes) -> tuple[int, int]:
    assert png.startswith(export.PNG_SIGNATURE)
    assert png[12:16] == b"IHDR"
    return struct.unpack(">II", png[16:24])


@pytest.fixture(scope="module")
def svgs() -> dict[tuple[str, str], str]:
    """The page's picture moved to step t2, per language and theme (four conversions shared by the tests)."""
    return {
        (language, theme): export.picture_svg(attention_spec(language), theme, selections=step(2))
        for language in LANGS
        for theme in ("light", "dark")
    }


@pytest.mark.parametrize("language", LANGS)
def test_svg_is_xml_with_the_translated_title_and_the_current_steps_labels(svgs, language):
    drawn = texts(svgs[language, "light"])
    assert translate(language, "attention.chart.title_plane") in drawn
    # The seed's worked example: step t2's context is [1.8, 1.4]; step t1's [3.4, 2.2] is only a faint ring now.
    assert translate(language, "attention.chart.context", step="t2", vector="[1.8, 1.4]") in drawn
    assert translate(language, "attention.chart.context", step="t1", vector="[3.4, 2.2]") not in drawn
    assert any("[1.8, 1.4]" in t for t in drawn if t.startswith("Σ"))  # the chain under the plot: t2's sum


def test_the_file_shows_step_one_without_a_selection_and_the_spec_is_left_unchanged():
    spec = attention_spec("en")
    before = copy.deepcopy(spec)
    drawn = texts(export.picture_svg(spec, "light"))
    assert "t1 context [3.4, 2.2]" in drawn
    assert spec == before  # the cached spec other sessions draw is never changed


def test_dark_svg_has_the_dark_background_and_the_dark_themes_text_colour(svgs):
    dark, light = export.THEMES["dark"], export.THEMES["light"]
    for language in LANGS:
        root = ET.fromstring(svgs[language, "dark"])
        background = root.find(f"{SVG_NS}rect")
        assert background is not None and background.get("fill") == dark.background
        assert "currentColor" not in svgs[language, "dark"]  # a file has no page to inherit a colour from
        fills = {node.get("fill") for node in root.iter(f"{SVG_NS}text")}
        assert dark.text in fills and light.text not in fills
        assert ET.fromstring(svgs[language, "light"]).find(f"{SVG_NS}rect").get("fill") == light.background
    # the role colours stay as they are on screen: the sources' blue, the context's purple
    assert "#2c7fb8" in svgs["en", "dark"].lower() and "#b8588f" in svgs["en", "dark"].lower()


def test_png_has_the_signature_and_the_svgs_proportions_at_the_scale(svgs):
    root = ET.fromstring(svgs["ko", "dark"])
    width, height = float(root.get("width")), float(root.get("height"))
    assert width == export.EXPORT_WIDTH
    png = export.picture_png(attention_spec("ko"), "dark", selections=step(2), scale=2)
    w, h = png_size(png)
    assert (w, h) == (round(width * 2), round(height * 2))
    w1, h1 = png_size(export.picture_png(attention_spec("ko"), "dark", selections=step(2), scale=1))
    assert abs(w1 / h1 - width / height) < 0.01


def test_a_picked_selection_starts_where_the_learner_left_it_keeping_only_its_fields():
    spec = attention_spec("en")
    prepared = export.export_spec(spec, "dark", selections={**step(2), PICK_PARAM: [{"position": "s3", "x": 1}]})
    params = {p["name"]: p for p in prepared["params"]}
    assert params[STEP_PARAM]["value"] == [{"step": 2}]
    assert params[PICK_PARAM]["value"] == [{"position": "s3"}]
    assert prepared["width"] == export.EXPORT_WIDTH and "currentColor" not in json.dumps(prepared)


def test_too_many_rows_is_refused_before_converting():
    spec = {"mark": "point", "data": {"values": [{"a": i} for i in range(export.MAX_ROWS + 1)]}}
    with pytest.raises(export.ExportError) as err:
        export.picture_svg(spec, "light")
    assert err.value.key == "ui.download.too_many_rows"


def test_a_spec_too_large_as_json_is_refused(monkeypatch):
    monkeypatch.setattr(export, "MAX_SPEC_CHARS", 1000)
    with pytest.raises(export.ExportError) as err:
        export.picture_svg(attention_spec("en"), "light")
    assert err.value.key == "ui.download.too_large"


def test_a_spec_the_converter_rejects_or_a_url_to_fetch_is_a_clear_error_not_a_crash():
    for bad in (
        {"mark": "nonsense", "data": {"values": [{"a": 1}]}},
        {"mark": "point", "data": {"url": "http://127.0.0.1:9/rows.csv"}},  # the server never fetches a URL
    ):
        with pytest.raises(export.ExportError) as err:
            export.picture_svg(bad, "light")
        assert err.value.key == "ui.download.failed"
        assert "failed:" not in err.value.params["reason"] and err.value.params["reason"].strip()
    with pytest.raises(export.ExportError):
        export.picture_png(attention_spec("en"), "light", scale=50)


@pytest.mark.parametrize("key", ["ui.download.too_many_rows", "ui.download.too_large", "ui.download.failed"])
def test_every_export_message_reads_in_both_languages(key):
    params = {"rows": "60,000", "limit": "50,000", "size": "9.1", "reason": "Error"}
    for language in LANGS:
        assert key in load_catalog(language)
        assert "{" not in translate(language, key, **params)


def test_a_message_picture_says_why_in_the_learners_words_and_escapes_them():
    text = translate("ko", "ui.download.not_made") + " <b>&</b>"
    svg = export.message_svg(text, "dark")
    assert " ".join(texts(svg)) == text
    assert ET.fromstring(svg).find(f"{SVG_NS}rect").get("fill") == export.THEMES["dark"].background
    assert export.message_png(text, "dark").startswith(export.PNG_SIGNATURE)


def test_file_names_name_the_page_language_and_theme():
    assert export.file_name("attention", "en", "dark", "svg") == "attention_picture_en_dark.svg"
    assert export.file_name("rnn", "ko", None, "png") == "rnn_picture_ko_light.png"  # not reported yet: light
