"""GRU page through AppTest, in English: the frame, check, step view, z freeze, comparison, bad input, question, cases,
Reset.

Each test drives one app session through several edits: starting a session costs far more than a rerun. A tab is
read after opening it, as a learner does (only the open tab is drawn, as on a server).
"""

from __future__ import annotations

from s2s_core.catalog import translate
from s2s_core.fmt import vec as vec_text
from s2s_core.gated.fields import DEFAULT_SENTENCES
from s2s_core.gru import gru_gates, parse_config
from s2s_core.gru.compare import compare
from s2s_core.gru.frames import mix_parts
from tests.app.conftest import all_text, open_page, open_tab, toasts
from tests.app.test_lstm_app import chart_data, picture_rows

SENTENCE = DEFAULT_SENTENCES["en"]  # the English page opens on an English sentence


def _errors(at) -> str:
    return " ".join(e.value for e in at.error)


def _ratio(lang: str, E: int, H: int) -> str:
    comp = compare(E, H)
    return translate(lang, "gru.compare_ratio", gru=comp.totals["gru"], lstm=comp.totals["lstm"])


def test_defaults_step_freeze_compare_and_empty_sentence(lang):
    # 1) Defaults: an English sentence; badge passes, h_n, the step-2 equations and the parameter counts are shown.
    at = open_page("gru", lang)
    assert not at.exception
    assert at.text_input(key="gru_sentence").value == SENTENCE and "gru_sentence" not in at.query_params
    result = gru_gates(parse_config("sentence", SENTENCE, None, 3, 4, 0))
    assert translate(lang, "gru.title") in all_text(at)
    # The picture is the cell at the slider's step (2 by default): its h_t column is that step's h_t; both
    # cells' parameter counts sit side by side under it.
    assert [round(v, 9) for v in picture_rows(at, "h_t", 2)] == [round(float(v), 9) for v in result.run.h[1]]
    assert translate(lang, "gru.picture.title") in chart_data(at)
    counts = compare(3, 4).totals
    assert [m.value for m in at.metric] == [str(counts["gru"]), str(counts["lstm"])]
    assert vec_text(result.torch_h_n) not in all_text(at)  # the check's tab is closed: not drawn, as on a server
    assert set(at.query_params) <= {"lang"}  # the defaults leave no parameter
    open_tab(at, "gru", "ui.tab_check", lang)
    assert vec_text(result.torch_h_n) in all_text(at)
    assert at.success and not at.error and not at.warning
    open_tab(at, "gru", "ui.tab_steps", lang)
    text = all_text(at)
    assert "h_t = (1 − z)⊙n + z⊙h_(t-1) = " in text and vec_text(result.run.h[1]) in text
    assert "c_t" not in text  # no cell state on this page
    open_tab(at, "gru", "gru.tab_compare", lang)
    assert _ratio(lang, 3, 4) in all_text(at)
    assert at.query_params["gru_tabs"] == "compare"

    # 2) The hidden size changes the counts, read off the modules.
    at.number_input(key="gru_H").set_value(6).run()
    assert not at.exception
    assert _ratio(lang, 3, 6) in all_text(at)

    # 3) Freeze h (z = 1 from step 2): h stays at h_1, and the picture shows the forced run.
    at.button(key="gru_freeze").click().run()
    assert not at.exception
    assert at.pills(key="gru_force_z").value == [2, 3, 4] and at.query_params["gru_force_z"] == "2,3,4"
    forced = gru_gates(parse_config("sentence", SENTENCE, None, 3, 6, 0, {"z": ([2, 3, 4], 1)})).forced
    assert translate(lang, "gru.picture.title_forced") in chart_data(at)
    assert [round(v, 9) for v in picture_rows(at, "h_t", 3)] == [round(float(v), 9) for v in forced.h[2]]
    open_tab(at, "gru", "gru.tab_override", lang)
    assert f"h = {vec_text(forced.h[-1])}" in all_text(at) and vec_text(forced.h[0]) == vec_text(forced.h[-1])

    # 4) An empty sentence: its message once, the last good picture (the frozen run) kept, faded, under the caption
    # that says so, and no question; the comparison and the weights (sizes only) still draw.
    at.text_input(key="gru_sentence").set_value("").run()
    assert not at.exception
    assert [translate(lang, "gru.field.sentence") in e.value for e in at.error].count(True) == 1
    assert len(at.get("vega_lite_chart")) == 1 and translate(lang, "ui.kept_note") in all_text(at)
    assert [round(v, 9) for v in picture_rows(at, "h_t", 3)] == [round(float(v), 9) for v in forced.h[2]]
    assert translate(lang, "gru.quiz_question") not in all_text(at)
    assert translate(lang, "gru.try.freeze") in [b.label for b in at.button]
    open_tab(at, "gru", "gru.tab_compare", lang)
    assert _ratio(lang, 3, 6) in all_text(at)
    open_tab(at, "gru", "ui.tab_tables", lang)
    assert translate(lang, "gru.weights_heading") in all_text(at) and at.dataframe
    # 5) A good sentence again: the live picture of it, no caption.
    at.text_input(key="gru_sentence").set_value("the cat sat").run()
    assert not at.exception and not at.error and translate(lang, "ui.kept_note") not in all_text(at)
    fixed = gru_gates(parse_config("sentence", "the cat sat", None, 3, 6, 0, {"z": ([2, 3], 1)})).forced
    assert [round(v, 9) for v in picture_rows(at, "h_t", 3)] == [round(float(v), 9) for v in fixed.h[2]]


def test_table_mode_with_a_non_finite_cell(lang):
    at = open_page("gru", lang, query={"gru_x": "1,inf"})
    at.number_input(key="gru_E").set_value(2).run()
    at.segmented_control(key="gru_source").set_value("table").run()
    assert not at.exception
    # A non-finite cell in a link follows the README's rule: a notice naming the field, the table's default.
    assert translate(lang, "gru.field.vectors") in toasts(at) and not at.error
    assert len(picture_rows(at, "h_t", 2)) == 4  # drawn from the default vectors
    open_tab(at, "gru", "gru.tab_compare", lang)
    assert _ratio(lang, 2, 4) in all_text(at)


def test_the_question_hides_its_answer_and_a_case_loads_its_inputs(lang):
    # 1) Before answering, what the old state brings under r = 0 (the answer's number) is nowhere, nor notice 3.
    at = open_page("gru", lang, query={"gru_tabs": "notice"})  # a link that opens the notices
    shut = gru_gates(parse_config("sentence", SENTENCE, None, 3, 4, 0, {"r": ([1, 2, 3, 4], 0)})).forced
    kept, _ = mix_parts(shut, 3)
    data = chart_data(at)
    assert translate(lang, "gru.notice_1") in all_text(at)  # the notices are drawn
    assert vec_text(kept) not in all_text(at) and translate(lang, "gru.notice_3") not in all_text(at)
    assert not any(repr(float(v)) in data for v in kept)
    # 2) "Show me": the live answer (yes, through z) with its numbers, and the notice that states it.
    at.button(key="gru_quiz__show").click().run()
    assert not at.exception
    text = all_text(at)
    assert any(translate(lang, "gru.quiz_yes").split(",")[0] in box.value for box in at.info)  # graded: yes
    assert vec_text(kept) in text and translate(lang, "gru.notice_3") in text
    # 3) A prepared case loads its link: z = 0 at every step.
    at.button(key="try__gru__1").click().run()
    assert not at.exception
    assert at.pills(key="gru_force_z").value == [1, 2, 3, 4]
    assert at.segmented_control(key="gru_force_z_to").value == 0
    # 4) Reset from that case: no parameter of the page is left.
    at.button(key="reset__gru").click().run()
    assert not at.exception
    assert set(at.query_params) <= {"lang"} and at.pills(key="gru_force_z").value == []


def test_reset_from_a_link_that_set_every_field_leaves_no_parameter(lang):
    """Reset forgets every field of the page, those in the folded sizes and override expanders too."""
    query = {
        "gru_sentence": "the cat sat down",
        "gru_E": "2",
        "gru_H": "3",
        "gru_seed": "5",
        "gru_step": "3",
        "gru_inspect": "4",
        "gru_force_r": "1,2",
        "gru_force_r_to": "1",
        "gru_force_z": "3",
        "gru_force_z_to": "0",
        "gru_tabs": "steps",
    }
    at = open_page("gru", lang, query=query)
    assert not at.exception and not at.error
    assert set(query) <= set(at.query_params)  # every value was valid: the link still holds them all
    assert at.segmented_control(key="gru_inspect").value == 4
    at.button(key="reset__gru").click().run()
    assert not at.exception
    assert set(at.query_params) <= {"lang"}
    assert at.text_input(key="gru_sentence").value == SENTENCE
    assert (at.number_input(key="gru_E").value, at.number_input(key="gru_H").value) == (3, 4)
    assert at.pills(key="gru_force_r").value == [] and at.segmented_control(key="gru_force_z_to").value == 1


def test_one_word_asks_no_question_about_an_old_state(lang):
    """With one word there is no h_(t-1) history: no question graded "r = 0 cuts it off", a caption instead."""
    at = open_page("gru", lang, query={"gru_sentence": "dog"})
    assert not at.exception
    assert translate(lang, "gru.quiz_empty", last=1) in all_text(at)
    assert not [r for r in at.radio if r.key == "gru_quiz"]
    at = open_page("gru", lang, query={"gru_sentence": "the dog"})  # two words: asked, graded live
    assert [r for r in at.radio if r.key == "gru_quiz"]
