"""RNN page through AppTest, in English: defaults, stepping, play, the check, the quiz (its answer hidden until
answered), a prepared case, bad input hiding only what needs it."""

from __future__ import annotations

import json

from s2s_core.catalog import translate
from s2s_core.fmt import num, sci
from s2s_core.fmt import vec as vec_text
from s2s_core.rnn import parse_config, unroll
from tests.app.conftest import all_text, open_page, open_tab, toasts

DEFAULT = {"ko": "나는 책을 읽는다", "en": "I read a book"}


def _latex(at) -> str:
    return "\n".join(str(el.value) for el in at.get("latex"))


def _check_passes(at, lang: str) -> bool:
    return any(translate(lang, "rnn.check_what") in s.value for s in at.success)


def test_defaults_stepping_play_and_quiz(lang):
    at = open_page("rnn", lang)
    assert not at.exception
    result = unroll(parse_config(DEFAULT[lang], 3, 4, 0))
    text = all_text(at)
    assert translate(lang, "rnn.title") in text
    assert vec_text(result.x[0]) in text  # x_1 of the first word
    assert num(result.h[0, 0]) in _latex(at)  # h_1 filled into the formula
    assert not [k for k in at.query_params if k.startswith("rnn_")]  # the language's own default: no parameter
    assert not _check_passes(at, lang)  # the check's tab is closed: not drawn, as on a server
    open_tab(at, "rnn", "ui.tab_check", lang)
    assert _check_passes(at, lang)  # hand loop == nn.RNN
    assert at.query_params["rnn_tabs"] == "check"  # the open tab is in the link
    open_tab(at, "rnn", "ui.tab_notice", lang)
    assert str(result.n_params) in all_text(at)
    # 1) The picture: its h_1 squares carry the live h_1; a link's step opens the picture on that step.
    assert picture_values(at, "h1", 1) == [float(v) for v in result.h[0]]
    S = len(result.tokens)
    at = open_page("rnn", lang, query={"rnn_step": str(S)})
    assert _step_value(json.loads(at.get("vega_lite_chart")[0].proto.spec)) == [{"step": S}]
    assert f"h_{{{S}}} = \\tanh" in _latex(at)  # the fragment's step written out follows the step
    assert num(result.h[-1, 0]) in _latex(at)
    assert translate(lang, "rnn.step_heading", t=S, S=S, token=result.tokens[-1]) in all_text(at)
    # 3) The quiz is graded against the live result (the first word reaches every column).
    at.radio(key="rnn_quiz").set_value(translate(lang, "rnn.quiz_all")).run()
    assert not at.exception and at.success and not at.warning


def _step_value(spec: dict) -> list:
    return next(p["value"] for p in spec["params"] if p["name"] == "step_sel")


def picture_values(at, vector: str, step: int) -> list[float]:
    """One column of the chain picture (the first chart), read from the chart's data (Arrow datasets)."""
    import pyarrow as pa

    chart = at.get("vega_lite_chart")[0]
    rows = [r for d in chart.proto.datasets for r in pa.ipc.open_stream(d.data.data).read_all().to_pylist()]
    picked = {
        r["k"]: r["value"] for r in rows if r.get("vector") == vector and r.get("step") == step and not r.get("dup")
    }
    return [picked[k] for k in sorted(picked)]


def _chart_data(at) -> str:
    return " ".join(el.proto.spec + json.dumps([str(d) for d in el.proto.datasets]) for el in at.get("vega_lite_chart"))


def test_the_quiz_answer_is_hidden_until_answered(lang):
    at = open_page("rnn", lang, query={"rnn_tabs": "notice"})  # a link that opens the notices
    result = unroll(parse_config(DEFAULT[lang], 3, 4, 0))
    last = sci(result.first_word_change[-1])  # how far h_S moved when x_1 was swapped: the answer's value
    carried = translate(lang, "rnn.notice_2")  # the notice that says how a column reaches the next
    assert last not in all_text(at) and last not in _chart_data(at) and carried not in all_text(at)
    at.button(key="rnn_quiz__show").click().run()
    assert not at.exception
    assert last in all_text(at) and carried in all_text(at)


def test_a_prepared_case_loads_its_sentence(lang):
    at = open_page("rnn", lang)
    at.button(key="try__rnn__1").click().run()  # a word that comes back
    assert not at.exception
    assert at.text_input(key="rnn_sentence").value == "the dog saw the cat"
    assert at.query_params["rnn_sentence"] == "the dog saw the cat"
    at.button(key="reset__rnn").click().run()  # Reset: the default sentence, and no parameter of the page
    assert at.text_input(key="rnn_sentence").value == DEFAULT[lang]
    assert set(at.query_params) <= {"lang"}


def test_a_link_made_before_the_one_sentence_key_still_opens(lang):
    at = open_page("rnn", lang, query={f"rnn_sentence_{lang}": "the cat sat"})
    assert not at.exception
    assert at.text_input(key="rnn_sentence").value == "the cat sat"
    assert at.query_params["rnn_sentence"] == "the cat sat" and f"rnn_sentence_{lang}" not in at.query_params


def test_empty_sentence_names_the_field_and_hides_only_what_needs_it(lang):
    at = open_page("rnn", lang, query={"rnn_sentence": "   ", "rnn_tabs": "tables"})
    assert not at.exception
    assert translate(lang, "rnn.field.sentence") in " ".join(e.value for e in at.error)
    # The weights need only E, H and the seed: their tab still draws, and the size fields are still there.
    assert translate(lang, "rnn.shared_caption_any", E=3, H=4, n=36) in all_text(at)
    assert at.number_input(key="rnn_H").value == 4 and not at.get("vega_lite_chart")


def test_a_bad_sentence_keeps_the_last_good_picture_faded_with_the_message_once(lang):
    """A good edit, then an empty sentence: the message once, the picture still drawn from the good sentence under
    the kept caption, the question waiting; a good sentence again: the live picture, no caption."""
    at = open_page("rnn", lang)
    at.text_input(key="rnn_sentence").set_value("the cat sat").run()
    good = unroll(parse_config("the cat sat", 3, 4, 0))
    assert picture_values(at, "h3", 3) == [float(v) for v in good.h[2]]
    charts = len(at.get("vega_lite_chart"))  # the picture and its step's bars
    at.text_input(key="rnn_sentence").set_value("   ").run()
    assert not at.exception
    assert len(at.error) == 1 and translate(lang, "rnn.field.sentence") in at.error[0].value
    assert len(at.get("vega_lite_chart")) == charts and picture_values(at, "h3", 3) == [float(v) for v in good.h[2]]
    assert translate(lang, "ui.kept_note") in [c.value for c in at.caption]
    assert not at.radio  # the question needs the live sentence
    at.text_input(key="rnn_sentence").set_value("a dog").run()
    assert not at.exception and not at.error
    assert picture_values(at, "h2", 2) == [float(v) for v in unroll(parse_config("a dog", 3, 4, 0)).h[1]]
    assert translate(lang, "ui.kept_note") not in [c.value for c in at.caption]


def test_oversized_H_and_nan_weight_are_explained_and_the_page_goes_on(lang):
    query = {"rnn_H": "100", "rnn_edit": "true", "rnn_w_x_4x3": "1,nan,0;0,0,0;0,0,0;0,0,0", "rnn_tabs": "check"}
    at = open_page("rnn", lang, query=query)
    assert not at.exception
    assert translate(lang, "rnn.field.H") in toasts(at) and "100" in toasts(at)  # the link's value and the cap, named
    assert translate(lang, "rnn.W_x_label") in toasts(at)  # the link's NaN cell: the table named, on its default
    assert at.number_input(key="rnn_H").value == 4  # the page goes on with the default ...
    assert _check_passes(at, lang)  # ... and seeded W_x for the broken table


def test_typed_weights_from_the_link_are_used(lang):
    query = {
        "rnn_edit": "true",
        "rnn_E": "2",
        "rnn_H": "2",
        "rnn_sentence": "a b",
        "rnn_w_x_2x2": "1,0;0,1",
        "rnn_w_h_2x2": "0,0;0,0",
        "rnn_b_2x2": "0;0",
    }
    at = open_page("rnn", lang, query=query)
    assert not at.exception
    result = unroll(parse_config("a b", 2, 2, 0, [[1, 0], [0, 1]], [[0, 0], [0, 0]], [[0], [0]]))
    assert num(result.h[0, 0]) in _latex(at)
    # With W_h = 0 nothing is handed on: the live answer is "only column 1", explained by the zero W_h.
    at.radio(key="rnn_quiz").set_value(translate(lang, "rnn.quiz_only_first")).run()
    assert not at.exception and at.success and not at.warning
    assert translate(lang, "rnn.quiz_why_h_zero") in all_text(at)


def test_quiz_with_w_x_zero_answers_no_column(lang):
    query = {"rnn_edit": "true", "rnn_E": "2", "rnn_H": "2", "rnn_sentence": "a b c", "rnn_w_x_2x2": "0,0;0,0"}
    at = open_page("rnn", lang, query=query)
    assert not at.exception
    at.radio(key="rnn_quiz").set_value(translate(lang, "rnn.quiz_none")).run()
    assert not at.exception and at.success and not at.warning
    assert translate(lang, "rnn.quiz_why_x_zero") in all_text(at)


def test_no_memory_case_does_not_claim_different_states(lang):
    """The page's own "No memory" case (W_h = 0): the repeated word's two h_t are equal, and the notices say so."""
    at = open_page("rnn", lang)
    at.button(key="try__rnn__2").click().run()  # No memory: W_h = 0, a word that comes back
    open_tab(at, "rnn", "ui.tab_notice", lang)
    assert not at.exception
    text = all_text(at)
    token = "the"
    assert translate(lang, "rnn.notice_repeat_same", token=token, steps="1, 4") in text
    assert translate(lang, "rnn.notice_repeat", token=token, steps="1, 4") not in text  # the old, false sentence


def _colour_scale(spec: dict) -> dict:
    """The colour scale of the picture's value squares (the layer that colours `value` by a scheme)."""
    for layer in spec.get("layer", []):
        colour = layer.get("encoding", {}).get("color", {})
        if colour.get("field") == "value" and "scheme" in colour.get("scale", {}):
            return colour["scale"]
    raise AssertionError("no value colour scale in the picture")


def test_the_pictures_colour_words_are_read_off_its_scale():
    """The description names the colours the chart draws at −1 and 1 (it said red for −1, which is drawn blue)."""
    import altair as alt

    from s2s_core.chartkit import colour_ends

    for lang in ("en", "ko"):
        at = open_page("rnn", lang)
        spec = json.loads(at.get("vega_lite_chart")[0].proto.spec)
        low, high = (translate(lang, f"ui.colour.{c}") for c in colour_ends(alt.Scale(**_colour_scale(spec))))
        assert low != high
        description = spec["description"]
        assert (
            (f"−1 ({low})" in description and f"1 ({high})" in description)
            if lang == "en"
            else (f"−1({low})" in description and f"1({high})" in description)
        ), description
