"""Page: encoder–decoder — the encoder's final state handed to the decoder, greedy decoding, the bottleneck."""

from __future__ import annotations

from typing import Any

import streamlit as st

from s2s_core import caps
from s2s_core.errors import InputError
from s2s_core.fmt import num, pct, prob, sci, vec
from s2s_core.seq2seq import Seq2SeqConfig, Seq2SeqResult, parse_config, run
from s2s_core.seq2seq.charts import page_charts, topk_chart
from s2s_core.seq2seq.code import script
from s2s_core.seq2seq.compute import BRIDGES, CELLS, MAX_STEPS, MAX_TOP_K, MAX_WORD_CHARS
from s2s_core.seq2seq.frames import (
    bottleneck_summary,
    state_labels,
    steps_frame,
    topk_frame,
)
from s2s_ui.charts import cached_spec, draw
from s2s_ui.i18n import t
from s2s_ui.link import linked
from s2s_ui.widgets import (
    check_badge,
    code_expander,
    md_escape,
    notice_list,
    page_header,
    predict_then_reveal,
    reset_button,
    show_error,
)

DEFAULT = Seq2SeqConfig()
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


@st.cache_data(max_entries=128, show_spinner=False)
def compute(config: Seq2SeqConfig) -> Seq2SeqResult:
    return run(config)


# Building Altair specs is the slow part of a rerun, so the finished Vega-Lite dicts are cached (validated
# against the schema in tests/core/test_seq2seq.py instead of on every rerun).
@cached_spec(max_entries=128)
def chart_specs(config: Seq2SeqConfig, labels: dict[str, str]) -> Any:
    return dict(page_charts(compute(config), config.directions, config.enc_layers, labels))


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


def size_input(label_key: str, key: str, value: int, hi: int) -> int:
    return linked(st.number_input, t(label_key), key=key, default=value, min_value=1, max_value=hi, step=1)


def read_inputs(replacement_box) -> Seq2SeqConfig | None:
    """Widgets -> validated config; None (with a message naming the field) when an input is bad."""
    st.subheader(t("seq2seq.inputs"))
    source = linked(
        st.text_input,
        t("seq2seq.source_label"),
        key="seq2seq_source",
        default=" ".join(DEFAULT.source),
        help=t("seq2seq.source_help"),
        max_chars=caps.MAX_TEXT_CHARS,
    )
    top = st.columns(2)
    cell = linked(
        top[0].segmented_control,
        t("seq2seq.cell_label"),
        CELLS,
        key="seq2seq_cell",
        default=DEFAULT.cell,
        labels={c: t(f"seq2seq.cell_{c}") for c in CELLS},
        required=True,
    )
    seed = linked(
        top[1].number_input,
        t("seq2seq.seed_label"),
        key="seq2seq_seed",
        default=DEFAULT.seed,
        min_value=0,
        max_value=caps.MAX_SEED,
        step=1,
    )
    enc_col, dec_col, run_col = st.columns(3)
    with enc_col.container(border=True):
        st.markdown(f"**{t('seq2seq.encoder_box')}**")
        embed = size_input("seq2seq.embed_label", "seq2seq_embed", DEFAULT.embed, caps.MAX_EMBED)
        enc_hidden = size_input("seq2seq.enc_hidden_label", "seq2seq_enc_hidden", DEFAULT.enc_hidden, caps.MAX_HIDDEN)
        enc_layers = size_input("seq2seq.enc_layers_label", "seq2seq_enc_layers", DEFAULT.enc_layers, caps.MAX_LAYERS)
        bidirectional = linked(st.toggle, t("seq2seq.bidirectional_label"), key="seq2seq_bidir", default=False)
    with dec_col.container(border=True):
        st.markdown(f"**{t('seq2seq.decoder_box')}**")
        dec_hidden = size_input("seq2seq.dec_hidden_label", "seq2seq_dec_hidden", DEFAULT.dec_hidden, caps.MAX_HIDDEN)
        dec_layers = size_input("seq2seq.dec_layers_label", "seq2seq_dec_layers", DEFAULT.dec_layers, caps.MAX_LAYERS)
        bridge = linked(
            st.segmented_control,
            t("seq2seq.bridge_label"),
            BRIDGES,
            key="seq2seq_bridge",
            default=DEFAULT.bridge,
            labels={b: t(f"seq2seq.bridge_{b}") for b in BRIDGES},
            required=True,
            help=t("seq2seq.bridge_help"),
        )
    with run_col.container(border=True):
        st.markdown(f"**{t('seq2seq.decoding_box')}**")
        steps = size_input("seq2seq.steps_label", "seq2seq_steps", DEFAULT.steps, MAX_STEPS)
        top_k = size_input("seq2seq.top_k_label", "seq2seq_top_k", DEFAULT.top_k, MAX_TOP_K)
    with replacement_box:  # drawn in the bottleneck section, read now: the measurement depends on it
        replacement = linked(
            st.text_input,
            t("seq2seq.replacement_label"),
            key="seq2seq_replacement",
            default=DEFAULT.replacement,
            help=t("seq2seq.replacement_help"),
            max_chars=MAX_WORD_CHARS,
        )
    reset_button(INPUT_KEYS)
    try:
        return parse_config(
            source,
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
            replacement=replacement,
        )
    except InputError as err:
        show_error(err)
        return None


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
    if result.error is not None:
        key, field, params = result.error
        show_error(InputError(key, field, **dict(params)))
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


def pick_step(n_steps: int) -> int:
    """The step to inspect (0-based); a stale value (fewer steps now) falls back to step 1."""
    options = list(range(1, n_steps + 1))
    step = linked(
        st.segmented_control,
        t("seq2seq.step_label"),
        options,
        key="seq2seq_step",
        default=1,
        labels={s: f"t{s}" for s in options},
        parse=int,
        required=True,
    )
    return int(step or 1) - 1


def show_decoding(config: Seq2SeqConfig, result: Seq2SeqResult) -> None:
    st.subheader(t("seq2seq.dec_title"))
    dec = result.decoding
    if dec is None:  # section 2 has already said why, and that the rest still runs
        st.caption(t("seq2seq.dec_skipped"))
        return
    st.caption(t("seq2seq.untrained"))
    st.markdown(t("seq2seq.output_line", words=" ".join(md_escape(w) for w in dec.output)))
    index = pick_step(len(dec.steps))
    step = dec.steps[index]
    left, right = st.columns(2)
    with left.container(border=True):
        st.markdown(t("seq2seq.step_input", token=md_escape(step.input_token)))
        st.markdown(t("seq2seq.step_h", before=vec(step.h_prev), after=vec(step.h_new), change=num(step.change)))
        if step.c_new is not None:
            st.markdown(t("seq2seq.step_c", cell=vec(step.c_new)))
        st.markdown(t("seq2seq.step_chosen", token=md_escape(step.chosen), p=prob(step.top[0][1])))
        if step.chosen == "<eos>":
            st.info(t("seq2seq.step_eos"))
    labels = {k: t(f"seq2seq.chart.{k}") for k in ("p", "token")}
    labels["title"] = t("seq2seq.chart.topk_title", k=len(step.top), step=index + 1)
    draw(right, topk_spec(config, index, labels))
    left, right = st.columns(2)
    with left:
        st.markdown(f"**{t('seq2seq.steps_table')}**")
        table = steps_frame(dec)
        st.dataframe(
            table.rename(columns={c: t(f"seq2seq.col.{c}") for c in table.columns}), hide_index=True, width="stretch"
        )
    draw(right, chart_specs(config, chart_labels())["states"])
    check_badge(t("seq2seq.check_what", cell=config.cell.upper()), dec.one_call_diff, tol=1e-9)


def show_bottleneck(config: Seq2SeqConfig, result: Seq2SeqResult) -> None:
    b = result.bottleneck
    m = bottleneck_summary(b)
    size = dict(size=m.handoff_numbers, L=config.enc_layers, K=config.directions, H=config.enc_hidden)
    st.markdown(t(f"seq2seq.bn_intro_{config.cell}", N=m.N, **size))
    draw(st, chart_specs(config, chart_labels())["bottleneck"])
    if m.ratio is None:
        st.info(t("seq2seq.bn_same"))
    else:
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
    st.info(t("seq2seq.bn_attention", size=m.handoff_numbers, n=m.n, N=m.N), icon=":material/lightbulb:")
    st.page_link("pages/training.py", label=t("seq2seq.bn_training_link"), icon=":material/model_training:")


def show_quiz(result: Seq2SeqResult) -> None:
    m = bottleneck_summary(result.bottleneck)
    if m.band is None:
        return
    options = {k: t(f"seq2seq.quiz_{k}") for k in ("less", "same", "more")}
    predict_then_reveal(
        "seq2seq_quiz",
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


page_header("seq2seq")
sections = {
    name: st.container() for name in ("lengths", "inputs", "encoder", "handoff", "decoding", "bottleneck", "end")
}
with sections["bottleneck"]:
    st.subheader(t("seq2seq.bn_title"))
    replacement_box = st.container()
with sections["inputs"]:
    config = read_inputs(replacement_box)
if config is not None:
    result = compute(config)
    with sections["lengths"]:
        show_lengths(config, result)
    with sections["encoder"]:
        show_encoder(config, result)
    with sections["handoff"]:
        show_handoff(config, result)
    with sections["decoding"]:
        show_decoding(config, result)
    with sections["bottleneck"]:
        show_bottleneck(config, result)
    with sections["end"]:
        show_quiz(result)
        notice_list([f"seq2seq.notice_{i}" for i in range(1, 5)])
        code_expander(script(config), file_name="encoder_decoder.py")
