"""Attention page through AppTest: seed numbers on the picture, the step and the picked source from the link, the
question before its answer (both languages), try-this cases and Reset, before/after, PAD, bad cells, scores mode.

Tabs are opened as a learner opens them (`open_tab`, or a link's ?attention_tabs=): only the open tab is drawn."""

from __future__ import annotations

import json

import pytest

from s2s_core.attention import AttentionConfig, attention_weighting
from s2s_core.attention.charts import PICK_PARAM
from s2s_core.catalog import translate
from s2s_core.fmt import vec
from tests.app.conftest import LANGS, all_text, open_page, open_tab, toasts


def _chart(at) -> tuple[dict, str]:
    """The picture's spec and everything its data holds, as text (inline values and Arrow datasets)."""
    import pyarrow as pa

    (chart,) = at.get("vega_lite_chart")
    spec = json.loads(chart.proto.spec)
    rows = [pa.ipc.open_stream(d.data.data).read_all().to_pylist() for d in chart.proto.datasets]
    return spec, json.dumps(spec, ensure_ascii=False) + json.dumps(rows, ensure_ascii=False, default=str)


def _step_value(spec: dict) -> list:
    return next(p["value"] for p in spec["params"] if p["name"] == "step_sel")


def _pick_value(spec: dict) -> list | None:
    """Where the picture's click selection starts (None: nothing picked)."""
    return next(p for p in spec["params"] if p["name"] == PICK_PARAM).get("value")


def test_defaults_show_the_seed_contexts_on_the_picture(lang):
    at = open_page("attention", lang)
    assert not at.exception and not at.error
    text = all_text(at)
    assert "[3.4, 2.2]" in text and "[1.8, 1.4]" in text
    assert "0.2×2 + 0.3×0 + 0.5×6 = 3.4" in text  # the step-by-step tab: the first, open by default
    assert "0.2×[2, 0] + 0.3×[0, 4] + 0.5×[6, 2] = [3.4, 2.2]" in text  # the step's line under the picture
    spec, data = _chart(at)
    assert "t1 context [3.4, 2.2]" in data and "t2 context [1.8, 1.4]" in data
    assert _step_value(spec) == [{"step": 1}]
    assert _pick_value(spec) is None and translate(lang, "attention.pick_hint") in text  # nothing picked yet
    assert not [k for k in at.query_params if k.startswith("att")]  # the defaults leave no parameter
    assert not at.success  # the check's tab is closed: not drawn, as on a server
    open_tab(at, "attention", "ui.tab_check", lang)
    assert len(at.success) >= 1  # the check-against-PyTorch badge passes
    assert at.query_params["attention_tabs"] == "check"  # the open tab is in the link


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
    open_tab(at, "attention", "ui.tab_notice", language)
    assert translate(language, "attention.notice_1") in all_text(at)
    assert translate(language, "attention.notice_3") not in all_text(at)  # it tells how: held back
    assert answer not in all_text(at)
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
    at.button(key="try__attention__0").click().run()  # all weight on one source
    assert not at.exception
    assert at.query_params["att_steps"] == "0,0,1;1,0,0"
    assert "t1 context [6, 2]" in _chart(at)[1]


def test_reset_forgets_every_field_even_the_pick_and_the_open_tab(lang):
    """From a link that sets every field (the size, both tables, PAD, mode, step, the picked source, the open tab),
    Reset brings back the seed's example and leaves no parameter of the page in the link."""
    query = {
        "att_dim": "3",
        "att_src": "1,0,2;0,3,1;2,2,0",
        "att_steps": "0,0,8;1,2,3",
        "att_mode": "scores",
        "att_pad": "s1",
        "att_step": "2",
        "att_pick": "s2",
        "attention_tabs": "tables",
    }
    at = open_page("attention", lang, query=query)
    assert not at.exception and not at.error
    assert set(query) <= set(at.query_params)  # every field took its link value and keeps it
    at.button(key="reset__attention").click().run()
    assert not at.exception and not at.error
    assert set(at.query_params) <= {"lang"}
    spec, data = _chart(at)
    assert "t1 context [3.4, 2.2]" in data and _step_value(spec) == [{"step": 1}] and _pick_value(spec) is None
    assert at.segmented_control(key="att_mode").value == "weights" and at.multiselect(key="att_pad").value == []
    assert "0.2×2 + 0.3×0 + 0.5×6 = 3.4" in all_text(at)  # the first tab is open again


def test_a_try_this_case_with_a_picked_source_explains_it_and_reset_forgets_it(lang):
    at = open_page("attention", lang)
    at.button(key="try__attention__1").click().run()  # s1 is PAD, and picked
    assert not at.exception
    assert at.query_params["att_pad"] == "s1" and at.query_params["att_pick"] == "s1"
    context = vec(attention_weighting(AttentionConfig(pad=(True, False, False))).contexts[0])  # [3.75, 2.75]
    assert translate(lang, "attention.pick_pad", position="s1", step="t1", context=context) in all_text(at)
    assert _pick_value(_chart(at)[0]) == [{"position": "s1"}]
    at.button(key="reset__attention").click().run()
    assert set(at.query_params) <= {"lang"}
    assert translate(lang, "attention.pick_hint") in all_text(at)


def test_a_link_with_a_picked_source_opens_with_its_share_written_out(lang):
    """Issue 23: the source picked in the picture is in the link. Opening ?att_pick=s2 (with ?att_step=2) rings s2
    on the picture (the chart's click selection starts there) and writes out its share of step t2's context."""
    at = open_page("attention", lang, query={"att_pick": "s2", "att_step": "2"})
    assert not at.exception and not at.error
    expected = translate(
        lang,
        "attention.pick_line",
        position="s2",
        step="t2",
        weight="0.3",
        vector="[0, 4]",
        product="[0, 1.2]",
        context="[1.8, 1.4]",
    )
    assert expected in all_text(at)
    assert _pick_value(_chart(at)[0]) == [{"position": "s2"}]
    assert at.query_params["att_pick"] == "s2"  # kept in the link: a copy of it reopens the same view
    at.number_input(key="att_dim").set_value(2).run()  # an unrelated rerun keeps the pick
    assert expected in all_text(at)


def test_a_pick_the_sources_do_not_have_is_dropped_and_a_bad_one_named(lang):
    at = open_page("attention", lang, query={"att_pick": "s9"})  # a valid position, but there are three sources
    assert not at.exception and not at.error
    assert translate(lang, "attention.pick_hint") in all_text(at)
    assert _pick_value(_chart(at)[0]) is None and "att_pick" not in at.query_params
    at = open_page("attention", lang, query={"att_pick": "<b>x</b>"})
    assert not at.exception
    assert "att_pick" in toasts(at) and translate(lang, "attention.field.pick") in toasts(at)
    assert translate(lang, "attention.pick_hint") in all_text(at)


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


def _type_cell(at, key: str, row: int, column: str, text: str):
    """A cell typed into a table (the data editor's own edit state, as the browser sends it), then a run."""
    at.session_state[key] = {"edited_rows": {row: {column: text}}, "added_rows": [], "deleted_rows": []}
    return at.run()


def test_a_bad_typed_cell_keeps_the_last_picture_faded_with_one_message(lang):
    """Issue 25: a good edit, then a letter typed into a source cell: the message once (naming the field and the
    cell), the picture still drawn from the good input under the kept caption, no tip in its place, the question
    waiting; the cell fixed: the live picture again, no caption."""
    at = open_page("attention", lang)
    at.multiselect(key="att_pad").set_value(["s3"]).run()
    assert "t1 context [0.8, 2.4]" in _chart(at)[1]
    _type_cell(at, "att_src", 1, "d2", "x")
    assert not at.exception
    assert len(at.error) == 1 and translate(lang, "attention.field.sources") in at.error[0].value
    assert "x" in at.error[0].value
    assert len(at.get("vega_lite_chart")) == 1 and "t1 context [0.8, 2.4]" in _chart(at)[1]  # the kept picture
    assert translate(lang, "ui.kept_note") in [c.value for c in at.caption]
    assert translate(lang, "attention.cell_vs_context") not in all_text(at)  # no unrelated tip instead
    assert not at.radio  # the question needs the live input
    _type_cell(at, "att_src", 1, "d2", "8")
    assert not at.exception and not at.error
    assert "t1 context [0.8, 4.8]" in _chart(at)[1]  # 0.4×[2, 0] + 0.6×[0, 8]
    assert translate(lang, "ui.kept_note") not in [c.value for c in at.caption]


def test_a_bad_cell_before_any_picture_is_named_alone(lang):
    """An empty cell from a link (the table opens with it): no good picture yet this session, so the message
    stands alone: no chart, no tip in its place."""
    at = open_page("attention", lang, query={"att_src": "2,0;0,;6,2"})
    assert not at.exception
    assert len(at.error) == 1 and translate(lang, "attention.field.sources") in at.error[0].value
    assert not at.get("vega_lite_chart")
    assert translate(lang, "attention.cell_vs_context") not in all_text(at)


@pytest.mark.parametrize("query", [{"att_steps": "abc"}, {"att_src": "2,0;0,x;6,2"}, {"att_src": "2,0;0,nan;6,2"}])
def test_a_bad_link_cell_opens_the_default_with_a_notice(lang, query):
    """Issue 25: ?att_steps=abc replaced the picture with an unrelated tip. A link cell that is not a number is a
    bad link value (README "Bad input"): a notice naming the field, the table on its default, the picture drawn."""
    at = open_page("attention", lang, query=query)
    assert not at.exception and not at.error
    label = "attention.steps_label_weights" if "att_steps" in query else "attention.sources_label"
    assert translate(lang, label) in toasts(at)
    assert "t1 context [3.4, 2.2]" in _chart(at)[1]
    assert translate(lang, "attention.cell_vs_context") not in all_text(at)


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
