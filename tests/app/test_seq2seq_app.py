"""Encoder–decoder page through AppTest, in English: live numbers, hand-off, bridge, stepping, bad input."""

from __future__ import annotations

import json
from dataclasses import replace

import pyarrow as pa

from s2s_core.fmt import num, pct, sci
from s2s_core.fmt import vec as vector_text
from s2s_core.seq2seq import Seq2SeqConfig, default_config, run
from s2s_core.seq2seq.compute import DEFAULT_SOURCE
from s2s_core.seq2seq.frames import bottleneck_summary, brief, state_labels
from s2s_ui.catalog import translate
from tests.app.conftest import all_text, open_page


def _chart_data(at) -> str:
    """Every drawn chart's spec and rows (Streamlit ships the rows as Arrow tables) as one text."""
    parts = []
    for chart in at.get("vega_lite_chart"):
        parts.append(chart.proto.spec)
        parts += [pa.ipc.open_stream(d.data.data).read_all().to_pandas().to_csv() for d in chart.proto.datasets]
    return "\n".join(parts)


def test_defaults_show_the_live_encoder_and_decoder(lang):
    at = open_page("seq2seq", lang)
    assert not at.exception
    text = all_text(at)
    result = run(default_config(lang))
    assert at.text_input(key="seq2seq_source").value == "I read a book"  # the learner's language
    assert "seq2seq_source" not in at.query_params  # its own default leaves no parameter
    assert translate(lang, "seq2seq.title") in text
    assert vector_text(result.handoff.h0[-1, 0]) in text  # h0 = h_n, printed from the live tensors
    assert vector_text(result.handoff.c0[-1, 0]) in text
    assert translate(lang, "seq2seq.handoff_as_is_lstm") in text
    assert "outputs (1, 4, 6)" in text and "h_n (1, 1, 6)" in text
    assert len(at.success) >= 1  # step-by-step == one call
    # The picture: both chains and the waist, h0 and c0, with its step control on the decoder's steps.
    picture = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    assert picture["title"] == translate(lang, "seq2seq.picture.title")
    assert picture["description"] == translate(lang, "seq2seq.picture.description")
    params = picture.get("params", []) + [p for layer in picture["layer"] for p in layer.get("params", [])]
    step = next(p for p in params if p["name"] == "step_sel")
    assert step["value"] == [{"step": 1}] and step["bind"]["step"]["max"] == len(result.decoding.steps)
    data = _chart_data(at)
    assert all(word in data for word in ("1 I", "4 book", "h0", "c0", "<sos>", result.decoding.output[0]))


def test_bidirectional_without_bridge_names_the_bridge_and_keeps_the_page(lang):
    at = open_page("seq2seq", lang, query={"seq2seq_bidir": "true"})
    assert not at.exception
    errors = " ".join(e.value for e in at.error)
    assert translate(lang, "seq2seq.field.bridge") in errors and "2, 1, 6" in errors
    # The bidirectional message, with this encoder's own fixes: 1 layer of 6 one way, or 12 joined.
    params = dict(enc="(2, 1, 6)", dec="(1, 1, 6)", layers=1, hidden=6, joined=12)
    field = translate(lang, "seq2seq.field.bridge")
    assert translate(lang, "seq2seq.error.no_bridge_bidir", field=field, **params) in errors.replace("\\", "")
    text = all_text(at)
    assert "h_n (2, 1, 6)" in text  # the encoder section still renders
    assert translate(lang, "seq2seq.bn_after_quiz") in text  # and the bottleneck tab too
    at.segmented_control(key="seq2seq_bridge").set_value("linear").run()
    assert not at.exception and not at.error
    assert translate(lang, "seq2seq.handoff_bridge_c") in all_text(at)


def test_directions_handed_over_as_layers_name_every_row(lang):
    """Two encoder layers, two directions, four decoder layers: the warning maps all four rows of h_n, the
    live count, not a fixed 'two directions -> two layers'."""
    config = Seq2SeqConfig(bidirectional=True, enc_layers=2, dec_layers=4)
    handoff = run(config).handoff
    assert handoff.directions_as_layers
    at = open_page(
        "seq2seq", lang, query={"seq2seq_bidir": "true", "seq2seq_enc_layers": "2", "seq2seq_dec_layers": "4"}
    )
    assert not at.exception and not at.error
    warning = " ".join(w.value for w in at.warning)
    for i, row in enumerate(state_labels(config.enc_layers, config.directions), start=1):
        assert translate(lang, "seq2seq.handoff_dirs_row", i=i, row=row) in warning
    assert len(state_labels(config.enc_layers, config.directions)) == 4


def test_bottleneck_answer_waits_for_the_question_then_names_forgetting(lang):
    """The measurement that answers the question is nowhere (text, chart data) until the learner answers or
    asks to be shown; then the fading is described as forgetting with the live per-word factor; the bottleneck
    as the hand-off's fixed size; the Training lab's measurement is linked."""
    m = bottleneck_summary(run(default_config(lang)).bottleneck)
    assert m.fades and m.band == "less"
    at = open_page("seq2seq", lang)
    assert not at.exception
    answer = [sci(m.long), pct(m.ratio)]
    text, data = all_text(at), _chart_data(at)
    assert not any(a in text for a in answer) and translate(lang, "seq2seq.chart.bn_title") not in data
    assert translate(lang, "seq2seq.notice_4") not in text and translate(lang, "seq2seq.bn_after_quiz") in text
    at.button(key="seq2seq_quiz__show").click().run()
    text = all_text(at)
    assert all(a in text for a in answer) and translate(lang, "seq2seq.chart.bn_title") in _chart_data(at)
    assert translate(lang, "seq2seq.notice_4") in text
    assert translate(lang, "seq2seq.bn_forgetting", factor=num(m.per_word), n=m.n, N=m.N) in text
    assert translate(lang, "seq2seq.bn_attention", size=m.handoff_numbers, n=m.n, N=m.N) in text
    assert m.handoff_numbers == 12  # LSTM, 1 layer, 1 direction, H_e = 6: h_n and c_n
    assert [link.proto.page for link in at.get("page_link")] == ["training"]


def test_the_page_opens_with_the_runs_source_and_output_lengths(lang):
    """Default: 3 words in, 1 out then <eos>; GRU with T = 3: 3 and 3 (by chance); no hand-off: pending."""
    cases = [
        ({}, "seq2seq.lengths_differ", dict(S=4, T=1, stop=translate(lang, "seq2seq.stop_eos"))),
        (
            {"seq2seq_cell": "gru", "seq2seq_steps": "3", "seq2seq_source": DEFAULT_SOURCE["ko"]},
            "seq2seq.lengths_same",
            dict(S=3, stop=translate(lang, "seq2seq.stop_cap", cap=3)),
        ),
        ({"seq2seq_bidir": "true"}, "seq2seq.lengths_pending", dict(S=4, cap=5)),
    ]
    for query, key, params in cases:
        at = open_page("seq2seq", lang, query=query)
        assert not at.exception
        assert translate(lang, key, **params) in all_text(at), key


def test_stepping_the_decoder_shows_that_steps_input(lang):
    config = replace(default_config(lang), cell="gru", steps=4)
    dec = run(config).decoding
    at = open_page("seq2seq", lang, query={"seq2seq_cell": "gru", "seq2seq_steps": "4"})  # links carry the raw option
    assert not at.exception
    if len(dec.steps) < 2:
        return
    at = open_page("seq2seq", lang, query={"seq2seq_cell": "gru", "seq2seq_steps": "4", "seq2seq_step": "2"})
    assert not at.exception
    text = all_text(at)
    assert vector_text(dec.steps[1].h_new) in text  # every component, in the step's expander
    assert brief(dec.steps[1].h_new) in text  # the short form in the step's text
    assert (
        translate(lang, "seq2seq.step_input", token=dec.steps[1].input_token.replace("<", "\\<").replace(">", "\\>"))
        in text
    )


def test_editing_the_sentence_redraws(lang):
    at = open_page("seq2seq", lang)
    at.text_input(key="seq2seq_source").set_value("the cat sat on the mat").run()
    assert not at.exception
    text = all_text(at)
    assert "S = 6" in text and "outputs (1, 6, 6)" in text


def test_empty_sentence_and_two_word_replacement_are_clear_messages(lang):
    at = open_page("seq2seq", lang)
    at.text_input(key="seq2seq_source").set_value("   ").run()
    assert not at.exception
    assert translate(lang, "seq2seq.field.source") in " ".join(e.value for e in at.error)
    at.text_input(key="seq2seq_source").set_value("a b").run()
    at.text_input(key="seq2seq_replacement").set_value("two words").run()
    assert not at.exception
    assert translate(lang, "seq2seq.field.replacement") in " ".join(e.value for e in at.error)
    # Only the bottleneck needs that word: the picture, the encoder and the decoding are still drawn.
    text = all_text(at)
    assert len(at.get("vega_lite_chart")) >= 3 and "S = 2" in text
    assert translate(lang, "seq2seq.check_what", cell="LSTM") in " ".join(s.value for s in at.success)


def test_try_this_loads_the_syllabus_korean_sentence_and_a_failing_hand_off(lang):
    at = open_page("seq2seq", lang)
    at.button(key="try__seq2seq_source__0").click().run()
    assert not at.exception
    assert at.text_input(key="seq2seq_source").value == DEFAULT_SOURCE["ko"]
    assert "S = 3" in all_text(at)
    at.button(key="try__seq2seq_source__1").click().run()
    assert not at.exception
    assert at.text_input(key="seq2seq_source").value == "I read a book"  # back to this language's default
    assert at.number_input(key="seq2seq_dec_layers").value == 2
    assert translate(lang, "seq2seq.field.bridge") in " ".join(e.value for e in at.error)


def test_oversized_url_values_do_not_break_the_page(lang):
    at = open_page(
        "seq2seq",
        lang,
        query={
            "seq2seq_enc_hidden": "999",
            "seq2seq_steps": "-4",
            "seq2seq_cell": "rnn",
            "seq2seq_source": "<b>hi</b> " * 30,
        },
    )
    assert not at.exception
    assert at.error  # too many words: a message, not a traceback


def test_a_failed_hand_off_is_explained_once():
    """The 'encoder and bottleneck still run' sentence was printed in section 2 and again in section 3."""
    for language in ("ko", "en"):
        at = open_page("seq2seq", language, query={"seq2seq_bidir": "true"})
        assert not at.exception and run(Seq2SeqConfig(bidirectional=True)).decoding is None
        rest = translate(language, "seq2seq.handoff_rest")
        assert [c.value for c in at.caption].count(rest) == 1, language
        assert translate(language, "seq2seq.dec_skipped") in [c.value for c in at.caption]
