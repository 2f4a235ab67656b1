"""s2s_ui/charts.py's `finish`: every spec leaves with readable text, theme colours, a description and
accessible mark labels in the page's language (docs/ARCHITECTURE.md; issue 14 "Readable figures")."""

from __future__ import annotations

import json

import altair as alt
import pandas as pd
import pytest

from s2s_core.fmt import NUM_D3
from s2s_ui.charts import (
    ARIA_FIELD,
    DARK_BG,
    LIGHT_BG,
    MIN_FONT_PX,
    ROLE_COLOURS,
    THEME_TEXT,
    _rgb,
    contrast,
    finish,
    to_spec,
)

FRAME = pd.DataFrame({"pos": ["a", "b"], "w": [0.123456, 0.5], "n": [1, 2]})


def heatmap() -> alt.LayerChart:
    """A cell grid with black cell labels, a tooltip with translated titles, and a tiny font somewhere."""
    base = alt.Chart(FRAME).encode(x=alt.X("pos:N", title="위치"), y=alt.Y("n:O", title="행"))
    cells = base.mark_rect(stroke="white").encode(
        color=alt.Color("w:Q", title="가중치"),
        tooltip=[alt.Tooltip("pos:N", title="위치"), alt.Tooltip("w:Q", title="가중치", format=".2f")],
    )
    labels = base.mark_text(fontSize=9).encode(text="pos:N", color=alt.value("black"))
    return (cells + labels).properties(title="어디를 보는가").configure_axis(labelFontSize=10)


def bars_with_labels() -> alt.LayerChart:
    """Bars, labels above them with no colour, a black reference rule, no title."""
    base = alt.Chart(FRAME).encode(x=alt.X("pos:N", title="단어"), y=alt.Y("w:Q", title="확률"))
    bars = base.mark_bar().encode(tooltip=[alt.Tooltip("w:Q", title="확률")])
    text = base.mark_text(dy=-7).encode(text=alt.Text("w:Q", format=".2f"))
    rule = alt.Chart(pd.DataFrame({"y": [0.5]})).mark_rule(color="black").encode(y="y:Q")
    return bars + text + rule


def units(spec: dict) -> list[dict]:
    return spec.get("layer", [spec])


def test_fonts_never_below_eleven_px():
    spec = to_spec(heatmap())
    sizes = []

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key.endswith("ontSize") and isinstance(value, (int, float)):
                    sizes.append(value)
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(spec)
    assert sizes and min(sizes) >= MIN_FONT_PX
    expr = finish({"mark": {"type": "text", "fontSize": {"expr": "width / 40"}}})
    assert expr["mark"]["fontSize"] == {"expr": f"max({MIN_FONT_PX}, width / 40)"}


def test_description_from_the_title_unless_the_page_gave_one():
    assert to_spec(heatmap())["description"] == "어디를 보는가"
    titled = finish({"mark": "point", "title": {"text": "Where t2 looks", "subtitle": ["thick line", "= weight"]}})
    assert titled["description"] == "Where t2 looks: thick line = weight"
    given = finish({"mark": "point", "title": "T", "description": "the page's own words"})
    assert given["description"] == "the page's own words"
    # no title: the page-translated axis titles, never a field name
    assert to_spec(bars_with_labels())["description"] == "확률 · 단어"


def test_mark_labels_come_from_the_tooltip_in_the_pages_language_with_rounded_numbers():
    cells, labels = units(to_spec(heatmap()))
    assert cells["encoding"]["description"] == {"field": ARIA_FIELD, "type": "nominal"}
    expr = cells["transform"][-1]["calculate"]
    assert '"위치: "' in expr and '"가중치: "' in expr and '".2f"' in expr  # translated titles, the tooltip's format
    assert "pos" in expr and '"pos: "' not in expr  # the field is read, its internal name is not said
    # the cell's own label is read with the cell: the text on it is not read twice
    assert labels["mark"]["aria"] is False
    bars, text, rule = units(to_spec(bars_with_labels()))
    assert (
        f'format(datum["w"], "{NUM_D3}")' in bars["transform"][-1]["calculate"]
    )  # no format given: num()'s 4 decimals
    assert 'format(datum["w"], ".2f")' in text["transform"][-1]["calculate"]  # a label on the page says its text
    assert rule["mark"]["aria"] is False  # decorative: nothing of its own to say


def test_axes_and_legends_are_named_by_their_titles():
    cells, _ = units(to_spec(heatmap()))
    assert cells["encoding"]["x"]["axis"]["description"] == "위치"
    assert cells["encoding"]["color"]["legend"]["description"] == "가중치"
    untitled = finish({"mark": "bar", "encoding": {"x": {"field": "pos_x", "type": "nominal"}}})
    assert untitled["encoding"]["x"]["axis"] == {"aria": False}  # English "X-axis titled 'pos_x'" otherwise
    listed = finish(
        {
            "mark": "rect",
            "encoding": {
                "color": {"field": "k", "type": "nominal", "title": "칸", "scale": {"domain": ["실제", "PAD"]}}
            },
        }
    )
    assert listed["encoding"]["color"]["legend"]["description"] == "칸: 실제, PAD"


def test_text_on_the_page_follows_the_theme_and_text_in_cells_keeps_its_colour():
    spec = to_spec(heatmap())
    assert units(spec)[1]["encoding"]["color"] == {"value": "black"}  # on a cell: chosen against its fill
    _, text, rule = units(to_spec(bars_with_labels()))
    assert text["mark"]["color"] == THEME_TEXT  # no colour: the theme's, not Streamlit's first series colour
    assert rule["mark"]["color"] == THEME_TEXT  # black would vanish on the dark background
    for part in ("axis", "legend", "title"):  # Streamlit's grey axis labels are 3.9:1 on white
        assert THEME_TEXT in spec["config"][part].values()


@pytest.mark.parametrize("colour", ["#555555", "black", "#333", "white", "#31333F"])
def test_neutral_text_that_vanishes_on_one_theme_is_recoloured(colour):
    spec = finish({"layer": [{"mark": {"type": "text", "color": colour}, "encoding": {"text": {"value": "k"}}}]})
    assert spec["layer"][0]["mark"]["color"] == THEME_TEXT


@pytest.mark.parametrize("colour", sorted(ROLE_COLOURS) + ["#d62728", "#3b6fd6"])
def test_role_and_series_colours_are_kept(colour):
    spec = finish({"layer": [{"mark": {"type": "text", "color": colour}, "encoding": {"text": {"value": "k"}}}]})
    assert spec["layer"][0]["mark"]["color"] == colour


def test_the_guides_role_colours_keep_three_to_one_on_both_backgrounds():
    for colour in ROLE_COLOURS:
        for background in (LIGHT_BG, DARK_BG):
            assert contrast(_rgb(colour), _rgb(background)) >= 3.0, (colour, background)


def test_finish_is_idempotent_leaves_data_alone_and_never_breaks_a_chart():
    once = to_spec(heatmap())
    assert finish(once) is once  # flagged: not walked again (draw() calls it on every spec)
    assert json.dumps(once["datasets"]) == json.dumps(alt.Chart(FRAME).mark_point().to_dict()["datasets"])
    odd = {"mark": {"type": "text"}, "encoding": {"tooltip": [{"field": 3}]}, "layer": "not a list"}
    assert finish(odd)  # a shape it does not know comes back drawable, not an exception


def test_labels_compile_to_valid_vega_lite():
    for chart in (heatmap(), bars_with_labels()):
        alt.LayerChart.from_dict(to_spec(chart))  # the schema accepts every property finish() writes


# ---- packed: tables as Arrow bytes once, in the cache (s2s_ui/charts.py `packed`) --------------------------


def _rows(buffer: bytes) -> list[dict]:
    import pyarrow as pa

    return pa.ipc.open_stream(buffer).read_all().to_pylist()


def test_packed_turns_every_named_table_into_the_arrow_bytes_streamlit_would_send():
    from streamlit import dataframe_util

    from s2s_ui.charts import packed

    spec = to_spec(bars_with_labels())
    tables = spec["datasets"]
    assert len(tables) == 2 and all(isinstance(rows, list) for rows in tables.values())
    done = packed(spec)
    assert done is not spec and spec["datasets"] is tables  # the finished spec itself is left as it was
    for name, rows in tables.items():
        assert done["datasets"][name] == dataframe_util.convert_anything_to_arrow_bytes(rows)
        assert _rows(done["datasets"][name]) == rows
    assert {k: v for k, v in done.items() if k != "datasets"} == {k: v for k, v in spec.items() if k != "datasets"}
    # nested results of a cached_spec function (dicts of named specs, lists) are packed part by part
    nested = packed({"a": spec, "b": [spec, None]})
    assert isinstance(nested["a"]["datasets"][next(iter(tables))], bytes)
    assert isinstance(nested["b"][0]["datasets"][next(iter(tables))], bytes) and nested["b"][1] is None
    # no tables, or GeoJSON features: nothing to do
    plain = {"mark": "point", "data": {"values": [{"a": 1}]}}
    assert packed(plain) is plain
    geo = {"mark": "geoshape", "datasets": {"g": [{"type": "Feature", "geometry": {}}]}}
    assert packed(geo) is geo


def test_a_packed_spec_reaches_the_browser_exactly_as_the_unpacked_one():
    """Same proto: the spec JSON and every dataset's bytes (AppTest runs st.vega_lite_chart for real)."""
    from streamlit.testing.v1 import AppTest

    def app() -> None:
        import altair as alt
        import pandas as pd
        import streamlit as st

        from s2s_ui.charts import packed, to_spec

        frame = pd.DataFrame({"pos": ["a", "b"], "w": [0.25, 0.75]})
        chart = alt.Chart(frame).mark_bar().encode(x="pos:N", y="w:Q")
        spec = to_spec(chart + chart.mark_text().encode(text="w:Q"))
        st.vega_lite_chart(spec=spec, width="stretch")
        st.vega_lite_chart(spec=packed(spec), width="stretch")

    at = AppTest.from_function(app).run()
    plain, fast = (chart.proto for chart in at.get("vega_lite_chart"))
    assert plain.spec == fast.spec
    assert [(d.name, d.data.data) for d in plain.datasets] == [(d.name, d.data.data) for d in fast.datasets]
    assert plain.datasets and all(d.data.data for d in fast.datasets)


def test_cached_results_are_shared_not_copied():
    """A page's cached result is the one object (no pickling per call: s2s_ui/cache.py)."""
    from streamlit.testing.v1 import AppTest

    def app() -> None:
        import streamlit as st

        from s2s_ui.cache import cached_result

        @cached_result
        def result(n: int) -> dict:
            return {"n": n}

        st.session_state.setdefault("seen", []).append(id(result(3)))
        st.write(len(set(st.session_state["seen"])))

    at = AppTest.from_function(app).run()
    at.run()
    assert len(at.session_state["seen"]) == 2 and len(set(at.session_state["seen"])) == 1
