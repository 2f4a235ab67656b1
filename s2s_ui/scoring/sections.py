"""The Bahdanau-vs-Luong page's folded tabs: every function side by side (compact tables), keys vs values, global
vs local windows, and where one decoder step scores and where its context goes.

Each tab computes what it shows from the config (through the shared cache in s2s_ui/scoring/specs.py), so it
draws the same whether it is the only tab opened or the last of several.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from s2s_core.catalog import words
from s2s_core.fmt import num, sci, vec
from s2s_core.scoring.charts import DIAGRAM_WORDS, flow_dot
from s2s_core.scoring.compute import ScoringConfig, as_error
from s2s_core.scoring.flow import FlowResult
from s2s_core.scoring.frames import comparison_tables, masked_text, param_tables, position_label, total
from s2s_core.scoring.notes import (
    distinct_rows,
    keys_values,
    rows_key,
    same_weights,
    sizes_key,
    window_size,
    window_size_key,
)
from s2s_ui.charts import draw
from s2s_ui.i18n import lang, t
from s2s_ui.registry import PAGES
from s2s_ui.scoring.specs import compute, function_names, window_spec
from s2s_ui.widgets import check_badge, show_error

PEAK_CSS = "font-weight: 700; background-color: rgba(184, 88, 143, 0.22)"  # the attention role's purple, faint


def _peaks_styled(frame: pd.DataFrame, peaks: list[str | None], name: str) -> Any:
    """A compact table with each row's dominant position highlighted (bold, on a faint purple). A fixed uuid (pandas
    draws a random one) keeps the same input drawing the same table."""

    def row_style(row: pd.Series) -> list[str]:
        return [PEAK_CSS if column == peaks[row.name] else "" for column in row.index]

    return frame.style.set_uuid(f"scoring_{name}").apply(row_style, axis=1)


def show_comparison(config: ScoringConfig) -> None:
    """Every function side by side in compact tables (signed scores, weights, contexts; rounded), each row's largest
    weight highlighted in the first two; the reasons some cannot score; the check."""
    result = compute(config)
    fn = function_names(lang())
    columns = {"function": t("scoring.col_function"), "context": t("scoring.col_context")}
    scores, weights, contexts, peaks = comparison_tables(result, fn, columns, t("scoring.unavailable"))
    # Formulas on one line, not in a column: the tables already fill a phone's width.
    st.caption(" · ".join(f"{fn[f.name]} = {t(f'scoring.formula.{f.name}')}" for f in result.functions))
    st.markdown(t("scoring.table_scores"))
    st.table(_peaks_styled(scores, peaks, "scores"), border="horizontal", hide_index=True)
    st.markdown(t("scoring.table_weights"))
    st.table(_peaks_styled(weights, peaks, "weights"), border="horizontal", hide_index=True)
    st.markdown(t("scoring.table_context"))
    st.table(contexts, border="horizontal", hide_index=True)
    errors: list = []
    for f in result.functions:  # one message per reason (dot and scaled dot fail alike)
        if f.error and f.error[0] not in [e[0] for e in errors]:
            errors.append(f.error)
    for parts in errors:
        show_error(as_error(parts))
    check_badge(t("scoring.check_what"), result.max_abs_diff, tol=1e-9)
    st.caption(t("scoring.concat_note", diff=sci(result.concat_as_additive_diff)))


def show_focus(config: ScoringConfig) -> None:
    """The function in focus: its query, keys and values (which states it maps), weights, context, parameters."""
    result = compute(config)
    f = result.get(config.focus)
    name = function_names(lang())[f.name]
    st.markdown(t("scoring.focus_formula", formula=t(f"scoring.formula.{f.name}")))
    if f.read is None:
        show_error(as_error(f.error))
        return
    read = f.read
    st.caption(t("scoring.qkv_caption"))
    if f.maps == "none":
        st.markdown(t("scoring.keys_are_values", name=name))
    else:
        shapes = dict(keys=tuple(read.keys.shape), values=tuple(read.values.shape), H_e=result.H_e)
        if f.maps == "keys":
            st.markdown(t("scoring.keys_values_general", H_d=read.query.shape[1], **shapes))
        else:
            st.markdown(t("scoring.keys_values_both", A=config.attn_size, **shapes))
    st.markdown(t("scoring.weights_line", weights=vec(read.weights[0]), total=total(read.weights)))
    st.markdown(t("scoring.context_line", context=vec(read.context[0])))
    with st.expander(t("scoring.params_title", name=name)):
        if not f.params:
            st.caption(t("scoring.no_params", name=name))
        for label, shape, rows in param_tables(f.params):
            st.markdown(f"**{label}** {shape}")
            st.dataframe(rows, hide_index=True)


def _window_line(config: ScoringConfig) -> str:
    """Where the window sits and which positions it keeps, in words."""
    result = compute(config)
    read = result.shown(config.focus).read  # the window does not depend on the score function
    inside = ", ".join(position_label(j) for j in range(result.S) if bool(read.mask[0, j]))
    w = result.window
    if config.window == "global":
        return t("scoring.global_line", S=result.S)
    ends = dict(S=result.S, p=num(w.center), lo=num(w.lo), hi=num(w.hi), positions=inside)
    if config.window == "local_m":
        key = "scoring.local_m_clipped" if w.step_clipped else "scoring.local_m_line"
        line = t(key, t=config.step, **ends)
    else:
        line = t("scoring.local_p_line", share=num(w.sigmoid), sigma=num(w.sigma), **ends)
    return f"{line} {_size_line(config)}"


def _size_line(config: ScoringConfig) -> str:
    """How many positions the window holds and why: 2D around a fractional p, 2D + 1 around a whole one, fewer
    where the sentence ends."""
    result = compute(config)
    size = window_size(result, config.half_width)
    return t(window_size_key(size), p=num(result.window.center), n=size.n, whole=size.whole)


def notice_keys(config: ScoringConfig, *, typed: bool) -> tuple[list[str], dict[str, object]]:
    """The "what to notice" keys and their numbers, each chosen by the live result (s2s_core/scoring/notes.py)."""
    result = compute(config)
    rows = distinct_rows(result)
    kv = keys_values(result)
    fn = function_names(lang())
    values = str(kv.values)
    parts = []
    if kv.equal:
        parts.append(t("scoring.notice_2_equal", names=", ".join(fn[n] for n in kv.equal)))
    if kv.same_shape:
        parts.append(t("scoring.notice_2_same", names=", ".join(fn[n] for n in kv.same_shape), values=values))
    for shape in dict.fromkeys(shape for _, shape in kv.other_shape):  # one sentence per key shape
        names = ", ".join(fn[n] for n, s in kv.other_shape if s == shape)
        parts.append(t("scoring.notice_2_other", names=names, keys=str(shape)))
    keys = [rows_key(result), "scoring.notice_2", sizes_key(config, typed), "scoring.notice_4"]
    fmt = dict(
        n_scoring=rows.scoring,
        n_rows=rows.distinct,
        values=values,
        parts=" ".join(parts),
        H_d=len(config.dec_state),
        H_e=result.H_e,
    )
    return keys, fmt


def show_window(config: ScoringConfig) -> None:
    """Global vs local: the window's place, then its picture (signed scores, the window, the softmax over it, the
    Gaussian, the final weights, as the page's main picture prints them); the same values to 4 decimals folded
    under it, as the other tabs fold their tables."""
    st.caption(t("scoring.window_intro"))
    result = compute(config)
    read = result.shown(config.focus).read
    st.markdown(_window_line(config))
    draw(st, window_spec(config, lang()))
    lines = [
        t("scoring.masked_line", masked=masked_text(read)),
        t("scoring.align_line", align=vec(read.align[0]), total=total(read.align)),
    ]
    if read.gauss is not None:
        lines.append(t("scoring.gauss_line", gauss=vec(read.gauss[0])))
    lines.append(t("scoring.final_line", weights=vec(read.weights[0]), total=total(read.weights)))
    with st.expander(t("scoring.window_values"), icon=":material/table_rows:"):
        st.markdown("  \n".join(lines))
    if read.gauss is not None:
        w = result.window
        why = t(
            "scoring.gauss_sum_cut" if w.edges_cut else "scoring.gauss_sum_whole",
            total=total(read.weights),
            m=w.n_window,
            n=w.n_inside,
            whole=num(w.whole_sum),
            cut=num(w.cut_sum),
        )
        st.info(t("scoring.gauss_note") + "  \n" + why, icon=":material/info:")


def show_flow(config: ScoringConfig) -> None:
    """One decoder step's wiring: which state scores, where the context goes, every tensor's shape."""
    result = compute(config)
    if result.flow is None:
        show_error(as_error(result.flow_error))
        return
    flow = result.flow
    st.markdown(t(f"scoring.flow_{config.query_from}_{config.context_into}"))
    diagram = flow_dot(flow, words(lang(), "scoring.diagram", DIAGRAM_WORDS))
    st.graphviz_chart(diagram, width="content")  # natural size
    shapes = ", ".join(f"{name} {shape}" for name, shape in flow.shapes)
    st.caption(t("scoring.flow_shapes", shapes=shapes))
    weights = vec(flow.read.weights[0])
    name = function_names(lang())[config.focus]
    if config.query_from == "previous":
        st.markdown(t("scoring.flow_same", name=name, weights=weights))
    elif same_weights(result, config.focus):
        st.markdown(t("scoring.flow_differs_same", name=name, weights=weights))
    else:
        st.markdown(t("scoring.flow_differs", weights=weights))
    show_recurrence(flow)


def show_recurrence(flow: FlowResult) -> None:
    """Attention sits on top of a decoder that is still recurrent: s_t = GRU(input, s_(t-1))."""
    if flow.prev_is_zero:
        st.info(t("scoring.flow_recurrent_zero"), icon=":material/repeat:")
    else:
        carried = dict(s_t=vec(flow.s_t[0]), zero=vec(flow.s_t_from_zero[0]), carried=num(flow.carried))
        st.info(t("scoring.flow_recurrent", **carried), icon=":material/repeat:")
    lab = next((p for p in PAGES if p.ns == "translation" and p.exists), None)
    if lab is not None:  # the Translation lab, named by its own title
        st.page_link(lab.file, label=t("scoring.flow_translation_link", lab=t("translation.title")), icon=lab.icon)
