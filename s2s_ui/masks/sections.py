"""The masks page's tabs under the picture. Each computes (or fetches from the cache) what it shows: only the open
tab runs, so no tab may lean on another having run first."""

from __future__ import annotations

import streamlit as st

from s2s_core.fields import Parsed
from s2s_core.fmt import num, signed, vec
from s2s_core.masks import MasksConfig, fields
from s2s_core.masks.compute import most_pad, worst_leak
from s2s_core.masks.empty import FALLBACK_S
from s2s_core.masks.frames import final_state_table, lengths_text
from s2s_core.masks.notes import loss_diff_key, notice_keys
from s2s_ui.charts import draw
from s2s_ui.i18n import lang, t
from s2s_ui.masks import PAGE
from s2s_ui.masks.specs import batch_specs, compute, empty_demo, sentence_specs
from s2s_ui.widgets import check_badge, md_escape, notice_list, revealed

QUIZ = "masks_quiz"  # the question under the picture; its answer (the loss's divisor) waits for it


def pick_sentence(config: MasksConfig) -> int:
    """The sentence a tab's per-sentence charts show (0-based), from the one picker field. Each tab that shows a
    sentence draws the picker itself (one key: only the open tab is drawn), opening on the most PAD."""
    rows = config.rows
    row = PAGE.input(
        fields.ROW,
        st.selectbox,
        label=t("masks.inspect_label"),
        options=rows,
        labels={r: t("masks.inspect_option", row=r) for r in rows},
        default=rows[most_pad(config)],
    )
    return rows.index(row)


def show_loss(config: MasksConfig) -> None:
    """The two losses side by side: PAD targets ignored (the mean over real tokens) vs counted."""
    result, specs = compute(config), batch_specs(config, lang())
    with st.container(border=True):
        st.markdown(t("masks.compare_loss"))
    left, right = st.columns(2)
    with left:
        st.metric(t("masks.metric_ignore"), num(result.loss_ignore))
        if revealed(QUIZ):  # the divisor is the question's answer
            sums = {"sum_real": num(result.sum_real), "n_real": result.n_real}
            st.markdown(t("masks.formula_ignore", **sums, loss=num(result.loss_ignore)))
        else:
            st.caption(t("masks.formula_hidden"))
        draw(st, specs["loss_ignore"])
    with right:
        gap = signed(result.loss_all - result.loss_ignore)
        st.metric(t("masks.metric_all"), num(result.loss_all), delta=gap, delta_color="off")
        sums = {"sum_real": num(result.sum_real), "sum_pad": num(result.sum_pad), "n_total": result.n_total}
        st.markdown(t("masks.formula_all", **sums, loss=num(result.loss_all)))
        draw(st, specs["loss_all"])
    st.caption(t(loss_diff_key(result), diff=gap, lnv=num(result.ln_v), loss=num(result.loss_ignore)))
    check_badge(t("masks.check_loss"), result.loss_check, tol=1e-9)


def show_attention(config: MasksConfig) -> None:
    """The picked sentence's attention with and without the PAD mask, and the weight that reaches PAD."""
    with st.container(border=True):
        st.markdown(t("masks.compare_attention"))
    b = pick_sentence(config)
    result, row = compute(config), config.rows[b]
    specs = sentence_specs(config, b, lang())
    st.caption(t("masks.attn_caption", row=row))
    draw(st, specs["masked"])
    draw(st, specs["unmasked"])
    if result.leak_by_row[b] == 0:
        st.info(t("masks.no_pad_source", row=row))
    else:
        leak = {"masked": num(0.0), "unmasked": num(result.leak_by_row[b]), "gap": num(result.gap_by_row[b])}
        st.markdown(t("masks.leak_line", **leak))
    draw(st, specs["share"])
    check_badge(t("masks.check_attention"), result.attention_check, tol=1e-9)


def show_final(config: MasksConfig) -> None:
    """Every sentence's final-state gap, then the picked sentence's two final states component by component."""
    result = compute(config)
    st.caption(t("masks.final_caption"))
    table = final_state_table(result, config)
    table["gap"] = table["gap"].map(num)
    table.columns = [t(f"masks.col_{c}") for c in ("sentence", "length", "pad_steps", "gap")]
    st.dataframe(table, hide_index=True, width="stretch")
    b = pick_sentence(config)
    draw(st, sentence_specs(config, b, lang())["final"])
    check_badge(t("masks.check_final"), result.final_check, tol=1e-9)


def show_batch(config: MasksConfig) -> None:
    """The padded id matrices and the real lengths."""
    result, specs = compute(config), batch_specs(config, lang())
    S, T = result.src_ids.shape[1], result.dec_out.shape[1]
    st.caption(t("masks.batch_caption", S=S, T=T))
    draw(st, specs["source"])
    draw(st, specs["dec_in"])
    src, tgt = lengths_text(result)
    st.markdown(t("masks.lengths_line", src=src, tgt=tgt))


def show_empty(parsed: Parsed[MasksConfig]) -> None:
    """What would break if an all-PAD source reached the model (needs no batch: the demo's own, if none runs)."""
    S = int(compute(parsed.value).src_ids.shape[1]) if parsed.ok else FALLBACK_S
    demo = empty_demo(S)
    lines = [
        t("masks.empty_attention", weights=vec(demo.weights)),
        t("masks.empty_last", pos=demo.wrapped_to + 1),
        t("masks.empty_pack", error=md_escape(demo.pack_error)),
    ]
    st.markdown("\n".join(f"- {line}" for line in lines))
    st.info(t("masks.empty_rule"), icon=":material/filter_alt:")


def show_notice(config: MasksConfig) -> None:
    result = compute(config)
    st.info(t("masks.compare_note"), icon=":material/compare_arrows:")
    worst = worst_leak(result)
    notice_list(
        notice_keys(result, revealed(QUIZ)),  # chosen by the batch: a batch with nothing to pad says so
        n_real=result.n_real,
        n_total=result.n_total,
        leak=num(result.leak_by_row[worst]),
        row=config.rows[worst],
    )
