"""Encoder–decoder page through AppTest, in English: the trained model translating step by step (trained once per
module, in this process), the untrained model's live numbers, hand-off, bridge, stepping, bad input.

A test opens a tab before reading it, as a learner does: the server draws only the open tab, and so does AppTest.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pyarrow as pa
import pytest

from s2s_core.catalog import translate
from s2s_core.fmt import num, pct, sci
from s2s_core.fmt import vec as vector_text
from s2s_core.seq2seq import Seq2SeqConfig, default_config, fields, run
from s2s_core.seq2seq.fields import DEFAULT_SOURCE
from s2s_core.seq2seq.frames import bottleneck_summary, brief, state_labels
from s2s_core.seq2seq.trained import run_trained
from s2s_core.translation.lab import DEFAULT as TRAINED
from s2s_jobs import jobs
from s2s_jobs.jobs import DONE, RUNNING, JobSnapshot
from s2s_jobs.settings import BACKEND_ENV
from tests.app.conftest import all_text, open_page, open_tab

UNTRAINED = {"seq2seq_model": "untrained"}


@pytest.fixture(scope="module")
def trained():
    """The Translation lab's default model, trained once for this module in this process (the page finds the same
    job: one per configuration); its TrainResult."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(BACKEND_ENV, "inprocess")  # the runner may be made here, before the autouse fixture runs
        job = jobs.submit(TRAINED)
        assert job.wait(600), "the default model did not finish training"
        snap = jobs.snapshot(job)
    assert snap.state == DONE, snap.error
    return snap.result


def untrained_config(**changes) -> Seq2SeqConfig:
    return replace(default_config("en", "untrained"), **changes)


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


def esc(text: str) -> str:
    return text.replace("<", "\\<").replace(">", "\\>")


@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_default_page_translates_with_the_trained_model_step_by_step(trained, language):
    """Default: the Translation lab's trained model decodes the Korean sentence (in both languages: Korean ->
    English, the lab's direction) from <sos>, and every sentence is the trained model's: the output matches the
    toy grammar's translation, no 'untrained, arbitrary' line; the picture's title says the decoder looks back."""
    at = open_page("seq2seq", language)
    assert not at.exception
    assert at.text_input(key="seq2seq_source").value == DEFAULT_SOURCE and "seq2seq_model" not in at.query_params
    result = run_trained(default_config(language), trained.config, trained.run.model.state_dict())
    assert result.decoding.words == ("i", "read", "a", "book") == result.reference
    text = all_text(at)
    words = " ".join(result.decoding.output)
    assert translate(language, "seq2seq.output_line", words=esc(words)) in text
    assert translate(language, "seq2seq.output_matches") in text
    assert translate(language, "seq2seq.output_arbitrary") not in text  # the old page printed this whatever ran
    run_ = trained.run
    assert f"{run_.steps_done}" in " ".join(c.value for c in at.caption)
    assert "outputs (1, 3, 64)" in text and "h_n (1, 1, 64)" in text
    picture = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    assert " ".join(picture["title"]["text"]) == translate(language, "seq2seq.picture.title_attention")
    low, high = translate(language, "ui.colour.blue"), translate(language, "ui.colour.red")
    assert picture["description"] == translate(language, "seq2seq.picture.description_attention", low=low, high=high)
    assert translate(language, "seq2seq.picture_cut", rows=12, H=64) in text
    data = _chart_data(at)
    assert all(w in data for w in ("나는", "읽는다", "h0", "<sos>", "book"))
    text = _tab(at, "seq2seq.tab_handoff", language)
    assert vector_text(result.handoff.h0[-1, 0]) in text  # h0 = the trained encoder's final state
    assert translate(language, "seq2seq.handoff_attention", S=3) in text
    _tab(at, "ui.tab_check", language)
    attention = translate(language, "training.attention_luong_general")
    what = translate(language, "seq2seq.check_what_trained", cell="GRU", attention=attention)
    assert what in " ".join(s.value for s in at.success)  # the hand step == the module's decoder.step


def test_under_the_trained_model_the_bottleneck_and_notices_describe_it(trained, lang):
    """The bottleneck tab and the notices under the trained model with attention: attention reduces the
    bottleneck (not 'removes it'), the fading is the trained weights' (not 'these weights are random')."""
    result = run_trained(default_config(lang), trained.config, trained.run.model.state_dict())
    m = bottleneck_summary(result.bottleneck)
    at = open_page("seq2seq", lang)
    at.button(key="seq2seq_quiz__show").click().run()
    text = _tab(at, "seq2seq.tab_bottleneck", lang)
    attention = translate(lang, "training.attention_luong_general")
    said = translate(lang, "seq2seq.bn_attention_model", size=64, n=m.n, N=m.N, H=64, attention=attention)
    assert said in text and translate(lang, "seq2seq.bn_attention", size=64, n=m.n, N=m.N) not in text
    key = "seq2seq.bn_forgetting_trained" if m.fades else "seq2seq.bn_no_forgetting_trained"
    assert translate(lang, key, factor=num(m.per_word), n=m.n, N=m.N, lo=2, hi=7) in text
    assert translate(lang, "seq2seq.bn_forgetting", factor=num(m.per_word), n=m.n, N=m.N) not in text
    text = _tab(at, "ui.tab_notice", lang)
    assert translate(lang, "seq2seq.notice_1_attention") in text and translate(lang, "seq2seq.notice_1") not in text


def test_a_word_the_trained_model_does_not_know_is_named_and_the_untrained_model_takes_it(trained, lang):
    at = open_page("seq2seq", lang)
    at.text_input(key="seq2seq_source").set_value("나는 고양이를 본다").run()
    assert not at.exception
    errors = " ".join(e.value for e in at.error)
    assert translate(lang, "seq2seq.field.source") in errors and "고양이를" in errors
    at.radio(key="seq2seq_model").set_value("untrained").run()
    assert not at.exception and not at.error
    assert translate(lang, "seq2seq.output_arbitrary") in all_text(at)


def test_while_the_trained_model_trains_the_untrained_one_stands_in_and_says_so(lang, monkeypatch):
    """A fresh server: the default model's job is still running. The page shows its progress, says the untrained
    model is shown meanwhile, and every sentence is the untrained model's (no traceback, no trained claim)."""
    import s2s_ui.seq2seq.sections as sections
    import s2s_ui.seq2seq.specs as specs

    running = JobSnapshot(7, RUNNING, 40, 300, 2.0, 0, (), (), None, None)
    monkeypatch.setattr(specs, "trained_job", lambda: running)
    monkeypatch.setattr(sections, "trained_job", lambda: running)
    at = open_page("seq2seq", lang)
    assert not at.exception
    infos = " ".join(i.value for i in at.info)
    assert translate(lang, "seq2seq.pending_running", step=40, total=300) in infos
    text = all_text(at)
    assert translate(lang, "seq2seq.output_arbitrary") in text and translate(lang, "seq2seq.output_matches") not in text
    assert "outputs (1, 3, 6)" in text  # the untrained model's sizes


def test_defaults_of_the_untrained_model_show_its_live_encoder_and_decoder(lang):
    at = open_page("seq2seq", lang, query=UNTRAINED)
    assert not at.exception
    text = all_text(at)
    result = run(untrained_config())
    assert translate(lang, "seq2seq.title") in text
    assert "outputs (1, 3, 6)" in text and "h_n (1, 1, 6)" in text  # the first tab, open by default
    assert translate(lang, "seq2seq.handoff_as_is_lstm") not in text  # the hand-off's tab is closed: not drawn
    text = _tab(at, "seq2seq.tab_handoff", lang)
    assert at.query_params["seq2seq_tabs"] == "handoff"  # the open tab is in the link
    assert vector_text(result.handoff.h0[-1, 0]) in text  # h0 = h_n, printed from the live tensors
    assert vector_text(result.handoff.c0[-1, 0]) in text
    assert translate(lang, "seq2seq.handoff_as_is_lstm") in text
    _tab(at, "ui.tab_check", lang)
    assert len(at.success) >= 1  # step-by-step == one call
    picture = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    assert " ".join(picture["title"]["text"]) == translate(lang, "seq2seq.picture.title")
    low, high = translate(lang, "ui.colour.blue"), translate(lang, "ui.colour.red")
    assert picture["description"] == translate(lang, "seq2seq.picture.description", low=low, high=high)
    params = picture.get("params", []) + [p for layer in picture["layer"] for p in layer.get("params", [])]
    step = next(p for p in params if p["name"] == "step_sel")
    assert step["value"] == [{"step": 1}] and step["bind"]["step"]["max"] == len(result.decoding.steps)
    data = _chart_data(at)
    assert all(word in data for word in ("1 나는", "3 읽는다", "h0", "c0", "<sos>", result.decoding.output[0]))


def test_bidirectional_without_bridge_names_the_bridge_and_keeps_the_page(lang):
    at = open_page("seq2seq", lang, query={"seq2seq_bidir": "true", **UNTRAINED})
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
    config = untrained_config(bidirectional=True, enc_layers=2, dec_layers=4)
    handoff = run(config).handoff
    assert handoff.directions_as_layers
    query = {"seq2seq_bidir": "true", "seq2seq_enc_layers": "2", "seq2seq_dec_layers": "4", "seq2seq_tabs": "handoff"}
    query |= UNTRAINED
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
    m = bottleneck_summary(run(untrained_config()).bottleneck)
    assert m.fades and m.band == "less"
    at = open_page("seq2seq", lang, query=UNTRAINED)
    assert not at.exception
    answer = [sci(m.long), pct(m.ratio)]
    text = _tab(at, "seq2seq.tab_bottleneck", lang)
    assert not any(a in text for a in answer) and translate(lang, "seq2seq.chart.bn_title") not in _chart_data(at)
    assert translate(lang, "seq2seq.bn_after_quiz") in text
    text = _tab(at, "ui.tab_notice", lang)
    notice_4 = translate(
        lang, "seq2seq.notice_4_fades", factor=num(m.per_word), model=translate(lang, "seq2seq.model_adj_untrained")
    )
    assert not any(a in text for a in answer) and notice_4 not in text
    at.button(key="seq2seq_quiz__show").click().run()
    assert notice_4 in all_text(at)  # the notice tab is still open
    text = _tab(at, "seq2seq.tab_bottleneck", lang)
    assert all(a in text for a in answer) and translate(lang, "seq2seq.chart.bn_title") in _chart_data(at)
    assert translate(lang, "seq2seq.bn_forgetting", factor=num(m.per_word), n=m.n, N=m.N) in text
    assert translate(lang, "seq2seq.bn_attention", size=m.handoff_numbers, n=m.n, N=m.N) in text
    assert translate(lang, "seq2seq.bn_intro_lstm", size=12, L=1, K=1, H=6, N=m.N) in text
    assert m.handoff_numbers == 12  # LSTM, 1 layer, 1 direction, H_e = 6: h_n and c_n
    assert [link.proto.page for link in at.get("page_link")] == ["training"]


def test_the_page_opens_with_the_runs_source_and_output_lengths(lang):
    """The lengths sentence follows the run: differ or same (by chance) when decoded, pending when the hand-off
    fails (the untrained model, whose shapes the learner sets)."""
    cases = [
        {**UNTRAINED},
        {**UNTRAINED, "seq2seq_cell": "gru", "seq2seq_steps": "3"},
        {**UNTRAINED, "seq2seq_bidir": "true"},
    ]
    seen = set()
    for query in cases:
        config = untrained_config(
            cell=query.get("seq2seq_cell", "lstm"),
            steps=int(query.get("seq2seq_steps", 5)),
            bidirectional="seq2seq_bidir" in query,
        )
        result = run(config)
        params = dict(S=3, cap=config.steps)
        if result.decoding is not None:
            stop = "stop_eos" if result.decoding.ended else "stop_cap"
            params |= dict(T=len(result.decoding.words), stop=translate(lang, f"seq2seq.{stop}", cap=config.steps))
        at = open_page("seq2seq", lang, query=query)
        assert not at.exception
        assert translate(lang, f"seq2seq.lengths_{result.lengths_case}", **params) in all_text(at)
        seen.add(result.lengths_case)
    assert "pending" in seen and len(seen) >= 2


def test_stepping_the_decoder_shows_that_steps_input(lang):
    config = untrained_config(cell="gru", steps=4)
    dec = run(config).decoding
    query = {**UNTRAINED, "seq2seq_cell": "gru", "seq2seq_steps": "4"}
    at = open_page("seq2seq", lang, query=query)  # links carry the raw option
    assert not at.exception
    assert len(dec.steps) >= 2
    at = open_page("seq2seq", lang, query={**query, "seq2seq_step": "2"})
    assert not at.exception
    text = all_text(at)
    assert vector_text(dec.steps[1].h_new) in text  # every component, in the step's expander
    assert brief(dec.steps[1].h_new) in text  # the short form in the step's text
    assert (
        translate(lang, "seq2seq.step_input", token=dec.steps[1].input_token.replace("<", "\\<").replace(">", "\\>"))
        in text
    )


def test_the_steps_numbers_are_folded_under_the_picture(lang):
    """Issue 25: the step's "h before/after" lines, its input and chosen word and the top-k chart sit in one folded
    expander under the picture; only the output line stands outside it."""
    at = open_page("seq2seq", lang, query=UNTRAINED)
    assert not at.exception
    step = run(untrained_config()).decoding.steps[0]
    folded = next(e for e in at.expander if e.label == translate(lang, "seq2seq.step_more"))
    inside = [m.value for m in folded.markdown]
    lines = translate(
        lang, "seq2seq.step_h", before=brief(step.h_prev), after=brief(step.h_new), change=num(step.change)
    )
    assert lines in inside and vector_text(step.h_new) in " ".join(inside)  # the short and the full vectors
    everywhere = [m.value for m in at.markdown]
    assert everywhere.count(lines) == 1  # nowhere else on the page
    assert len(folded.get("vega_lite_chart")) == 1  # the step's top-k chart, folded with it
    assert any(m.startswith(translate(lang, "seq2seq.output_line", words="")) for m in everywhere if m not in inside)


def test_a_bad_sentence_keeps_the_last_good_picture_faded_with_the_message_once(lang):
    """A good edit, then an empty sentence: the message once, the picture still drawn from the good sentence under
    the kept caption, the question waiting; a good sentence again: the live picture, no caption."""
    at = open_page("seq2seq", lang, query=UNTRAINED)
    at.text_input(key="seq2seq_source").set_value("the cat sat").run()
    assert "cat" in _words(at) and "seq2seq_quiz" in [r.key for r in at.radio]
    at.text_input(key="seq2seq_source").set_value("   ").run()
    assert not at.exception
    assert len(at.error) == 1 and translate(lang, "seq2seq.field.source") in at.error[0].value
    assert "cat" in _words(at)  # the last good picture, kept
    assert translate(lang, "ui.kept_note") in [c.value for c in at.caption]
    assert "seq2seq_quiz" not in [r.key for r in at.radio]  # the question needs the live sentence
    at.text_input(key="seq2seq_source").set_value("a dog").run()
    assert not at.exception and not at.error
    assert "dog" in _words(at) and "cat" not in _words(at)
    assert translate(lang, "ui.kept_note") not in [c.value for c in at.caption]


def _words(at) -> list[str]:
    """The words the picture (the first chart) writes: its tokens' rows."""
    chart = at.get("vega_lite_chart")[0]
    rows = [r for d in chart.proto.datasets for r in pa.ipc.open_stream(d.data.data).read_all().to_pylist()]
    return [r["text"] for r in rows if "role" in r]


def test_editing_the_sentence_redraws(lang):
    at = open_page("seq2seq", lang, query=UNTRAINED)
    at.text_input(key="seq2seq_source").set_value("the cat sat on the mat").run()
    assert not at.exception
    text = all_text(at)
    assert "S = 6" in text and "outputs (1, 6, 6)" in text


def test_empty_sentence_and_two_word_replacement_are_clear_messages(lang):
    at = open_page("seq2seq", lang, query=UNTRAINED)
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
    assert len(errors) == 1 and field in errors[0]  # once, under the picture: the tab says it waits for it
    assert translate(lang, "ui.error_above") in [c.value for c in at.caption]


def test_try_this_loads_the_untrained_model_and_a_failing_hand_off(lang):
    at = open_page("seq2seq", lang, query={"seq2seq_source": "a b"})
    at.button(key="try__seq2seq__0").click().run()
    assert not at.exception
    assert at.radio(key="seq2seq_model").value == "untrained"
    assert at.text_input(key="seq2seq_source").value == DEFAULT_SOURCE  # the case forgets the typed sentence
    assert "S = 3" in all_text(at)
    at.button(key="try__seq2seq__1").click().run()
    assert not at.exception
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
        at = open_page("seq2seq", language, query={"seq2seq_bidir": "true", **UNTRAINED})
        assert not at.exception and run(untrained_config(bidirectional=True)).decoding is None
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
        "seq2seq_model": "untrained",
        "seq2seq_cell": "gru",
        "seq2seq_embed": "5",  # the folded settings from here
        "seq2seq_enc_hidden": "4",
        "seq2seq_dec_hidden": "4",
        "seq2seq_seed": "3",
        "seq2seq_steps": "6",
        "seq2seq_top_k": "2",
        "seq2seq_replacement": "그녀는",
        "seq2seq_step": "2",
        "seq2seq_tabs": "handoff",
    }
    at = open_page("seq2seq", lang, query=query)
    assert not at.exception and not at.error
    assert (
        at.number_input(key="seq2seq_embed").value == 5 and at.text_input(key="seq2seq_replacement").value == "그녀는"
    )
    assert translate(lang, "seq2seq.handoff_title") in all_text(at)  # the link's tab is open
    kept = {k: v for k, v in query.items() if k != "seq2seq_step"}  # the step is clamped to what was decoded
    assert all(at.query_params[k] == v for k, v in kept.items())
    at.button(key="reset__seq2seq").click().run()
    assert not at.exception
    assert set(at.query_params) <= {"lang"}
    assert at.radio(key="seq2seq_model").value == "trained"
    default = default_config(lang)
    assert (
        at.number_input(key="seq2seq_embed").value == default.embed
        and at.segmented_control(key="seq2seq_cell").value == "lstm"
    )
    assert at.text_input(key="seq2seq_replacement").value == default.replacement
    assert translate(lang, "seq2seq.tokens_line", S=3, tokens="나는 · 책을 · 읽는다") in all_text(at)  # first tab
    at.button(key="try__seq2seq__2").click().run()  # directions fed into decoder layers
    assert dict(at.query_params) == {
        "lang": lang,
        "seq2seq_model": "untrained",
        "seq2seq_bidir": "true",
        "seq2seq_dec_layers": "2",
    }
    at.button(key="reset__seq2seq").click().run()
    assert set(at.query_params) <= {"lang"} and not at.toggle(key="seq2seq_bidir").value
    assert not [f.key for f in fields.FIELDS if f.key in at.query_params]


def test_the_korean_sentence_stays_through_a_language_switch():
    """One Korean sentence in both languages (the trained model translates Korean -> English): a switch keeps it
    and leaves no parameter; a typed one stays, in the link."""
    at = open_page("seq2seq", "en", query=UNTRAINED)
    at.segmented_control(key="lang_switch").set_value("ko").run()
    assert not at.exception
    assert at.text_input(key="seq2seq_source").value == DEFAULT_SOURCE
    assert at.text_input(key="seq2seq_replacement").value == "그는"
    assert "seq2seq_source" not in at.query_params and "seq2seq_replacement" not in at.query_params
    at.text_input(key="seq2seq_source").set_value("고양이가 잔다").run()
    at.segmented_control(key="lang_switch").set_value("en").run()
    assert at.text_input(key="seq2seq_source").value == "고양이가 잔다"  # typed: kept, and in the link
    assert at.query_params["seq2seq_source"] == "고양이가 잔다"
