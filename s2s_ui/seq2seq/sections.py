"""The encoder–decoder page's tabs: the lengths and the encoder, the hand-off, every decoding step, the
bottleneck (after the question), the check and the notice. Each takes the checked config and fetches its run
from the cache (s2s_ui/seq2seq/specs.py)."""

from __future__ import annotations

import streamlit as st

from s2s_core.fields import Parsed
from s2s_core.fmt import num, pct, sci, vec
from s2s_core.seq2seq import Seq2SeqConfig
from s2s_core.seq2seq.bottleneck import Bottleneck
from s2s_core.seq2seq.frames import BottleneckSummary, bottleneck_summary, state_labels, steps_frame
from s2s_ui.charts import draw
from s2s_ui.i18n import lang, t
from s2s_ui.seq2seq.specs import chart_specs, compute
from s2s_ui.widgets import check_badge, md_escape, notice_list, revealed

QUIZ = "seq2seq_quiz"  # the question under the picture: the bottleneck's measurement and a notice wait for it


def show_lengths(config: Seq2SeqConfig) -> None:
    """Seq2seq's point, with this run's lengths: the output's length is free of the source's."""
    result = compute(config)
    dec = result.decoding
    lengths = dict(S=len(result.encoder.tokens), cap=config.steps)
    if dec is not None:
        stop = t("seq2seq.stop_eos") if dec.ended else t("seq2seq.stop_cap", cap=config.steps)
        lengths |= dict(T=len(dec.words), stop=stop)
    st.markdown(t(f"seq2seq.lengths_{result.lengths_case}", **lengths))


def show_encoder(config: Seq2SeqConfig) -> None:
    """The run's lengths, then what the encoder returns: outputs and its final state, as heatmaps."""
    show_lengths(config)
    enc = compute(config).encoder
    st.subheader(t("seq2seq.enc_title"))
    st.markdown(t("seq2seq.tokens_line", S=len(enc.tokens), tokens=" · ".join(md_escape(w) for w in enc.tokens)))
    st.markdown(t("seq2seq.enc_shapes", outputs=tuple(enc.outputs.shape), h_n=tuple(enc.h_n.shape)))
    if enc.c_n is not None:
        st.markdown(t("seq2seq.enc_shapes_cell", c_n=tuple(enc.c_n.shape)))
    specs = chart_specs(config, lang())
    left, right = st.columns(2)
    draw(left, specs["outputs"])
    draw(right, specs["h_n"])
    if "c_n" in specs:
        draw(right, specs["c_n"])
    if config.directions == 2:
        st.info(t("seq2seq.bidir_note"), icon=":material/swap_horiz:")


def show_handoff(config: Seq2SeqConfig) -> None:
    """The encoder's final state becoming the decoder's first: as is, or through the bridge."""
    result = compute(config)
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
        flat, out = rows * config.enc_hidden, config.dec_layers * config.dec_hidden
        st.markdown(t("seq2seq.handoff_bridge", rows=rows, flat=flat, out=out, dec=dec_shape))
        if handoff.c0 is not None:
            st.markdown(t("seq2seq.handoff_bridge_c"))
    st.markdown(t("seq2seq.h0_line", vector=vec(handoff.h0[-1, 0])))
    if handoff.c0 is not None:
        st.markdown(t("seq2seq.c0_line", vector=vec(handoff.c0[-1, 0])))


def show_decoding(config: Seq2SeqConfig) -> None:
    """Every decoding step at once (the picture's step control shows one at a time)."""
    st.subheader(t("seq2seq.dec_title"))
    dec = compute(config).decoding
    if dec is None:  # the picture has already said why, and that the rest still runs
        st.caption(t("seq2seq.dec_skipped"))
        return
    st.caption(t("seq2seq.untrained"))
    left, right = st.columns(2)
    with left:
        st.markdown(f"**{t('seq2seq.steps_table')}**")
        table = steps_frame(dec)
        names = {c: t(f"seq2seq.col.{c}") for c in table.columns}
        st.dataframe(table.rename(columns=names), hide_index=True, width="stretch")
    draw(right, chart_specs(config, lang())["states"])


def show_check(config: Seq2SeqConfig) -> None:
    dec = compute(config).decoding
    if dec is None:
        st.caption(t("seq2seq.dec_skipped"))
        return
    check_badge(t("seq2seq.check_what", cell=config.cell.upper()), dec.one_call_diff, tol=1e-9)


def show_bottleneck(config: Seq2SeqConfig, word: Parsed[str]) -> None:
    """The measurement behind the question: drawn only once the question is answered (or shown)."""
    word.need()  # only this tab needs the replacement word (the rest runs with the language's default)
    b = compute(config).bottleneck
    m = bottleneck_summary(b)
    size = dict(size=m.handoff_numbers, L=config.enc_layers, K=config.directions, H=config.enc_hidden)
    st.markdown(t(f"seq2seq.bn_intro_{config.cell}", N=m.N, **size))
    if m.ratio is not None and not revealed(QUIZ):
        st.info(t("seq2seq.bn_after_quiz"), icon=":material/quiz:")
    else:
        draw(st, chart_specs(config, lang())["bottleneck"])
        show_measured(m, b)
    st.info(t("seq2seq.bn_attention", size=m.handoff_numbers, n=m.n, N=m.N), icon=":material/lightbulb:")
    st.page_link("pages/training.py", label=t("seq2seq.bn_training_link"), icon=":material/model_training:")


def show_measured(m: BottleneckSummary, b: Bottleneck) -> None:
    """The measured changes in words (they state the question's answer)."""
    if m.ratio is None:
        st.info(t("seq2seq.bn_same"))
        return
    old, new = md_escape(b.first_word), md_escape(b.replacement)
    st.markdown(
        t("seq2seq.bn_first", old=old, new=new, short=sci(m.short), n=m.n, long=sci(m.long), N=m.N, ratio=pct(m.ratio))
    )
    st.markdown(t("seq2seq.bn_last", value=sci(m.last_long), N=m.N))
    if m.backward_long is not None:
        st.markdown(t("seq2seq.bn_backward", value=sci(m.backward_long), N=m.N))
    key = "seq2seq.bn_forgetting" if m.fades else "seq2seq.bn_no_forgetting"
    st.markdown(t(key, factor=num(m.per_word), n=m.n, N=m.N))


def show_notice() -> None:
    # The fourth point describes the bottleneck chart's lines: the question's answer.
    shown = range(1, 5) if revealed(QUIZ) else range(1, 4)
    notice_list([f"seq2seq.notice_{i}" for i in shown])
