"""Page: encoder–decoder — the encoder's final state handed to the decoder, greedy decoding, the bottleneck.

Read the fields (s2s_core/seq2seq/fields.py) -> the checked config and replacement word -> the picture with its
step slider and the question beside the controls, the rest in tabs (s2s_ui/seq2seq/). A bad replacement word
stops only the bottleneck's measurement: the rest runs with the language's default word.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from s2s_core.errors import InputError
from s2s_core.fields import Field, Parsed
from s2s_core.fmt import num, pct, prob, sci, vec
from s2s_core.seq2seq import Seq2SeqConfig, fields, parse_config, parse_replacement
from s2s_core.seq2seq.code import script
from s2s_core.seq2seq.fields import BRIDGES, CELLS, DEFAULT_REPLACEMENT, DEFAULT_SOURCE
from s2s_core.seq2seq.frames import bottleneck_summary, brief
from s2s_core.seq2seq.picture import STEP_PARAM
from s2s_ui.charts import draw
from s2s_ui.explainer import before_after, explainer
from s2s_ui.i18n import lang, t
from s2s_ui.seq2seq.sections import (
    QUIZ,
    show_bottleneck,
    show_check,
    show_decoding,
    show_encoder,
    show_handoff,
    show_notice,
)
from s2s_ui.seq2seq.specs import compute, picture_spec, topk_spec
from s2s_ui.state import Page, TryCase
from s2s_ui.steps import StepEvent
from s2s_ui.widgets import code_expander, guarded, md_escape, predict_then_reveal, show_error

PAGE = Page("seq2seq", fields.FIELDS)
LONG_SOURCE = {
    "ko": "나는 어제 도서관에서 친구와 함께 아주 두꺼운 책을 오래 읽었다",
    "en": "I read a long book with my friend in the old library all day",
}


def cases() -> list[TryCase]:
    """Prepared states (links): the syllabus's Korean sentence, a hand-off that fails, directions fed into
    decoder layers, a long sentence through the same hand-off."""
    korean = {fields.SOURCE.key: DEFAULT_SOURCE["ko"], fields.REPLACEMENT.key: DEFAULT_REPLACEMENT["ko"]}
    two_layers = {fields.DEC_LAYERS.key: "2"}
    return [
        TryCase("seq2seq.try.korean", "seq2seq.try.korean_note", korean),
        TryCase("seq2seq.try.mismatch", "seq2seq.try.mismatch_note", two_layers),
        TryCase(
            "seq2seq.try.directions", "seq2seq.try.directions_note", {fields.BIDIRECTIONAL.key: "true", **two_layers}
        ),
        TryCase("seq2seq.try.long", "seq2seq.try.long_note", {fields.SOURCE.key: LONG_SOURCE[lang()]}),
    ]


def field(spec: Field, widget: Any, **kwargs: Any) -> Any:
    """One input under its on-screen label (seq2seq.<name>_label); a message names it by its field label."""
    return PAGE.input(spec, widget, label=t(f"seq2seq.{spec.label.rsplit('.', 1)[1]}_label"), **kwargs)


def read_inputs() -> tuple[Parsed[Seq2SeqConfig], Parsed[str]]:
    """The controls column -> (the config, the replacement word); each input is read and checked once.

    With a bad word the config is built on the language's default word, so only the bottleneck waits for it.
    """
    source = field(fields.SOURCE, st.text_input, help=t("seq2seq.source_help"))
    cell_labels = {c: t(f"seq2seq.cell_{c}") for c in CELLS}
    settings = {"cell": field(fields.CELL, st.segmented_control, labels=cell_labels, required=True)}
    with st.expander(t("seq2seq.more_settings"), icon=":material/tune:"):
        st.markdown(f"**{t('seq2seq.encoder_box')}**")
        left, right = st.columns(2)
        settings["embed"] = field(fields.EMBED, left.number_input, step=1)
        settings["enc_hidden"] = field(fields.ENC_HIDDEN, right.number_input, step=1)
        settings["enc_layers"] = field(fields.ENC_LAYERS, left.number_input, step=1)
        settings["bidirectional"] = field(fields.BIDIRECTIONAL, st.toggle)
        st.markdown(f"**{t('seq2seq.decoder_box')}**")
        left, right = st.columns(2)
        settings["dec_hidden"] = field(fields.DEC_HIDDEN, left.number_input, step=1)
        settings["dec_layers"] = field(fields.DEC_LAYERS, right.number_input, step=1)
        bridge_labels = {b: t(f"seq2seq.bridge_{b}") for b in BRIDGES}
        settings["bridge"] = field(
            fields.BRIDGE, st.segmented_control, labels=bridge_labels, required=True, help=t("seq2seq.bridge_help")
        )
        st.markdown(f"**{t('seq2seq.decoding_box')}**")
        left, right = st.columns(2)
        settings["steps"] = field(fields.STEPS, left.number_input, step=1)
        settings["top_k"] = field(fields.TOP_K, right.number_input, step=1)
        settings["seed"] = field(fields.SEED, st.number_input, step=1)
        raw_word = field(fields.REPLACEMENT, st.text_input, help=t("seq2seq.replacement_help"))
    PAGE.buttons(cases())
    word = Parsed.of(lambda: parse_replacement(raw_word))
    usable = word.value or fields.REPLACEMENT.default_for(lang())
    return Parsed.of(lambda: parse_config(source, replacement=usable, **settings)), word


def show_picture(config: Seq2SeqConfig) -> None:
    """The main picture with its step control inside; the chosen step's numbers follow it."""
    before = before_after("seq2seq_picture", config)
    result = compute(config)
    if result.decoding is None:  # no hand-off, nothing decoded: no step to walk, and the reason under it
        draw(st, picture_spec(config, before, lang(), 1))
        key, name, params = result.error
        show_error(InputError(key, name, **dict(params)))
        return
    PAGE.step(
        fields.STEP,
        lambda first: picture_spec(config, before, lang(), first),
        len(result.decoding.steps),
        param=STEP_PARAM,
        follow=lambda event: follow_step(config, event),
    )


def follow_step(config: Seq2SeqConfig, event: StepEvent) -> None:
    """Under the picture, for the chosen decoder step: its input, how its state moved, the word it chose."""
    dec = compute(config).decoding
    index = event.step - 1
    step = dec.steps[index]
    output = " ".join(md_escape(w) for w in dec.output)
    st.markdown(t("seq2seq.output_line", words=output) + " · " + t("seq2seq.untrained_short"))
    left, right = st.columns([1.3, 1])
    with left:
        st.markdown(t("seq2seq.step_heading", step=index + 1))
        st.markdown(t("seq2seq.step_input", token=md_escape(step.input_token)))
        # Short vectors here (a phone's line); every component with num()'s 4 decimals one click away.
        st.markdown(t("seq2seq.step_h", before=brief(step.h_prev), after=brief(step.h_new), change=num(step.change)))
        if step.c_new is not None:
            st.markdown(t("seq2seq.step_c", cell=brief(step.c_new)))
        with st.expander(t("seq2seq.step_full", H=len(step.h_new))):
            st.markdown(t("seq2seq.step_full_h", before=vec(step.h_prev), after=vec(step.h_new)))
            if step.c_new is not None:
                st.markdown(t("seq2seq.step_c", cell=vec(step.c_new)))
        st.markdown(t("seq2seq.step_chosen", token=md_escape(step.chosen), p=prob(step.top[0][1])))
        if step.chosen == "<eos>":
            st.info(t("seq2seq.step_eos"))
    draw(right, topk_spec(config, index, lang()))


def show_quiz(config: Seq2SeqConfig, word: Parsed[str]) -> None:
    """Does one changed first word still move the final state after a long sentence? (the core says which band)"""
    word.need()  # the question is about the replacement word's measurement
    m = bottleneck_summary(compute(config).bottleneck)
    if m.band is None:
        return
    options = {k: t(f"seq2seq.quiz_{k}") for k in ("less", "same", "more")}
    numbers = dict(short=sci(m.short), long=sci(m.long), n=m.n, N=m.N, ratio=pct(m.ratio), factor=num(m.per_word))
    question = t("seq2seq.quiz_question", N=m.N, n=m.n)
    predict_then_reveal(QUIZ, question, list(options.values()), options[m.band], t("seq2seq.quiz_explain", **numbers))


controls, picture = explainer("seq2seq")
with controls:
    config, word = read_inputs()
with picture:
    guarded(lambda: show_picture(config.need()))
    if config.ok:  # a bad source is named once, by the picture's guard
        guarded(lambda: show_quiz(config.need(), word))
PAGE.tabs(
    [
        ("seq2seq.tab_encoder", lambda: show_encoder(config.need())),
        ("seq2seq.tab_handoff", lambda: show_handoff(config.need())),
        ("ui.tab_steps", lambda: show_decoding(config.need())),
        ("seq2seq.tab_bottleneck", lambda: show_bottleneck(config.need(), word)),
        ("ui.tab_check", lambda: show_check(config.need())),
        ("ui.tab_notice", show_notice),
        ("ui.tab_code", lambda: code_expander(script(config.need()), file_name="encoder_decoder.py")),
    ]
)
