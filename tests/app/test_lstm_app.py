"""LSTM gates page through AppTest, in English: the frame, check, step view, overrides, bad input, question, cases,
Reset.

Each test drives one app session through several edits: starting a session costs far more than a rerun. A tab is
read after opening it, as a learner does (only the open tab is drawn, as on a server).
"""

from __future__ import annotations

from s2s_core.catalog import translate
from s2s_core.fmt import vec as vec_text
from s2s_core.gated.fields import DEFAULT_SENTENCES
from s2s_core.gated.picture import legend_words
from s2s_core.lstm import lstm_gates, parse_config
from tests.app.conftest import all_text, open_page, open_tab, toasts

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
    # the picture's squares carry every step's value in their row ("value2": step 2's), picked by the slider
    picked = sorted((r["k"], r[f"value{step}"]) for r in rows if r.get("block") == block and f"value{step}" in r)
    return [v for _, v in picked]


def still_drawn(at, lang: str, kept: bool = False) -> None:
    """What does not need the sequence is still on the page: the size fields, the weights table, the notes,
    the prepared cases (each tab opened in turn); `kept`: the last good picture, faded, is the only chart."""
    assert at.number_input(key="lstm_H") is not None and at.number_input(key="lstm_seed") is not None
    assert translate(lang, "lstm.try.freeze") in [b.label for b in at.button]
    open_tab(at, "lstm", "ui.tab_tables", lang)
    assert translate(lang, "lstm.weights_heading") in all_text(at) and at.dataframe  # the weights need only E, H, seed
    assert len(at.get("vega_lite_chart")) == int(kept)  # no live picture, and this tab has no chart
    open_tab(at, "lstm", "ui.tab_notice", lang)
    assert translate(lang, "lstm.notice_1", **legend_words(lang)) in all_text(at)


def test_defaults_step_freeze_and_empty_sentence(lang):
    # 1) Defaults: an English sentence; the badge passes; nn.LSTM's (h_n, c_n) and the step-2 equations are shown.
    at = open_page("lstm", lang)
    assert not at.exception
    assert at.text_input(key="lstm_sentence").value == SENTENCE and "lstm_sentence" not in at.query_params
    result = lstm_gates(parse_config("sentence", SENTENCE, None, 3, 4, 0))
    assert translate(lang, "lstm.title") in all_text(at)
    assert translate(lang, "lstm.picture.title") in chart_data(at)
    # The picture is the cell at the slider's step (2 by default): its c_t column is that step's c_t.
    cells = picture_rows(at, "c_t", 2)
    assert [round(v, 9) for v in cells] == [round(float(v), 9) for v in result.run.c[1]]
    assert vec_text(result.torch_c_n) not in all_text(at)  # the check's tab is closed: not drawn, as on a server
    assert set(at.query_params) <= {"lang"}  # the defaults leave no parameter
    open_tab(at, "lstm", "ui.tab_check", lang)
    text = all_text(at)
    assert vec_text(result.torch_c_n) in text and vec_text(result.torch_h_n) in text
    assert at.success and not at.error and not at.warning
    assert at.query_params["lstm_tabs"] == "check"  # the open tab is in the link
    open_tab(at, "lstm", "ui.tab_steps", lang)
    assert "c_t = f⊙c_(t-1) + i⊙g = " in all_text(at) and vec_text(result.run.c[1]) in all_text(at)

    # 2) Another step redraws the equations.
    at.segmented_control(key="lstm_inspect").set_value(4).run()
    assert not at.exception
    assert "h_t = o⊙tanh(c_t) = " in all_text(at) and vec_text(result.run.h[3]) in all_text(at)
    assert at.query_params["lstm_inspect"] == "4"

    # 3) The freeze button forces f = 1, i = 0 from step 2: the cell stays at c_1; the picture shows that run.
    at.button(key="lstm_freeze").click().run()
    assert not at.exception
    assert at.pills(key="lstm_force_f").value == [2, 3, 4] and at.pills(key="lstm_force_i").value == [
        2,
        3,
        4,
    ]
    assert at.query_params["lstm_force_f"] == "2,3,4"  # written through the page's fields: into the link too
    forced = lstm_gates(
        parse_config("sentence", SENTENCE, None, 3, 4, 0, {"f": ([2, 3, 4], 1), "i": ([2, 3, 4], 0)})
    ).forced
    assert translate(lang, "lstm.picture.title_forced") in chart_data(at)
    assert [round(v, 9) for v in picture_rows(at, "c_t", 3)] == [round(float(v), 9) for v in forced.c[2]]
    open_tab(at, "lstm", "lstm.tab_override", lang)
    text = all_text(at)
    assert f"c = {vec_text(forced.c[-1])}" in text and vec_text(forced.c[0]) == vec_text(forced.c[-1])
    assert translate(lang, "lstm.override_first", step=2) in text
    open_tab(at, "lstm", "ui.tab_code", lang)
    assert "FORCE = {'i': ([1, 2, 3], 0.0), 'f': ([1, 2, 3], 1.0)}" in all_text(at)  # the code tab follows

    # 4) A shorter sentence: stale step and override selections fall back, nothing breaks.
    open_tab(at, "lstm", "ui.tab_steps", lang)
    at.text_input(key="lstm_sentence").set_value("I read").run()
    assert not at.exception and not at.error
    assert at.segmented_control(key="lstm_inspect").value in (1, 2)
    assert at.pills(key="lstm_force_f").value == [2]

    # 5) An empty sentence: its message once, and the last good picture ("I read", still forced at step 2) kept,
    # faded, under the caption that says so; what needs no sentence is still drawn.
    kept = lstm_gates(parse_config("sentence", "I read", None, 3, 4, 0, {"f": ([2], 1), "i": ([2], 0)})).forced
    at.text_input(key="lstm_sentence").set_value("   ").run()
    assert not at.exception
    assert [translate(lang, "lstm.field.sentence") in e.value for e in at.error].count(True) == 1
    assert len(at.get("vega_lite_chart")) == 1 and translate(lang, "ui.kept_note") in all_text(at)
    assert [round(v, 9) for v in picture_rows(at, "c_t", 2)] == [round(float(v), 9) for v in kept.c[1]]
    assert translate(lang, "lstm.quiz_question") not in all_text(at)  # the question waits for a good input
    still_drawn(at, lang, kept=True)
    # 6) A good sentence again: the live picture, no caption.
    at.text_input(key="lstm_sentence").set_value("the cat sat").run()
    assert not at.exception and not at.error
    assert translate(lang, "ui.kept_note") not in all_text(at)
    fixed = lstm_gates(parse_config("sentence", "the cat sat", None, 3, 4, 0, {"f": ([2], 1), "i": ([2], 0)}))
    assert [round(v, 9) for v in picture_rows(at, "c_t", 3)] == [round(float(v), 9) for v in fixed.forced.c[2]]


def test_table_mode_sizes_and_a_bad_cell(lang):
    at = open_page("lstm", lang, query={"lstm_x": "1,0;0,abc"})
    at.number_input(key="lstm_E").set_value(2).run()
    at.segmented_control(key="lstm_source").set_value("table").run()
    assert not at.exception
    # A bad cell in a link follows the README's rule: a notice naming the field, and the table on its default.
    assert translate(lang, "lstm.field.vectors") in toasts(at) and "abc" in toasts(at) and not at.error
    assert len(picture_rows(at, "c_t", 2)) == 4  # the picture is drawn from the default vectors
    at.number_input(key="lstm_H").set_value(3).run()
    assert not at.exception
    assert translate(lang, "lstm.title") in all_text(at)


def test_a_shared_link_restores_source_step_overrides_and_tab(lang):
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
            "lstm_tabs": "steps",
        },
    )
    assert not at.exception and not at.error
    assert at.segmented_control(key="lstm_inspect").value == 3  # the link opened the step-by-step tab
    assert at.pills(key="lstm_force_f").value == [2, 3]  # 9 and x are not steps of this sequence
    assert "9" in toasts(at)  # and the link's part that was dropped is named
    config = parse_config("table", None, [["1", "0"], ["0", "1"], ["2", "-1"]], 2, 3, 0)
    result = lstm_gates(config)
    assert vec_text(result.run.c[2]) in all_text(at)
    assert at.query_params["lstm_force_f"] == "2,3" and at.query_params["lstm_source"] == "table"
    assert at.query_params["lstm_tabs"] == "steps"
    open_tab(at, "lstm", "ui.tab_check", lang)
    assert vec_text(result.torch_c_n) in all_text(at)


def test_reset_from_a_link_that_set_every_field_leaves_no_parameter(lang):
    """Reset forgets every field of the page, those in the folded sizes and override expanders too."""
    query = {
        "lstm_source": "table",
        "lstm_x": "1,0;0,1;2,-1",
        "lstm_sentence": "the cat sat",
        "lstm_E": "2",
        "lstm_H": "3",
        "lstm_seed": "5",
        "lstm_step": "3",
        "lstm_inspect": "3",
        "lstm_force_f": "2,3",
        "lstm_force_f_to": "0",
        "lstm_force_o": "1",
        "lstm_tabs": "steps",
    }
    at = open_page("lstm", lang, query=query)
    assert not at.exception and not at.error
    assert set(query) <= set(at.query_params)  # every value was valid: the link still holds them all
    at.button(key="reset__lstm").click().run()
    assert not at.exception
    assert set(at.query_params) <= {"lang"}
    assert at.segmented_control(key="lstm_source").value == "sentence"
    assert at.text_input(key="lstm_sentence").value == SENTENCE
    assert (at.number_input(key="lstm_E").value, at.number_input(key="lstm_H").value) == (3, 4)
    assert at.number_input(key="lstm_seed").value == 0
    assert at.pills(key="lstm_force_f").value == [] and at.segmented_control(key="lstm_force_f_to").value == 1
    assert at.tabs[0].children and not any(tab.children for tab in at.tabs[1:])  # back on the first tab


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
    at.button(key="try__lstm__1").click().run()
    assert not at.exception
    assert at.pills(key="lstm_force_f").value == [3] and at.segmented_control(key="lstm_force_f_to").value == 0
    assert at.query_params["lstm_force_f"] == "3" and at.query_params["lstm_force_f_to"] == "0"
    # 4) Reset from that case: no parameter of the page is left, the override is back to nothing.
    at.button(key="reset__lstm").click().run()
    assert not at.exception
    assert set(at.query_params) <= {"lang"} and at.pills(key="lstm_force_f").value == []


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
