"""Attention page through AppTest: seed numbers on the picture, the step from the link, the question before its
answer (both languages), try-this cases, before/after, PAD, bad cells, scores mode."""

from __future__ import annotations

import json

import pytest

from s2s_ui.catalog import translate
from tests.app.conftest import LANGS, all_text, open_page, toasts


def _chart(at) -> tuple[dict, str]:
    """The picture's spec and everything its data holds, as text (inline values and Arrow datasets)."""
    import pyarrow as pa

    (chart,) = at.get("vega_lite_chart")
    spec = json.loads(chart.proto.spec)
    rows = [pa.ipc.open_stream(d.data.data).read_all().to_pylist() for d in chart.proto.datasets]
    return spec, json.dumps(spec, ensure_ascii=False) + json.dumps(rows, ensure_ascii=False, default=str)


def _step_value(spec: dict) -> list:
    return next(p["value"] for p in spec["params"] if p["name"] == "step_sel")


def test_defaults_show_the_seed_contexts_on_the_picture(lang):
    at = open_page("attention", lang)
    assert not at.exception and not at.error
    text = all_text(at)
    assert "[3.4, 2.2]" in text and "[1.8, 1.4]" in text
    assert "0.2×2 + 0.3×0 + 0.5×6 = 3.4" in text  # the step-by-step tab
    assert "0.2×[2, 0] + 0.3×[0, 4] + 0.5×[6, 2] = [3.4, 2.2]" in text  # the step's line under the picture
    spec, data = _chart(at)
    assert "t1 context [3.4, 2.2]" in data and "t2 context [1.8, 1.4]" in data
    assert _step_value(spec) == [{"step": 1}]
    assert len(at.success) >= 1  # the check-against-PyTorch badge passes


@pytest.mark.parametrize("raw, step", [("2", 2), ("9", 2), ("0", 1)])
def test_the_step_comes_from_the_link_clamped(lang, raw, step):
    """?att_step=2 opens on step t2; a stale step beyond the last one (9) is clamped to the last."""
    at = open_page("attention", lang, query={"att_step": raw})
    assert not at.exception
    spec, _ = _chart(at)
    assert _step_value(spec) == [{"step": step}]
    expected = ["[3.4, 2.2]", "[1.8, 1.4]"][step - 1]
    assert translate(lang, "attention.step_sum", step=f"t{step}", expr="")[:12] in all_text(at)
    assert any(expected in m.value and f"t{step}" in m.value for m in at.markdown)


def test_an_unreadable_step_in_the_link_is_named(lang):
    at = open_page("attention", lang, query={"att_step": "x"})
    assert not at.exception
    assert "att_step" in toasts(at)
    assert _step_value(_chart(at)[0]) == [{"step": 1}]


@pytest.mark.parametrize("language", LANGS)
def test_the_questions_answer_is_nowhere_until_answered(language):
    """Mark s3 (step t1's heaviest) as PAD: t1's context becomes [0.8, 2.4]. Not in the page's text or the
    picture's data before an answer; in the explanation after it."""
    answer = "[0.8, 2.4]"
    at = open_page("attention", language)
    assert not at.exception
    assert answer in at.radio(key="att_quiz").options  # the question itself is the one place
    assert answer not in all_text(at)
    assert answer not in _chart(at)[1]
    at.radio(key="att_quiz").set_value("[0.4, 1.2]").run()  # the tempting shortcut: the term just deleted
    assert not at.exception
    assert at.warning  # graded wrong
    text = all_text(at)
    assert answer in text and "[0.4, 0.6, 0]" in text
    assert translate(language, "attention.notice_3") in text  # the notice that tells how, now shown


def test_show_me_reveals_the_answer(lang):
    at = open_page("attention", lang)
    at.button(key="att_quiz__show").click().run()
    assert "[0.8, 2.4]" in all_text(at)


def test_no_telling_question_when_one_source_takes_all(lang):
    at = open_page("attention", lang, query={"att_steps": "0,0,1;1,0,0"})
    assert not at.exception
    assert translate(lang, "attention.quiz_needs_two") in all_text(at)


def test_a_try_this_case_loads_its_link(lang):
    at = open_page("attention", lang)
    at.button(key="try__att_src__0").click().run()  # all weight on one source
    assert not at.exception
    assert at.query_params["att_steps"] == "0,0,1;1,0,0"
    assert "t1 context [6, 2]" in _chart(at)[1]


def test_after_an_edit_the_previous_picture_stays_faint(lang):
    at = open_page("attention", lang)
    assert _chart(at)[1].count("t1 context [3.4, 2.2]") == 1  # no previous picture yet
    at.multiselect(key="att_pad").set_value(["s3"]).run()
    assert not at.exception
    _, data = _chart(at)
    assert "t1 context [0.8, 2.4]" in data  # the new context
    assert data.count("t1 context [3.4, 2.2]") == 1  # and the old one, in the faint layer


def test_pad_position_gets_zero_weight(lang):
    at = open_page("attention", lang)
    at.multiselect(key="att_pad").set_value(["s3"]).run()
    assert not at.exception
    assert "[0.4, 0.6, 0]" in all_text(at)
    assert "s3 PAD" in _chart(at)[1]  # PAD is named on the picture, not only greyed


def test_all_pad_is_a_clear_error(lang):
    at = open_page("attention", lang)
    at.multiselect(key="att_pad").set_value(["s1", "s2", "s3"]).run()
    assert not at.exception
    assert translate(lang, "attention.field.pad") in " ".join(e.value for e in at.error)


def test_a_letter_in_a_cell_names_the_field_and_keeps_the_page(lang):
    at = open_page("attention", lang, query={"att_src": "2,0;0,x;6,2"})
    assert not at.exception
    errors = " ".join(e.value for e in at.error)
    assert translate(lang, "attention.field.sources") in errors and "x" in errors
    assert translate(lang, "attention.cell_vs_context")[:20] in all_text(at)  # the rest still renders


def test_nan_and_empty_cells(lang):
    for raw in ("2,0;0,nan;6,2", "2,0;0,;6,2"):
        at = open_page("attention", lang, query={"att_src": raw})
        assert not at.exception
        assert at.error, raw


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
    assert translate(lang, "attention.sources_label") in toasts(at)  # names the field, and why (a ragged row)
    assert translate(lang, "errors.ragged", field="", row=2).strip(": ") in toasts(at)
    assert "[3.4, 2.2]" in all_text(at)


def test_three_components_draw_the_lines_picture(lang):
    at = open_page("attention", lang, query={"att_dim": "3", "att_src": "1,0,2;0,3,1;2,2,0"})
    assert not at.exception and not at.error
    spec, data = _chart(at)
    assert translate(lang, "attention.chart.title_lines") in json.dumps(spec, ensure_ascii=False)
    assert "t1 context [1.2, 1.9, 0.7]" in data  # 0.2·[1,0,2] + 0.3·[0,3,1] + 0.5·[2,2,0]
