"""Encoder–decoder page through AppTest, in English: live numbers, hand-off, bridge, stepping, bad input.

A test opens a tab before reading it, as a learner does: the server draws only the open tab, and so does AppTest.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pyarrow as pa

from s2s_core.fmt import num, pct, sci
from s2s_core.fmt import vec as vector_text
from s2s_core.seq2seq import Seq2SeqConfig, default_config, fields, run
from s2s_core.seq2seq.fields import DEFAULT_SOURCE
from s2s_core.seq2seq.frames import bottleneck_summary, brief, state_labels
from s2s_ui.catalog import translate
from tests.app.conftest import all_text, open_page, open_tab


def _tab(at, label_key: str, lang: str = "en") -> str:
    """Open one of the page's tabs (as a learner does) and return the page's text with it open."""
    return all_text(open_tab(at, "seq2seq", label_key, lang))


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
    assert "outputs (1, 4, 6)" in text and "h_n (1, 1, 6)" in text  # the first tab, open by default
    assert translate(lang, "seq2seq.handoff_as_is_lstm") not in text  # the hand-off's tab is closed: not drawn
    text = _tab(at, "seq2seq.tab_handoff", lang)
    assert at.query_params["seq2seq_tabs"] == "handoff"  # the open tab is in the link
    assert vector_text(result.handoff.h0[-1, 0]) in text  # h0 = h_n, printed from the live tensors
    assert vector_text(result.handoff.c0[-1, 0]) in text
    assert translate(lang, "seq2seq.handoff_as_is_lstm") in text
    _tab(at, "ui.tab_check", lang)
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
    assert "h_n (2, 1, 6)" in all_text(at)  # the encoder section still renders
    assert translate(lang, "seq2seq.bn_after_quiz") in _tab(at, "seq2seq.tab_bottleneck", lang)  # and the bottleneck
    at.segmented_control(key="seq2seq_bridge").set_value("linear").run()
    assert not at.exception and not at.error
    assert translate(lang, "seq2seq.handoff_bridge_c") in _tab(at, "seq2seq.tab_handoff", lang)


def test_directions_handed_over_as_layers_name_every_row(lang):
    """Two encoder layers, two directions, four decoder layers: the warning maps all four rows of h_n, the
    live count, not a fixed 'two directions -> two layers'."""
    config = Seq2SeqConfig(bidirectional=True, enc_layers=2, dec_layers=4)
    handoff = run(config).handoff
    assert handoff.directions_as_layers
    query = {"seq2seq_bidir": "true", "seq2seq_enc_layers": "2", "seq2seq_dec_layers": "4", "seq2seq_tabs": "handoff"}
    at = open_page("seq2seq", lang, query=query)  # a link that opens the hand-off's tab
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
    text = _tab(at, "seq2seq.tab_bottleneck", lang)
    assert not any(a in text for a in answer) and translate(lang, "seq2seq.chart.bn_title") not in _chart_data(at)
    assert translate(lang, "seq2seq.bn_after_quiz") in text
    text = _tab(at, "ui.tab_notice", lang)
    assert not any(a in text for a in answer) and translate(lang, "seq2seq.notice_4") not in text
    at.button(key="seq2seq_quiz__show").click().run()
    assert translate(lang, "seq2seq.notice_4") in all_text(at)  # the notice tab is still open
    text = _tab(at, "seq2seq.tab_bottleneck", lang)
    assert all(a in text for a in answer) and translate(lang, "seq2seq.chart.bn_title") in _chart_data(at)
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
    assert translate(lang, "seq2seq.steps_table") in _tab(at, "ui.tab_steps", lang)
    _tab(at, "ui.tab_check", lang)
    assert translate(lang, "seq2seq.check_what", cell="LSTM") in " ".join(s.value for s in at.success)
    _tab(at, "seq2seq.tab_bottleneck", lang)  # the one tab that needs the word names it
    assert translate(lang, "seq2seq.bn_after_quiz") not in all_text(at)
    errors, field = [e.value for e in at.error], translate(lang, "seq2seq.field.replacement")
    assert len(errors) == 2 and all(field in e for e in errors)  # under the picture and in this tab


def test_try_this_loads_the_syllabus_korean_sentence_and_a_failing_hand_off(lang):
    at = open_page("seq2seq", lang)
    at.button(key="try__seq2seq__0").click().run()
    assert not at.exception
    assert at.text_input(key="seq2seq_source").value == DEFAULT_SOURCE["ko"]
    assert "S = 3" in all_text(at)
    at.button(key="try__seq2seq__1").click().run()
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
        open_tab(at, "seq2seq", "seq2seq.tab_handoff", language)
        assert [c.value for c in at.caption].count(rest) == 1, language
        open_tab(at, "seq2seq", "ui.tab_steps", language)
        captions = [c.value for c in at.caption]
        assert translate(language, "seq2seq.dec_skipped") in captions and rest not in captions


def test_reset_returns_a_link_without_any_parameter_of_the_page(lang):
    """From a link that set many fields (most in the folded settings), the picture's step and the open tab, then
    from a prepared case: Reset leaves no parameter of the page and every field at its default."""
    query = {
        "seq2seq_cell": "gru",
        "seq2seq_embed": "5",  # the folded settings from here
        "seq2seq_enc_hidden": "4",
        "seq2seq_dec_hidden": "4",
        "seq2seq_seed": "3",
        "seq2seq_steps": "6",
        "seq2seq_top_k": "2",
        "seq2seq_replacement": "He",
        "seq2seq_step": "2",
        "seq2seq_tabs": "handoff",
    }
    at = open_page("seq2seq", lang, query=query)
    assert not at.exception and not at.error
    assert at.number_input(key="seq2seq_embed").value == 5 and at.text_input(key="seq2seq_replacement").value == "He"
    assert translate(lang, "seq2seq.handoff_title") in all_text(at)  # the link's tab is open
    kept = {k: v for k, v in query.items() if k != "seq2seq_step"}  # the step is clamped to what was decoded
    assert all(at.query_params[k] == v for k, v in kept.items())
    at.button(key="reset__seq2seq").click().run()
    assert not at.exception
    assert set(at.query_params) <= {"lang"}
    default = default_config(lang)
    assert (
        at.number_input(key="seq2seq_embed").value == default.embed
        and at.segmented_control(key="seq2seq_cell").value == "lstm"
    )
    assert at.text_input(key="seq2seq_replacement").value == default.replacement
    assert "outputs (1, 4, 6)" in all_text(at)  # back on the first tab, with the default sizes
    at.button(key="try__seq2seq__2").click().run()  # directions fed into decoder layers
    assert dict(at.query_params) == {"lang": lang, "seq2seq_bidir": "true", "seq2seq_dec_layers": "2"}
    at.button(key="reset__seq2seq").click().run()
    assert set(at.query_params) <= {"lang"} and not at.toggle(key="seq2seq_bidir").value
    assert not [f.key for f in fields.FIELDS if f.key in at.query_params]


def test_the_untouched_sentence_and_word_follow_a_language_switch():
    """Each language's own default (one field key, a default per language): an untouched sentence and word switch
    with the language and leave no parameter; a typed one stays."""
    at = open_page("seq2seq", "en")
    at.segmented_control(key="lang_switch").set_value("ko").run()
    assert not at.exception
    assert at.text_input(key="seq2seq_source").value == DEFAULT_SOURCE["ko"]
    assert at.text_input(key="seq2seq_replacement").value == "그는"
    assert "seq2seq_source" not in at.query_params and "seq2seq_replacement" not in at.query_params
    at.text_input(key="seq2seq_source").set_value("고양이가 잔다").run()
    at.segmented_control(key="lang_switch").set_value("en").run()
    assert at.text_input(key="seq2seq_source").value == "고양이가 잔다"  # typed: kept, and in the link
    assert (
        at.query_params["seq2seq_source"] == "고양이가 잔다" and at.text_input(key="seq2seq_replacement").value == "She"
    )
