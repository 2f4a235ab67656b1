"""Page: encoder–decoder — the encoder's final state handed to the decoder, greedy decoding, the bottleneck."""

from __future__ import annotations

from typing import Any

import streamlit as st

from s2s_core import caps
from s2s_core.errors import InputError
from s2s_core.fmt import num, pct, prob, sci, vec
from s2s_core.seq2seq import Seq2SeqConfig, Seq2SeqResult, default_config, parse_config, run
from s2s_core.seq2seq.charts import page_charts, topk_chart
from s2s_core.seq2seq.code import script
from s2s_core.seq2seq.compute import (
    BRIDGES,
    CELLS,
    DEFAULT_REPLACEMENT,
    DEFAULT_SOURCE,
    MAX_STEPS,
    MAX_TOP_K,
    MAX_WORD_CHARS,
)
from s2s_core.seq2seq.frames import (
    bottleneck_summary,
    brief,
    state_labels,
    steps_frame,
    topk_frame,
)
from s2s_core.seq2seq.picture import model_picture, picture_frames
from s2s_ui.cache import cached_result
from s2s_ui.catalog import translate
from s2s_ui.charts import cached_spec, draw
from s2s_ui.explainer import TryCase, before_after, details, explainer, try_this
from s2s_ui.i18n import lang, t
from s2s_ui.link import linked
from s2s_ui.steps import StepEvent, step_param, step_view
from s2s_ui.widgets import (
    check_badge,
    code_expander,
    md_escape,
    notice_list,
    predict_then_reveal,
    reset_button,
    revealed,
    show_error,
)

INPUT_KEYS = [
    "seq2seq_source",
    "seq2seq_cell",
    "seq2seq_seed",
    "seq2seq_embed",
    "seq2seq_enc_hidden",
    "seq2seq_enc_layers",
    "seq2seq_bidir",
    "seq2seq_dec_hidden",
    "seq2seq_dec_layers",
    "seq2seq_bridge",
    "seq2seq_steps",
    "seq2seq_top_k",
    "seq2seq_replacement",
    "seq2seq_step",
]
QUIZ = "seq2seq_quiz"
LONG_SOURCE = {
    "ko": "나는 어제 도서관에서 친구와 함께 아주 두꺼운 책을 오래 읽었다",
    "en": "I read a long book with my friend in the old library all day",
}


def cases() -> list[TryCase]:
    """Prepared states (links): the syllabus's Korean sentence, a hand-off that fails, directions fed into
    decoder layers, a long sentence through the same hand-off."""
    return [
        TryCase(
            "seq2seq.try.korean",
            "seq2seq.try.korean_note",
            {"seq2seq_source": DEFAULT_SOURCE["ko"], "seq2seq_replacement": DEFAULT_REPLACEMENT["ko"]},
        ),
        TryCase("seq2seq.try.mismatch", "seq2seq.try.mismatch_note", {"seq2seq_dec_layers": "2"}),
        TryCase(
            "seq2seq.try.directions",
            "seq2seq.try.directions_note",
            {"seq2seq_bidir": "true", "seq2seq_dec_layers": "2"},
        ),
        TryCase("seq2seq.try.long", "seq2seq.try.long_note", {"seq2seq_source": LONG_SOURCE[lang()]}),
    ]


@cached_result(max_entries=128)
def compute(config: Seq2SeqConfig) -> Seq2SeqResult:
    return run(config)


# Building Altair specs is the slow part of a rerun, so the finished Vega-Lite dicts are cached (validated
# against the schema in tests/core/test_seq2seq.py instead of on every rerun).
@cached_spec(max_entries=128)
def chart_specs(config: Seq2SeqConfig, labels: dict[str, str]) -> Any:
    return dict(page_charts(compute(config), config.directions, config.enc_layers, labels))


PICTURE_KEYS = ("title", "description", "encoder", "decoder", "handoff", "bridge", "before", "component")
PICTURE_KEYS += ("state", "value", "word")
STEP_PARAM = "step_sel"


@cached_spec(max_entries=128)
def picture_spec(config: Seq2SeqConfig, before: Seq2SeqConfig | None, language: str, first: int) -> Any:
    """The main picture (both chains and their waist), its step control starting at `first`."""
    result = compute(config)
    frames = picture_frames(result, config.directions, compute(before) if before is not None else None)
    labels = {k: translate(language, f"seq2seq.picture.{k}") for k in PICTURE_KEYS}
    dec = result.decoding
    param = None if dec is None else step_param(STEP_PARAM, len(dec.steps), first, translate(language, "steps.label"))
    return model_picture(frames, labels, param)


@cached_spec(max_entries=256)
def topk_spec(config: Seq2SeqConfig, step: int, labels: dict[str, str]) -> Any:
    return topk_chart(topk_frame(compute(config).decoding.steps[step]), labels)


CHART_KEYS = ("length", "delta", "series", "direction", "first", "last", "norm", "yours")
TITLE_KEYS = (
    "outputs_title",
    "final_title",
    "cell_title",
    "states_title",
    "axis_component",
    "axis_position",
    "axis_layer",
    "axis_step",
)


def chart_labels() -> dict[str, str]:
    """Translated titles and axis names (part of the cache key, so each language is cached apart)."""
    labels = {k: t(f"seq2seq.chart.{k}") for k in CHART_KEYS} | {k: t(f"seq2seq.{k}") for k in TITLE_KEYS}
    return labels | {"title": t("seq2seq.chart.bn_title")}


def size_input(label_key: str, key: str, value: int, hi: int, where: Any = st) -> int:
    return linked(where.number_input, t(label_key), key=key, default=value, min_value=1, max_value=hi, step=1)


def follow_language(key: str, defaults: dict[str, str]) -> None:
    """A value that is another language's default follows the language switch (it was never typed)."""
    now = st.session_state.get(key)
    if isinstance(now, str) and now != defaults[lang()] and now in defaults.values():
        del st.session_state[key]


def read_inputs() -> tuple[Seq2SeqConfig | None, InputError | None]:
    """Widgets -> (validated config, the replacement word's error).

    A bad source sentence leaves no config (everything needs it). A bad replacement word only stops the
    bottleneck measurement: the rest runs with the language's default word, and its error is returned.
    """
    default = default_config(lang())
    follow_language("seq2seq_source", DEFAULT_SOURCE)
    follow_language("seq2seq_replacement", DEFAULT_REPLACEMENT)
    source = linked(
        st.text_input,
        t("seq2seq.source_label"),
        key="seq2seq_source",
        default=" ".join(default.source),
        help=t("seq2seq.source_help"),
        max_chars=caps.MAX_TEXT_CHARS,
    )
    cell = linked(
        st.segmented_control,
        t("seq2seq.cell_label"),
        CELLS,
        key="seq2seq_cell",
        default=default.cell,
        labels={c: t(f"seq2seq.cell_{c}") for c in CELLS},
        required=True,
    )
    with st.expander(t("seq2seq.more_settings"), icon=":material/tune:"):
        st.markdown(f"**{t('seq2seq.encoder_box')}**")
        left, right = st.columns(2)
        embed = size_input("seq2seq.embed_label", "seq2seq_embed", default.embed, caps.MAX_EMBED, left)
        enc_hidden = size_input(
            "seq2seq.enc_hidden_label", "seq2seq_enc_hidden", default.enc_hidden, caps.MAX_HIDDEN, right
        )
        enc_layers = size_input(
            "seq2seq.enc_layers_label", "seq2seq_enc_layers", default.enc_layers, caps.MAX_LAYERS, left
        )
        bidirectional = linked(st.toggle, t("seq2seq.bidirectional_label"), key="seq2seq_bidir", default=False)
        st.markdown(f"**{t('seq2seq.decoder_box')}**")
        left, right = st.columns(2)
        dec_hidden = size_input(
            "seq2seq.dec_hidden_label", "seq2seq_dec_hidden", default.dec_hidden, caps.MAX_HIDDEN, left
        )
        dec_layers = size_input(
            "seq2seq.dec_layers_label", "seq2seq_dec_layers", default.dec_layers, caps.MAX_LAYERS, right
        )
        bridge = linked(
            st.segmented_control,
            t("seq2seq.bridge_label"),
            BRIDGES,
            key="seq2seq_bridge",
            default=default.bridge,
            labels={b: t(f"seq2seq.bridge_{b}") for b in BRIDGES},
            required=True,
            help=t("seq2seq.bridge_help"),
        )
        st.markdown(f"**{t('seq2seq.decoding_box')}**")
        left, right = st.columns(2)
        steps = size_input("seq2seq.steps_label", "seq2seq_steps", default.steps, MAX_STEPS, left)
        top_k = size_input("seq2seq.top_k_label", "seq2seq_top_k", default.top_k, MAX_TOP_K, right)
        seed = linked(
            st.number_input,
            t("seq2seq.seed_label"),
            key="seq2seq_seed",
            default=default.seed,
            min_value=0,
            max_value=caps.MAX_SEED,
            step=1,
        )
        replacement = linked(
            st.text_input,
            t("seq2seq.replacement_label"),
            key="seq2seq_replacement",
            default=default.replacement,
            help=t("seq2seq.replacement_help"),
            max_chars=MAX_WORD_CHARS,
        )
    settings = dict(
        cell=cell,
        embed=embed,
        enc_hidden=enc_hidden,
        enc_layers=enc_layers,
        bidirectional=bidirectional,
        dec_hidden=dec_hidden,
        dec_layers=dec_layers,
        bridge=bridge,
        steps=steps,
        top_k=top_k,
        seed=seed,
    )
    try:
        return parse_config(source, replacement=replacement, **settings), None
    except InputError as err:
        if err.field != "seq2seq.field.replacement":
            show_error(err)
            return None, None
        word_error = err
    show_error(word_error)
    try:
        return parse_config(source, replacement=default.replacement, **settings), word_error
    except InputError as err:
        show_error(err)
        return None, word_error


def show_picture(config: Seq2SeqConfig, result: Seq2SeqResult) -> None:
    """The main picture with its step control under it; the chosen step's numbers follow it."""
    before = before_after("seq2seq_picture", config)
    dec = result.decoding
    if dec is None:
        draw(st, picture_spec(config, before, lang(), 1))
        key, field, params = result.error
        show_error(InputError(key, field, **dict(params)))
        return
    step_view(
        "seq2seq_step",
        lambda first: picture_spec(config, before, lang(), first),
        len(dec.steps),
        param=STEP_PARAM,
        follow=lambda event: follow_step(config, result, event),
    )


def follow_step(config: Seq2SeqConfig, result: Seq2SeqResult, event: StepEvent) -> None:
    """Under the picture, for the chosen decoder step: its input, how its state moved, the word it chose."""
    dec = result.decoding
    index = event.step - 1
    step = dec.steps[index]
    words = " ".join(md_escape(w) for w in dec.output)
    st.markdown(t("seq2seq.output_line", words=words) + " · " + t("seq2seq.untrained_short"))
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
    labels = {k: t(f"seq2seq.chart.{k}") for k in ("p", "token")}
    labels["title"] = t("seq2seq.chart.topk_title", k=len(step.top), step=index + 1)
    draw(right, topk_spec(config, index, labels))


def show_encoder(config: Seq2SeqConfig, result: Seq2SeqResult) -> None:
    enc = result.encoder
    K = config.directions
    st.subheader(t("seq2seq.enc_title"))
    st.markdown(t("seq2seq.tokens_line", S=len(enc.tokens), tokens=" · ".join(md_escape(w) for w in enc.tokens)))
    st.markdown(t("seq2seq.enc_shapes", outputs=tuple(enc.outputs.shape), h_n=tuple(enc.h_n.shape)))
    if enc.c_n is not None:
        st.markdown(t("seq2seq.enc_shapes_cell", c_n=tuple(enc.c_n.shape)))
    specs = chart_specs(config, chart_labels())
    left, right = st.columns(2)
    draw(left, specs["outputs"])
    draw(right, specs["h_n"])
    if "c_n" in specs:
        draw(right, specs["c_n"])
    if K == 2:
        st.info(t("seq2seq.bidir_note"), icon=":material/swap_horiz:")


def show_handoff(config: Seq2SeqConfig, result: Seq2SeqResult) -> None:
    st.subheader(t("seq2seq.handoff_title"))
    cell = config.cell.upper()
    dec_shape = (config.dec_layers, 1, config.dec_hidden)
    st.markdown(t("seq2seq.handoff_shapes", enc=tuple(result.encoder.h_n.shape), cell=cell, dec=dec_shape))
    if result.error is not None:  # the message itself is under the picture
        st.caption(t("seq2seq.handoff_rest"))
        return
    handoff = result.handoff
    if not handoff.bridged:
        st.markdown(t(f"seq2seq.handoff_as_is_{config.cell}"))
        if handoff.directions_as_layers:
            rows = state_labels(config.enc_layers, config.directions)
            mapping = ", ".join(t("seq2seq.handoff_dirs_row", i=i + 1, row=row) for i, row in enumerate(rows))
            st.warning(t("seq2seq.handoff_dirs", rows=len(rows), mapping=mapping), icon=":material/warning:")
    else:
        rows = config.enc_layers * config.directions
        st.markdown(
            t(
                "seq2seq.handoff_bridge",
                rows=rows,
                flat=rows * config.enc_hidden,
                out=config.dec_layers * config.dec_hidden,
                dec=dec_shape,
            )
        )
        if handoff.c0 is not None:
            st.markdown(t("seq2seq.handoff_bridge_c"))
    st.markdown(t("seq2seq.h0_line", vector=vec(handoff.h0[-1, 0])))
    if handoff.c0 is not None:
        st.markdown(t("seq2seq.c0_line", vector=vec(handoff.c0[-1, 0])))


def show_decoding(config: Seq2SeqConfig, result: Seq2SeqResult) -> None:
    """Every decoding step at once (the picture's step control shows one at a time)."""
    st.subheader(t("seq2seq.dec_title"))
    dec = result.decoding
    if dec is None:  # section 2 has already said why, and that the rest still runs
        st.caption(t("seq2seq.dec_skipped"))
        return
    st.caption(t("seq2seq.untrained"))
    left, right = st.columns(2)
    with left:
        st.markdown(f"**{t('seq2seq.steps_table')}**")
        table = steps_frame(dec)
        st.dataframe(
            table.rename(columns={c: t(f"seq2seq.col.{c}") for c in table.columns}), hide_index=True, width="stretch"
        )
    draw(right, chart_specs(config, chart_labels())["states"])


def show_check(config: Seq2SeqConfig, result: Seq2SeqResult) -> None:
    if result.decoding is None:
        st.caption(t("seq2seq.dec_skipped"))
        return
    check_badge(t("seq2seq.check_what", cell=config.cell.upper()), result.decoding.one_call_diff, tol=1e-9)


def show_bottleneck(config: Seq2SeqConfig, result: Seq2SeqResult, word_error: InputError | None) -> None:
    """The measurement behind the question: drawn only once the question is answered (or shown)."""
    if word_error is not None:
        raise word_error  # only this tab needs the replacement word
    b = result.bottleneck
    m = bottleneck_summary(b)
    size = dict(size=m.handoff_numbers, L=config.enc_layers, K=config.directions, H=config.enc_hidden)
    st.markdown(t(f"seq2seq.bn_intro_{config.cell}", N=m.N, **size))
    if m.ratio is not None and not revealed(QUIZ):
        st.info(t("seq2seq.bn_after_quiz"), icon=":material/quiz:")
    else:
        draw(st, chart_specs(config, chart_labels())["bottleneck"])
        show_measured(m, b)
    st.info(t("seq2seq.bn_attention", size=m.handoff_numbers, n=m.n, N=m.N), icon=":material/lightbulb:")
    st.page_link("pages/training.py", label=t("seq2seq.bn_training_link"), icon=":material/model_training:")


def show_measured(m, b) -> None:
    """The measured changes in words (they state the question's answer)."""
    if m.ratio is None:
        st.info(t("seq2seq.bn_same"))
        return
    st.markdown(
        t(
            "seq2seq.bn_first",
            old=md_escape(b.first_word),
            new=md_escape(b.replacement),
            short=sci(m.short),
            n=m.n,
            long=sci(m.long),
            N=m.N,
            ratio=pct(m.ratio),
        )
    )
    st.markdown(t("seq2seq.bn_last", value=sci(m.last_long), N=m.N))
    if m.backward_long is not None:
        st.markdown(t("seq2seq.bn_backward", value=sci(m.backward_long), N=m.N))
    key = "seq2seq.bn_forgetting" if m.fades else "seq2seq.bn_no_forgetting"
    st.markdown(t(key, factor=num(m.per_word), n=m.n, N=m.N))


def show_quiz(result: Seq2SeqResult) -> None:
    m = bottleneck_summary(result.bottleneck)
    if m.band is None:
        return
    options = {k: t(f"seq2seq.quiz_{k}") for k in ("less", "same", "more")}
    predict_then_reveal(
        QUIZ,
        t("seq2seq.quiz_question", N=m.N, n=m.n),
        list(options.values()),
        options[m.band],
        t(
            "seq2seq.quiz_explain",
            short=sci(m.short),
            long=sci(m.long),
            n=m.n,
            N=m.N,
            ratio=pct(m.ratio),
            factor=num(m.per_word),
        ),
    )


def show_lengths(config: Seq2SeqConfig, result: Seq2SeqResult) -> None:
    """Seq2seq's point, with this run's lengths: the output's length is free of the source's."""
    dec = result.decoding
    lengths = dict(S=len(result.encoder.tokens), cap=config.steps)
    if dec is not None:
        stop = t("seq2seq.stop_eos") if dec.ended else t("seq2seq.stop_cap", cap=config.steps)
        lengths |= dict(T=len(dec.words), stop=stop)
    st.markdown(t(f"seq2seq.lengths_{result.lengths_case}", **lengths))


def show_notice() -> None:
    # The fourth point describes the bottleneck chart's lines: the question's answer.
    shown = range(1, 5) if revealed(QUIZ) else range(1, 4)
    notice_list([f"seq2seq.notice_{i}" for i in shown])


controls, picture = explainer("seq2seq")
with controls:
    config, word_error = read_inputs()
    try_this(cases(), INPUT_KEYS)
    reset_button(INPUT_KEYS)
if config is not None:
    result = compute(config)
    with picture:
        show_picture(config, result)
        if word_error is None:  # the question is about the replacement word's measurement
            show_quiz(result)
    details(
        [
            ("seq2seq.tab_encoder", lambda: (show_lengths(config, result), show_encoder(config, result))),
            ("seq2seq.tab_handoff", lambda: show_handoff(config, result)),
            ("ui.tab_steps", lambda: show_decoding(config, result)),
            ("seq2seq.tab_bottleneck", lambda: show_bottleneck(config, result, word_error)),
            ("ui.tab_check", lambda: show_check(config, result)),
            ("ui.tab_notice", show_notice),
            ("ui.tab_code", lambda: code_expander(script(config), file_name="encoder_decoder.py")),
        ],
        key="seq2seq_tabs",
    )
