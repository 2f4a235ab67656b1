"""The learning path on Home: the syllabus's order, the LSTM / GRU fork, missing pages left out and joined
across, the summary wrapping, and one valid layered Vega-Lite view whose boxes link to their pages."""

from __future__ import annotations

import json

import altair as alt

from s2s_core.path.charts import THEME_TEXT, path_chart
from s2s_core.path.frames import edges_frame, nodes_frame, wrap
from s2s_core.path.graph import EDGES, ORDER, course

PAGES = [ns for ns in ORDER if ns != "translation"]  # the pages of the registry today
LABELS = {"title": "T", "subtitle": "S", "description": "D", "page": "Page", "summary": "Summary"}


def _chart(pages):
    drawn = course(pages)
    texts = {n.ns: (f"title {n.ns}", f"summary of {n.ns}") for n in drawn.nodes}
    hrefs = {n.ns: f"{n.ns}?lang=en" for n in drawn.nodes}
    return path_chart(nodes_frame(drawn, texts, hrefs), edges_frame(drawn), LABELS, text_color=THEME_TEXT["dark"])


def test_the_course_runs_in_the_syllabus_order_with_lstm_and_gru_as_a_fork():
    drawn = course(reversed(PAGES + ["home"]))  # any order in, the syllabus's order out; home is not a step
    assert [n.ns for n in drawn.nodes] == PAGES
    assert [n.row for n in drawn.nodes] == list(range(len(PAGES)))
    lanes = {n.ns: n.lane for n in drawn.nodes}
    assert (
        lanes["lstm"] == -1 and lanes["gru"] == 1 and all(lanes[ns] == 0 for ns in PAGES if ns not in ("lstm", "gru"))
    )
    assert set(drawn.edges) == {e for e in EDGES if "translation" not in e}
    assert ("bptt", "lstm") in drawn.edges and ("bptt", "gru") in drawn.edges
    assert ("lstm", "shapes") in drawn.edges and ("gru", "shapes") in drawn.edges


def test_a_missing_page_is_not_drawn_and_its_arrows_are_joined_across_it():
    drawn = course([ns for ns in PAGES if ns != "bptt"])
    assert "bptt" not in [n.ns for n in drawn.nodes]
    assert ("rnn", "lstm") in drawn.edges and ("rnn", "gru") in drawn.edges
    one_cell = course([ns for ns in PAGES if ns != "gru"])
    assert {n.ns: n.lane for n in one_cell.nodes}["lstm"] == 0  # no fork without its other side
    assert ("bptt", "lstm") in one_cell.edges and ("lstm", "shapes") in one_cell.edges
    ends = course(["ngram", "training"])
    assert ends.edges == (("ngram", "training"),)
    assert course([]).nodes == () and course(["nonsense"]).nodes == ()


def test_a_summary_wraps_into_two_lines_and_a_cut_one_ends_with_an_ellipsis():
    assert wrap("a b c", 10, 2) == ["a b c"]
    lines = wrap("one two three four five six seven eight nine ten", 10, 2)
    assert len(lines) == 2 and lines[-1].endswith("…") and all(len(x) <= 10 for x in lines)
    korean = wrap("단계마다 망각 입력 출력 게이트와 tanh 후보를 봅니다", 16, 3)  # a Hangul syllable is two units
    assert all(sum(2 if "가" <= ch <= "힣" else 1 for ch in line) <= 16 for line in korean)


def test_the_picture_is_one_valid_layered_view_whose_boxes_link_to_their_pages():
    chart = _chart(PAGES)
    assert isinstance(chart, alt.LayerChart)
    spec = chart.to_dict()  # validates against the Vega-Lite schema
    text = json.dumps(spec)
    assert "concat" not in text and "hconcat" not in text and "vconcat" not in text
    for ns in PAGES:
        assert f'"{ns}?lang=en"' in text
    assert spec["description"] == "D" and spec["title"]["text"] == "T"
    marks = [layer["mark"] for layer in _layers(spec)]
    assert all(m.get("fontSize", 11) >= 11 for m in marks if m["type"] == "text")
    linked = [layer for layer in _layers(spec) if "href" in layer.get("encoding", {})]
    assert {layer["mark"]["type"] for layer in linked} == {"rect", "text"}
    assert all("description" in layer["encoding"] for layer in linked)  # each box has an accessible name


def test_a_single_page_draws_without_arrows():
    spec = _chart(["rnn"]).to_dict()
    assert len(_layers(spec)) == 4  # box, two title layers, summary


def _layers(spec: dict) -> list[dict]:
    out = []
    for layer in spec.get("layer", []):
        out += _layers(layer) if "layer" in layer else [layer]
    return out
