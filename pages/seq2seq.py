"""Page: encoder–decoder — the encoder's final state handed to the decoder, greedy decoding, the bottleneck.

Read the fields (s2s_core/seq2seq/fields.py) -> the checked config and replacement word -> the model on screen
(the Translation lab's trained default, or the untrained one; s2s_ui/seq2seq/specs.py) -> the picture with its
step slider and the question beside the controls, the rest in tabs (s2s_ui/seq2seq/). A bad replacement word
stops only the bottleneck's measurement: the rest runs with the default word.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from s2s_core.errors import InputError
from s2s_core.fields import Field, Parsed
from s2s_core.fmt import num, pct, prob, sci, vec
from s2s_core.seq2seq import Seq2SeqConfig, fields, notes, parse_config, parse_replacement
from s2s_core.seq2seq.fields import BRIDGES, CELLS, DEFAULT_STEPS, MODELS
from s2s_core.seq2seq.frames import bottleneck_summary, brief
from s2s_core.seq2seq.picture import STEP_PARAM
from s2s_ui.charts import draw
from s2s_ui.explainer import before_after, explainer
from s2s_ui.i18n import lang, t
from s2s_ui.kept import kept_picture
from s2s_ui.seq2seq.sections import (
    QUIZ,
    show_bottleneck,
    show_check,
    show_code,
    show_decoding,
    show_encoder,
    show_handoff,
    show_model,
    show_notice,
)
from s2s_ui.seq2seq.specs import TRAINED, compute, picture_cut, picture_spec, topk_spec
from s2s_ui.state import Page, TryCase
from s2s_ui.steps import StepEvent
from s2s_ui.widgets import guarded, md_escape, predict_then_reveal, show_error

PAGE = Page("seq2seq", fields.FIELDS)
LONG_SOURCE = "그녀는 어제 도서관에서 새 책을 안 읽었다"  # seven words of the toy grammar, its longest sentences


def cases() -> list[TryCase]:
    """Prepared states (links): the untrained model, a hand-off that fails, directions fed into decoder layers
    (both on the untrained model, whose shapes are the learner's), a long sentence through the trained model."""
    untrained = {fields.MODEL.key: "untrained"}
    two_layers = {**untrained, fields.DEC_LAYERS.key: "2"}
    return [
        TryCase("seq2seq.try.untrained", "seq2seq.try.untrained_note", untrained),
        TryCase("seq2seq.try.mismatch", "seq2seq.try.mismatch_note", two_layers),
        TryCase(
            "seq2seq.try.directions", "seq2seq.try.directions_note", {fields.BIDIRECTIONAL.key: "true", **two_layers}
        ),
        TryCase("seq2seq.try.long", "seq2seq.try.long_note", {fields.SOURCE.key: LONG_SOURCE}),
    ]


def field(spec: Field, widget: Any, **kwargs: Any) -> Any:
    """One input under its on-screen label (seq2seq.<name>_label); a message names it by its field label."""
    return PAGE.input(spec, widget, label=t(f"seq2seq.{spec.label.rsplit('.', 1)[1]}_label"), **kwargs)


def read_inputs() -> tuple[Parsed[Seq2SeqConfig], Parsed[str]]:
    """The controls column -> (the config, the replacement word); each input is read and checked once.

    With a bad word the config is built on the default word, so only the bottleneck waits for it. The untrained
    model's settings are disabled while the trained model is chosen (its sizes are the Translation lab's).
    """
    model_labels = {m: t(f"seq2seq.model_{m}") for m in MODELS}
    model = field(fields.MODEL, st.radio, labels=model_labels, help=t("seq2seq.model_help"))  # both fit a phone
    help_key = "seq2seq.source_help_trained" if model == "trained" else "seq2seq.source_help"
    source = field(fields.SOURCE, st.text_input, help=t(help_key))
    settings: dict[str, Any] = {"model": model}
    fixed = model == "trained"
    with st.expander(t("seq2seq.more_settings"), icon=":material/tune:"):
        st.markdown(f"**{t('seq2seq.decoding_box')}**")
        left, right = st.columns(2)
        settings["steps"] = field(fields.STEPS, left.number_input, step=1, default=DEFAULT_STEPS[model])
        settings["top_k"] = field(fields.TOP_K, right.number_input, step=1)
        raw_word = field(fields.REPLACEMENT, st.text_input, help=t("seq2seq.replacement_help"))
        st.markdown(f"**{t('seq2seq.untrained_box')}**")
        if fixed:
            st.caption(t("seq2seq.untrained_only", cell=TRAINED.cell.upper(), E=TRAINED.embed, H=TRAINED.hidden))
        cell_labels = {c: t(f"seq2seq.cell_{c}") for c in CELLS}
        settings["cell"] = field(fields.CELL, st.segmented_control, labels=cell_labels, required=True, disabled=fixed)
        settings["seed"] = field(fields.SEED, st.number_input, step=1, disabled=fixed)
        st.markdown(f"**{t('seq2seq.encoder_box')}**")
        left, right = st.columns(2)
        settings["embed"] = field(fields.EMBED, left.number_input, step=1, disabled=fixed)
        settings["enc_hidden"] = field(fields.ENC_HIDDEN, right.number_input, step=1, disabled=fixed)
        settings["enc_layers"] = field(fields.ENC_LAYERS, left.number_input, step=1, disabled=fixed)
        settings["bidirectional"] = field(fields.BIDIRECTIONAL, st.toggle, disabled=fixed)
        st.markdown(f"**{t('seq2seq.decoder_box')}**")
        left, right = st.columns(2)
        settings["dec_hidden"] = field(fields.DEC_HIDDEN, left.number_input, step=1, disabled=fixed)
        settings["dec_layers"] = field(fields.DEC_LAYERS, right.number_input, step=1, disabled=fixed)
        bridge_labels = {b: t(f"seq2seq.bridge_{b}") for b in BRIDGES}
        settings["bridge"] = field(
            fields.BRIDGE,
            st.segmented_control,
            labels=bridge_labels,
            required=True,
            help=t("seq2seq.bridge_help"),
            disabled=fixed,
        )
    PAGE.buttons(cases())
    word = Parsed.of(lambda: parse_replacement(raw_word, model))
    usable = word.value or fields.REPLACEMENT.default
    return Parsed.of(lambda: parse_config(source, replacement=usable, **settings)), word


def show_picture(config: Seq2SeqConfig) -> None:
    """The main picture with its step control inside, first in its column (on a phone too); under it the output,
    the chosen step's numbers folded, and which model computed it."""
    before = before_after("seq2seq_picture", config)
    result = compute(config)
    if result.decoding is None:  # no hand-off, nothing decoded: no step to walk, and the reason under it
        draw(st, picture_spec(config, before, lang(), 1))
        key, name, params = result.error
        show_error(InputError(key, name, **dict(params)))
    else:
        PAGE.step(
            fields.STEP,
            lambda first: picture_spec(config, before, lang(), first),
            len(result.decoding.steps),
            param=STEP_PARAM,
            follow=lambda event: follow_step(config, event),
        )
    show_model(config)  # which model computed the picture (or that the trained one is still training)
    cut = picture_cut(config)
    if cut is not None:
        st.caption(t("seq2seq.picture_cut", rows=cut[0], H=cut[1]))


def follow_step(config: Seq2SeqConfig, event: StepEvent) -> None:
    """Under the picture: the output in one line, then the chosen decoder step's numbers folded (its input, how its
    state moved, the word it chose and its rivals), so the first screen is the picture, not walls of vectors. The
    expander's label does not name the step: it stays open while the learner steps."""
    result = compute(config)
    dec = result.decoding
    index = event.step - 1
    output = " ".join(md_escape(w) for w in dec.output)
    reference = " ".join(md_escape(w) for w in result.reference or ())
    verdict = t(f"seq2seq.output_{result.output_case}", reference=reference)
    st.markdown(t("seq2seq.output_line", words=output) + " · " + verdict)
    with st.expander(t("seq2seq.step_more"), icon=":material/calculate:"):
        show_step_numbers(config, index)


def show_step_numbers(config: Seq2SeqConfig, index: int) -> None:
    """Decoder step index + 1 in numbers: short vectors first (a phone's line), then every component."""
    result = compute(config)
    step = result.decoding.steps[index]
    left, right = st.columns([1.3, 1])
    with left:
        st.markdown(t("seq2seq.step_heading", step=index + 1))
        st.markdown(t("seq2seq.step_input", token=md_escape(step.input_token)))
        st.markdown(t("seq2seq.step_h", before=brief(step.h_prev), after=brief(step.h_new), change=num(step.change)))
        if step.c_new is not None:
            st.markdown(t("seq2seq.step_c", cell=brief(step.c_new)))
        if step.looked is not None:
            word = md_escape(result.encoder.tokens[step.looked])
            st.markdown(t("seq2seq.step_attention", w=prob(float(step.weights.max())), word=word, s=step.looked + 1))
        st.markdown(t("seq2seq.step_chosen", token=md_escape(step.chosen), p=prob(step.top[0][1])))
        if step.chosen == "<eos>":
            st.info(t("seq2seq.step_eos"))
    draw(right, topk_spec(config, index, lang()))
    st.caption(t("seq2seq.step_full", H=len(step.h_new)))
    st.markdown(t("seq2seq.step_full_h", before=vec(step.h_prev), after=vec(step.h_new)))
    if step.c_new is not None:
        st.markdown(t("seq2seq.step_c", cell=vec(step.c_new)))


def show_quiz(config: Seq2SeqConfig, word: Parsed[str]) -> None:
    """Does one changed first word still move the final state after a long sentence? (the core says which band)"""
    word.need()  # the question is about the replacement word's measurement
    result = compute(config)
    m = bottleneck_summary(result.bottleneck)
    if m.band is None:
        return
    options = {k: t(f"seq2seq.quiz_{k}") for k in ("less", "same", "more")}
    numbers = dict(short=sci(m.short), long=sci(m.long), n=m.n, N=m.N, ratio=pct(m.ratio), factor=num(m.per_word))
    question = t("seq2seq.quiz_question", N=m.N, n=m.n)
    explain = t(notes.quiz_explain(result), **numbers)
    predict_then_reveal(QUIZ, question, list(options.values()), options[m.band], explain)


controls, picture = explainer("seq2seq")
with controls:
    config, word = read_inputs()
with picture:
    # A bad sentence keeps the last good picture, faded, under its message (s2s_ui/kept.py); the question waits.
    live = kept_picture(PAGE, config.need, show_picture)
    if live is not None:
        guarded(lambda: show_quiz(live, word))
PAGE.tabs(
    [
        ("seq2seq.tab_encoder", lambda: show_encoder(config.need())),
        ("seq2seq.tab_handoff", lambda: show_handoff(config.need())),
        ("ui.tab_steps", lambda: show_decoding(config.need())),
        ("seq2seq.tab_bottleneck", lambda: show_bottleneck(config.need(), word)),
        ("ui.tab_check", lambda: show_check(config.need())),
        ("ui.tab_notice", lambda: show_notice(config.need())),
        ("ui.tab_code", lambda: show_code(config.need())),
    ]
)
