"""Attention page through AppTest, in English: seed numbers, PAD, bad cells, scores mode."""

from __future__ import annotations

from s2s_core.attention import AttentionConfig, attention_weighting
from s2s_ui.catalog import translate
from tests.app.conftest import all_text, open_page


def test_defaults_show_the_seed_contexts(lang):
    at = open_page("attention", lang)
    assert not at.exception
    text = all_text(at)
    assert "[3.4, 2.2]" in text and "[1.8, 1.4]" in text
    assert "0.2×2 + 0.3×0 + 0.5×6 = 3.4" in text
    assert translate(lang, "attention.title") in text
    assert len(at.success) >= 1  # the check-against-PyTorch badge passes


def test_a_letter_in_a_cell_names_the_field_and_keeps_the_page(lang):
    at = open_page("attention", lang, query={"att_src": "2,0;0,x;6,2"})
    assert not at.exception
    errors = " ".join(e.value for e in at.error)
    assert translate(lang, "attention.field.sources") in errors
    assert "x" in errors
    assert translate(lang, "attention.cell_vs_context")[:20] in all_text(at)  # the rest still renders


def test_nan_and_empty_cells(lang):
    for raw in ("2,0;0,nan;6,2", "2,0;0,;6,2"):
        at = open_page("attention", lang, query={"att_src": raw})
        assert not at.exception
        assert at.error, raw


def test_pad_position_gets_zero_weight(lang):
    at = open_page("attention", lang)
    at.multiselect(key="att_pad").set_value(["s3"]).run()
    assert not at.exception
    text = all_text(at)
    assert "[0.4, 0.6, 0]" in text


def test_all_pad_is_a_clear_error(lang):
    at = open_page("attention", lang)
    at.multiselect(key="att_pad").set_value(["s1", "s2", "s3"]).run()
    assert not at.exception
    assert translate(lang, "attention.field.pad") in " ".join(e.value for e in at.error)


def test_rows_not_summing_to_one_are_normalised_with_a_note(lang):
    at = open_page("attention", lang, query={"att_steps": "0.2,0.2,0.2"})
    assert not at.exception
    assert at.warning
    assert "[0.3333, 0.3333, 0.3333]" in all_text(at)


def test_scores_mode(lang):
    at = open_page("attention", lang, query={"att_steps": "0,0,0"})
    at.segmented_control(key="att_mode").set_value("scores").run()
    assert not at.exception
    assert "[2.6667, 2]" in all_text(at)  # uniform weights: mean of the sources


def test_negative_weight_is_an_error(lang):
    at = open_page("attention", lang, query={"att_steps": "-0.2,0.7,0.5"})
    assert not at.exception
    assert at.error


def test_broken_url_table_falls_back_with_a_notice(lang):
    at = open_page("attention", lang, query={"att_src": "1,2;3"})
    assert not at.exception
    toasts = " ".join(x.value for x in at.toast).replace("\\", "")  # markdown escapes
    assert translate(lang, "attention.sources_label") in toasts  # names the field, and why (a ragged row)
    assert translate(lang, "errors.ragged", field="", row=2).strip(": ") in toasts
    assert "[3.4, 2.2]" in all_text(at)


def test_quiz_is_graded_by_the_measured_distances(lang):
    """The issue's counter-example: the context [6, 0] is nearer the two [10, 0]s than the heaviest [0, 0], so
    'closer to the largest-weight vector' is false and the quiz grades 'No' right; the defaults' last step is a
    'Yes'."""
    config = AttentionConfig(sources=((0.0, 0.0), (10.0, 0.0), (10.0, 0.0)), steps=((0.4, 0.3, 0.3),))
    result = attention_weighting(config)
    assert result.dominant_vs_rest == ("farther",)
    at = open_page("attention", lang, query={"att_src": "0,0;10,0;10,0", "att_steps": "0.4,0.3,0.3"})
    assert not at.exception
    at.radio(key="att_quiz").set_value(translate(lang, "attention.quiz_yes")).run()
    assert at.warning and not at.success[1:]  # wrong (the check badge is the one success)
    expected = translate(
        lang,
        "attention.quiz_explain_farther",
        context="[6, 0]",
        position="s1",
        vector="[0, 0]",
        d="6",
        other="s2",
        other_vector="[10, 0]",
        d2="4",
    )
    assert expected in all_text(at)
    at = open_page("attention", lang)
    at.radio(key="att_quiz").set_value(translate(lang, "attention.quiz_yes")).run()
    assert attention_weighting(AttentionConfig()).dominant_vs_rest[-1] == "nearer"
    assert len(at.success) == 2  # the check badge and the right answer


def _chart_rows(at) -> list[dict]:
    """Every data row of the page's Vega-Lite chart (Streamlit ships the datasets as Arrow IPC)."""
    import pyarrow as pa

    rows = []
    for chart in at.get("vega_lite_chart"):
        for dataset in chart.proto.datasets:
            rows += pa.ipc.open_stream(dataset.data.data).read_all().to_pylist()
    return rows


def test_the_context_rows_of_the_vector_chart_are_in_the_learners_language():
    """The Korean page's chart names its context rows 문맥 t1, 문맥 t2 (it printed the English 'context t1')."""
    for language, word in (("ko", "문맥"), ("en", "context")):
        at = open_page("attention", language)
        assert not at.exception
        vectors = {row["vector"] for row in _chart_rows(at) if row.get("kind") == "context"}
        assert vectors == {f"{word} t1", f"{word} t2"}, language
