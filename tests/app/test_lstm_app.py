"""LSTM gates page through AppTest, in English: check, step view, overrides, bad input.

Each test drives one app session through several edits: starting a session costs far more than a rerun.
"""

from __future__ import annotations

from s2s_core.fmt import vec as vec_text
from s2s_core.lstm import LstmConfig, lstm_gates, parse_config
from s2s_ui.catalog import translate
from tests.app.conftest import all_text, open_page

SENTENCE = "나는 도서관에서 책을 읽는다"


def _errors(at) -> str:
    return " ".join(e.value for e in at.error)


def test_defaults_step_freeze_and_empty_sentence(lang):
    # 1) Defaults: the badge passes, nn.LSTM's (h_n, c_n) and the step-2 equations are on screen.
    at = open_page("lstm", lang)
    assert not at.exception
    result = lstm_gates(LstmConfig())
    text = all_text(at)
    assert translate(lang, "lstm.title") in text
    assert vec_text(result.torch_c_n) in text and vec_text(result.torch_h_n) in text
    assert "c_t = f⊙c_(t-1) + i⊙g = " in text and vec_text(result.run.c[1]) in text
    assert at.success and not at.error and not at.warning

    # 2) Another step redraws the equations.
    at.segmented_control(key="lstm_step").set_value(4).run()
    assert not at.exception
    assert "h_t = o⊙tanh(c_t) = " in all_text(at) and vec_text(result.run.h[3]) in all_text(at)

    # 3) The freeze button forces f = 1, i = 0 from step 2: the cell stays at c_1.
    at.button(key="lstm_freeze").click().run()
    assert not at.exception
    assert at.multiselect(key="lstm_force_f").value == [2, 3, 4]
    forced = lstm_gates(
        parse_config("sentence", SENTENCE, None, 3, 4, 0, {"f": ([2, 3, 4], 1), "i": ([2, 3, 4], 0)})
    ).forced
    text = all_text(at)
    assert f"c = {vec_text(forced.c[-1])}" in text and vec_text(forced.c[0]) == vec_text(forced.c[-1])
    assert translate(lang, "lstm.override_first", step=2) in text
    assert "FORCE = {'i': ([1, 2, 3], 0.0), 'f': ([1, 2, 3], 1.0)}" in text  # the code expander follows

    # 4) A shorter sentence: stale step and override selections fall back, nothing breaks.
    at.text_input(key="lstm_sentence").set_value("나는 책을").run()
    assert not at.exception and not at.error
    assert at.segmented_control(key="lstm_step").value in (1, 2)
    assert at.multiselect(key="lstm_force_f").value == [2]

    # 5) An empty sentence names the field; the page header and inputs still render.
    at.text_input(key="lstm_sentence").set_value("   ").run()
    assert not at.exception
    assert translate(lang, "lstm.field.sentence") in _errors(at)
    assert translate(lang, "lstm.inputs") in all_text(at)


def test_table_mode_sizes_and_a_bad_cell(lang):
    at = open_page("lstm", lang, query={"lstm_x": "1,0;0,abc"})
    at.number_input(key="lstm_E").set_value(2).run()
    at.segmented_control(key="lstm_source").set_value("table").run()
    assert not at.exception
    errors = _errors(at)
    assert translate(lang, "lstm.field.vectors") in errors and "abc" in errors
    at.number_input(key="lstm_H").set_value(3).run()
    assert not at.exception
    assert translate(lang, "lstm.title") in all_text(at)


def test_a_shared_link_restores_source_step_and_overrides(lang):
    # Choice widgets keep their raw values in the link (not labels), so a link opens in either language.
    at = open_page(
        "lstm",
        lang,
        query={
            "lstm_x": "1,0;0,1;2,-1",
            "lstm_source": "table",
            "lstm_step": "3",
            "lstm_force_f": "2,3,9,x",
            "lstm_force_f_to": "0",
        },
    )
    at.number_input(key="lstm_E").set_value(2).run()  # bound number inputs are seeded by the browser, not AppTest
    at.number_input(key="lstm_H").set_value(3).run()
    assert not at.exception and not at.error
    assert at.segmented_control(key="lstm_step").value == 3
    assert at.multiselect(key="lstm_force_f").value == [2, 3]  # 9 and x are not steps of this sequence
    config = parse_config("table", None, [["1", "0"], ["0", "1"], ["2", "-1"]], 2, 3, 0)
    result = lstm_gates(config)
    text = all_text(at)
    assert vec_text(result.torch_c_n) in text and vec_text(result.run.c[2]) in text
    assert at.query_params["lstm_force_f"] == "2,3" and at.query_params["lstm_source"] == "table"
