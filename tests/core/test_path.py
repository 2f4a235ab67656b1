"""The learning path on Home: the syllabus's order, the LSTM / GRU fork, missing pages left out and joined
across, the summary wrapping, and one valid layered Vega-Lite view whose boxes link to their pages."""

from __future__ import annotations

import json

import altair as alt
import pytest

from s2s_core.path.charts import SUMMARY_X, THEME_TEXT, UNIT_PX, path_chart, summary_widths
from s2s_core.path.frames import SUMMARY_BUDGETS, SUMMARY_LINES, edges_frame, nodes_frame, units_of, wrap
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


def test_a_summary_wraps_at_its_budget_and_keeps_every_word():
    assert wrap("a b c", 10) == ["a b c"]
    lines = wrap("one two three four five six seven eight nine ten", 10)
    assert all(len(x) <= 10 for x in lines) and " ".join(lines) == "one two three four five six seven eight nine ten"
    korean = wrap("단계마다 망각 입력 출력 게이트와 tanh 후보를 봅니다", 16)  # a Hangul syllable is two units
    assert all(units_of(line) <= 16 for line in korean) and len(korean) == 4
    assert wrap("averyveryverylongword b", 5) == ["averyveryverylongword", "b"]  # a long word stays whole


@pytest.mark.parametrize("language", ["en", "ko"])
def test_no_summary_is_cut_on_the_real_path(language):
    """Every page's summary, in the learner's language, is printed whole beside its box on a 1280 px desktop
    (the chart is 820 px wide there): every wrapping keeps all its words within its budget, the one the
    desktop's width picks takes at most SUMMARY_LINES lines, and no line ends in "…"."""
    from s2s_core.catalog import translate

    drawn = course(existing_pages_ns())
    texts = {n.ns: (translate(language, f"{n.ns}.title"), translate(language, f"{n.ns}.summary")) for n in drawn.nodes}
    nodes = nodes_frame(drawn, texts, {n.ns: n.ns for n in drawn.nodes})
    for budget in SUMMARY_BUDGETS:
        for summary, lines in zip(nodes["summary"], nodes[f"lines_{budget}"], strict=True):
            parts = lines.split("\n")
            assert " ".join(parts) == " ".join(summary.split())
            assert all(units_of(p) <= budget or " " not in p for p in parts)
            assert not any(p.endswith("…") for p in parts)
    fits = summary_widths(nodes)
    desktop = 820  # the path chart's width in a 1280 px window (measured in Chromium, sidebar open)
    _, budget, n_lines = next(f for f in fits if f[0] <= desktop)
    assert n_lines <= SUMMARY_LINES
    assert max(units_of(p) for s in nodes[f"lines_{budget}"] for p in s.split("\n")) * UNIT_PX <= desktop - SUMMARY_X


def existing_pages_ns() -> list[str]:
    from s2s_ui.registry import existing_pages

    return [p.ns for p in existing_pages() if p.ns != "home"]


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
