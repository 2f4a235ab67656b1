"""The encoder–decoder page's tabs: the lengths and the encoder, the hand-off, every decoding step, the
bottleneck (after the question), the check and the notice. Each takes the checked config and fetches its run
from the cache (s2s_ui/seq2seq/specs.py); what it says is chosen by the model on screen (s2s_core/seq2seq/notes.py).
"""

from __future__ import annotations

import streamlit as st

from s2s_core.fields import Parsed
from s2s_core.fmt import num, pct, sci, vec
from s2s_core.seq2seq import Seq2SeqConfig, notes
from s2s_core.seq2seq.bottleneck import Bottleneck
from s2s_core.seq2seq.code import script
from s2s_core.seq2seq.frames import BottleneckSummary, bottleneck_summary, state_labels, steps_frame
from s2s_core.seq2seq.run import Seq2SeqResult
from s2s_core.training import SourceInput
from s2s_core.training.code import script as training_script
from s2s_jobs.jobs import DONE, FAILED_KEY, QUEUED, RUNNING
from s2s_ui.charts import draw
from s2s_ui.i18n import lang, t
from s2s_ui.seq2seq.specs import TRAINED, chart_specs, compute, on_screen, trained_job
from s2s_ui.widgets import check_badge, code_expander, md_escape, revealed

POLL_SECONDS = 1.0  # how often the page looks at the trained model's training while it waits
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
    if config.directions == 2 and compute(config).model == "untrained":
        st.info(t("seq2seq.bidir_note"), icon=":material/swap_horiz:")


def show_handoff(config: Seq2SeqConfig) -> None:
    """The encoder's final state becoming the decoder's first: as is, or through the bridge."""
    result = compute(config)
    st.subheader(t("seq2seq.handoff_title"))
    trained = result.model == "trained"
    cell = (TRAINED.cell if trained else config.cell).upper()
    dec_shape = result.handoff.dec_shape if result.handoff is not None else (config.dec_layers, 1, config.dec_hidden)
    st.markdown(t("seq2seq.handoff_shapes", enc=tuple(result.encoder.h_n.shape), cell=cell, dec=dec_shape))
    if result.error is not None:  # the message itself is under the picture
        st.caption(t("seq2seq.handoff_rest"))
        return
    handoff = result.handoff
    if not handoff.bridged:
        st.markdown(t(f"seq2seq.handoff_as_is_{notes.state_kind(result)}"))
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
    if result.reads_every_state:
        st.info(t("seq2seq.handoff_attention", S=len(result.encoder.tokens)), icon=":material/call_split:")


def show_decoding(config: Seq2SeqConfig) -> None:
    """Every decoding step at once (the picture's step control shows one at a time)."""
    st.subheader(t("seq2seq.dec_title"))
    result = compute(config)
    dec = result.decoding
    if dec is None:  # the picture has already said why, and that the rest still runs
        st.caption(t("seq2seq.dec_skipped"))
        return
    st.caption(t("seq2seq.dec_trained" if result.model == "trained" else "seq2seq.untrained"))
    left, right = st.columns(2)
    with left:
        st.markdown(f"**{t('seq2seq.steps_table')}**")
        table = steps_frame(dec, result.encoder.tokens)
        names = {c: t(f"seq2seq.col.{c}") for c in table.columns}
        st.dataframe(table.rename(columns=names), hide_index=True, width="stretch")
    draw(right, chart_specs(config, lang())["states"])


def show_check(config: Seq2SeqConfig) -> None:
    result = compute(config)
    dec = result.decoding
    if dec is None:
        st.caption(t("seq2seq.dec_skipped"))
        return
    if dec.check == "by_hand":  # float32 weights: agreement to float32's precision
        what = t("seq2seq.check_what_trained", cell=TRAINED.cell.upper(), attention=attention_name(result))
        check_badge(what, dec.one_call_diff, tol=1e-5)
    else:
        check_badge(t("seq2seq.check_what", cell=config.cell.upper()), dec.one_call_diff, tol=1e-9)


def attention_name(result: Seq2SeqResult) -> str:
    return t(f"training.attention_{result.attention}")


def show_bottleneck(config: Seq2SeqConfig, word: Parsed[str]) -> None:
    """The measurement behind the question: drawn only once the question is answered (or shown)."""
    word.need()  # only this tab needs the replacement word (the rest runs with the language's default)
    result = compute(config)
    b = result.bottleneck
    m = bottleneck_summary(b)
    H = int(result.encoder.h_n.shape[-1])
    layers, K = (config.enc_layers, config.directions) if result.model == "untrained" else (1, 1)
    size = dict(size=m.handoff_numbers, L=layers, K=K, H=H)
    st.markdown(t(notes.bottleneck_intro(result), N=m.N, **size))
    if m.ratio is not None and not revealed(QUIZ):
        st.info(t("seq2seq.bn_after_quiz"), icon=":material/quiz:")
    else:
        draw(st, chart_specs(config, lang())["bottleneck"])
        show_measured(result, m, b)
    attention = attention_name(result) if result.reads_every_state else ""
    st.info(
        t(notes.bottleneck_attention(result), size=m.handoff_numbers, n=m.n, N=m.N, H=H, attention=attention),
        icon=":material/lightbulb:",
    )
    st.page_link("pages/training.py", label=t("seq2seq.bn_training_link"), icon=":material/model_training:")


def show_measured(result: Seq2SeqResult, m: BottleneckSummary, b: Bottleneck) -> None:
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
    if m.per_word is None:  # the learner's sentence is as long as the longest measured: no factor to give
        return
    lengths = dict(lo=TRAINED.min_len, hi=TRAINED.max_len)
    st.markdown(t(notes.forgetting(result, m), factor=num(m.per_word), n=m.n, N=m.N, **lengths))


def show_notice(config: Seq2SeqConfig) -> None:
    """What to notice, chosen by the run on screen; the fourth point (the bottleneck chart's lines, the question's
    answer) waits for the question."""
    result = on_screen(config).result
    m = bottleneck_summary(result.bottleneck)
    items = []
    for key, params in notes.notices(result, m, revealed(QUIZ)):
        values = {k: num(v) if isinstance(v, float) else t(v) for k, v in params.items()}
        items.append(f"- {t(key, **values)}")
    st.markdown(f"#### {t('ui.notice_title')}")
    st.markdown("\n".join(items))


def show_model(config: Seq2SeqConfig) -> None:
    """Above the picture: which model computed it. The trained one: how it was trained (the run's own figures,
    a time limit named when it stopped the run); while it trains: its progress, the untrained model meanwhile."""
    shown = on_screen(config)
    if shown.waiting:
        wait_for_model()
    elif shown.model_id:
        run = shown.job.result.run
        final = shown.job.result.final
        key = "seq2seq.trained_line_time" if run.stopped_by == "time" else "seq2seq.trained_line"
        figures = dict(steps=run.steps_done, total=TRAINED.steps, seconds=num(round(run.seconds, 1)))
        figures |= dict(n=run.n_heldout, exact=pct(final.free_exact))
        model = dict(cell=TRAINED.cell.upper(), attention=attention_name(shown.result), E=TRAINED.embed)
        st.caption(t(key, **model, H=TRAINED.hidden, **figures))


@st.fragment(run_every=POLL_SECONDS)
def wait_for_model() -> None:
    """The trained model's training, redrawn on a timer; the whole page reruns once it has ended."""
    snap = trained_job()
    if snap.state == DONE:
        st.rerun(scope="app")
    if snap.state == QUEUED:
        st.info(t("seq2seq.pending_queued", place=snap.ahead + 1), icon=":material/hourglass_top:")
    elif snap.state == RUNNING:
        st.info(t("seq2seq.pending_running", step=snap.step, total=snap.total), icon=":material/model_training:")
        st.progress(snap.step / max(1, snap.total))
    else:  # failed or stopped: asked for again on the next run
        reason = t(snap.error or FAILED_KEY)
        st.warning(t("seq2seq.pending_failed", reason=reason), icon=":material/error:")


def show_code(config: Seq2SeqConfig) -> None:
    """The code for the model on screen: the untrained model's script, or the Translation lab's, which trains the
    same default model and decodes the sentence."""
    if compute(config).model == "trained":
        st.caption(t("seq2seq.code_trained"))
        code_expander(training_script(TRAINED, SourceInput(config.source)), file_name="encoder_decoder_trained.py")
    else:
        code_expander(script(config), file_name="encoder_decoder.py")
