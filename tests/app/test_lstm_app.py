"""LSTM gates page through AppTest, in English: the frame, check, step view, overrides, bad input, question, cases.

Each test drives one app session through several edits: starting a session costs far more than a rerun.
"""

from __future__ import annotations

from s2s_core.fmt import vec as vec_text
from s2s_core.gated.inputs import DEFAULT_SENTENCES
from s2s_core.lstm import lstm_gates, parse_config
from s2s_ui.catalog import translate
from tests.app.conftest import all_text, open_page

SENTENCE = DEFAULT_SENTENCES["en"]  # the English page opens on an English sentence


def _errors(at) -> str:
    return " ".join(e.value for e in at.error)


def chart_data(at) -> str:
    """Every chart's spec and data as one text (inline values live in the spec; Arrow datasets decoded)."""
    import json

    import pyarrow as pa

    parts = []
    for chart in at.get("vega_lite_chart"):
        parts.append(json.dumps(json.loads(chart.proto.spec), ensure_ascii=False))
        for dataset in chart.proto.datasets:
            parts.append(str(pa.ipc.open_stream(dataset.data.data).read_all().to_pylist()))
    return "\n".join(parts)


def picture_rows(at, block: str, step: int) -> list[float]:
    """The values of one column of the cell picture (the first chart) at one step, read from the spec's data."""
    import pyarrow as pa

    chart = at.get("vega_lite_chart")[0]
    rows = [r for d in chart.proto.datasets for r in pa.ipc.open_stream(d.data.data).read_all().to_pylist()]
    picked = sorted(
        (r["k"], r["value"]) for r in rows if r.get("block") == block and r.get("step") == step and "k" in r
    )
    return [v for _, v in picked]


def still_drawn(at, lang: str) -> None:
    """What does not need the sequence is still on the page: the size fields, the weights table, the notes,
    the prepared cases."""
    assert at.number_input(key="lstm_H") is not None and at.number_input(key="lstm_seed") is not None
    text = all_text(at)
    assert translate(lang, "lstm.weights_heading") in text and at.dataframe  # the weights need only E, H, seed
    assert translate(lang, "lstm.notice_1") in text
    assert translate(lang, "lstm.try.freeze") in [b.label for b in at.button]


def test_defaults_step_freeze_and_empty_sentence(lang):
    # 1) Defaults: an English sentence; the badge passes; nn.LSTM's (h_n, c_n) and the step-2 equations are shown.
    at = open_page("lstm", lang)
    assert not at.exception
    assert at.text_input(key="lstm_sentence").value == SENTENCE and "lstm_sentence" not in at.query_params
    result = lstm_gates(parse_config("sentence", SENTENCE, None, 3, 4, 0))
    text = all_text(at)
    assert translate(lang, "lstm.title") in text
    assert vec_text(result.torch_c_n) in text and vec_text(result.torch_h_n) in text
    assert "c_t = f⊙c_(t-1) + i⊙g = " in text and vec_text(result.run.c[1]) in text
    assert at.success and not at.error and not at.warning
    assert translate(lang, "lstm.picture.title") in chart_data(at)
    # The picture is the cell at the slider's step (2 by default): its c_t column is that step's c_t.
    cells = picture_rows(at, "c_t", 2)
    assert [round(v, 9) for v in cells] == [round(float(v), 9) for v in result.run.c[1]]

    # 2) Another step redraws the equations.
    at.segmented_control(key="lstm_inspect").set_value(4).run()
    assert not at.exception
    assert "h_t = o⊙tanh(c_t) = " in all_text(at) and vec_text(result.run.h[3]) in all_text(at)

    # 3) The freeze button forces f = 1, i = 0 from step 2: the cell stays at c_1; the picture shows that run.
    at.button(key="lstm_freeze").click().run()
    assert not at.exception
    assert at.multiselect(key="lstm_force_f").value == [2, 3, 4]
    forced = lstm_gates(
        parse_config("sentence", SENTENCE, None, 3, 4, 0, {"f": ([2, 3, 4], 1), "i": ([2, 3, 4], 0)})
    ).forced
    text = all_text(at)
    assert f"c = {vec_text(forced.c[-1])}" in text and vec_text(forced.c[0]) == vec_text(forced.c[-1])
    assert translate(lang, "lstm.override_first", step=2) in text
    assert "FORCE = {'i': ([1, 2, 3], 0.0), 'f': ([1, 2, 3], 1.0)}" in text  # the code tab follows
    assert translate(lang, "lstm.picture.title_forced") in chart_data(at)
    assert [round(v, 9) for v in picture_rows(at, "c_t", 3)] == [round(float(v), 9) for v in forced.c[2]]

    # 4) A shorter sentence: stale step and override selections fall back, nothing breaks.
    at.text_input(key="lstm_sentence").set_value("I read").run()
    assert not at.exception and not at.error
    assert at.segmented_control(key="lstm_inspect").value in (1, 2)
    assert at.multiselect(key="lstm_force_f").value == [2]

    # 5) An empty sentence names the field where the picture was; what needs no sentence is still drawn.
    at.text_input(key="lstm_sentence").set_value("   ").run()
    assert not at.exception
    assert translate(lang, "lstm.field.sentence") in _errors(at)
    assert not at.get("vega_lite_chart")
    still_drawn(at, lang)


def test_table_mode_sizes_and_a_bad_cell(lang):
    at = open_page("lstm", lang, query={"lstm_x": "1,0;0,abc"})
    at.number_input(key="lstm_E").set_value(2).run()
    at.segmented_control(key="lstm_source").set_value("table").run()
    assert not at.exception
    errors = _errors(at)
    assert translate(lang, "lstm.field.vectors") in errors and "abc" in errors
    still_drawn(at, lang)  # a bad cell hides only what needs the sequence
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
            "lstm_inspect": "3",
            "lstm_force_f": "2,3,9,x",
            "lstm_force_f_to": "0",
            "lstm_E": "2",
            "lstm_H": "3",
        },
    )
    assert not at.exception and not at.error
    assert at.segmented_control(key="lstm_inspect").value == 3
    assert at.multiselect(key="lstm_force_f").value == [2, 3]  # 9 and x are not steps of this sequence
    config = parse_config("table", None, [["1", "0"], ["0", "1"], ["2", "-1"]], 2, 3, 0)
    result = lstm_gates(config)
    text = all_text(at)
    assert vec_text(result.torch_c_n) in text and vec_text(result.run.c[2]) in text
    assert at.query_params["lstm_force_f"] == "2,3" and at.query_params["lstm_source"] == "table"


def test_the_question_hides_its_answer_and_a_case_loads_its_inputs(lang):
    # 1) Before answering, the frozen run's last h (the answer's number) is nowhere: not in text, not in a chart.
    at = open_page("lstm", lang)
    frozen = lstm_gates(parse_config("sentence", SENTENCE, None, 3, 4, 0, {"f": ([2, 3, 4], 1), "i": ([2, 3, 4], 0)}))
    h_last = frozen.forced.h[-1]
    data = chart_data(at)
    assert vec_text(h_last) not in all_text(at)
    assert not any(repr(float(v)) in data for v in h_last)
    # 2) The answer, graded against that run: h still changes (o is not frozen); the numbers come with it.
    at.radio(key="lstm_quiz").set_value(translate(lang, "lstm.quiz_moves")).run()
    assert not at.exception
    assert translate(lang, "ui.quiz_right", answer=translate(lang, "lstm.quiz_moves")) in all_text(at)
    assert vec_text(h_last) in all_text(at)
    # 3) A prepared case loads its link: the forget gate shut at step 3.
    at.button(key="try__lstm_source__1").click().run()
    assert not at.exception
    assert at.multiselect(key="lstm_force_f").value == [3] and at.segmented_control(key="lstm_force_f_to").value == 0
    assert at.query_params["lstm_force_f"] == "3"


def test_switching_language_swaps_the_untouched_example(lang):
    """The English example follows a switch to Korean (no link names it); a typed sentence stays."""
    at = open_page("lstm", lang)
    at.segmented_control(key="lang_switch").set_value("ko").run()
    assert not at.exception
    assert at.text_input(key="lstm_sentence").value == DEFAULT_SENTENCES["ko"]
    assert "lstm_sentence" not in at.query_params
    at.text_input(key="lstm_sentence").set_value("the cat sat").run()
    at.segmented_control(key="lang_switch").set_value("en").run()
    assert at.text_input(key="lstm_sentence").value == "the cat sat"
