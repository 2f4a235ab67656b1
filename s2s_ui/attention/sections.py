"""The attention page's folded details: every decoder step written out, and the numbers as plain tables.

Each section computes what it shows from the config (through the shared cache), so it draws the same whether it
is the only tab opened or the last of several.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from s2s_core.attention import AttentionConfig, AttentionResult, attention_weighting
from s2s_core.attention.frames import position_label, step_label, weighted_sum_text
from s2s_core.fmt import num, vec
from s2s_ui.cache import cached_result
from s2s_ui.i18n import t


@cached_result(max_entries=256)
def compute(config: AttentionConfig) -> AttentionResult:
    return attention_weighting(config)


def show_steps(config: AttentionConfig) -> None:
    """Each decoder step written out: weights, their sum, the weighted sum per component, the context."""
    result = compute(config)
    st.caption(t("attention.pipeline"))
    S, D = result.values.shape
    positions = ", ".join(position_label(s) for s in range(S))
    pad_positions = [position_label(s) for s in range(S) if config.pad[s]]
    for step in range(result.weights.shape[0]):
        with st.container(border=True):
            st.markdown(f"**{t('attention.step_heading', step=step_label(step))}**")
            if config.mode == "scores":
                st.markdown(
                    t("attention.scores_line", scores=vec(result.scores[step]), masked=vec(result.masked_scores[step]))
                )
            weights, total = vec(result.weights[step]), num(result.weight_sums[step])
            st.markdown(t("attention.weights_line", positions=positions, weights=weights, total=total))
            for d in range(D):
                st.markdown(t("attention.sum_component", d=d + 1, expr=weighted_sum_text(result, step, d)))
            st.markdown(t("attention.context_line", step=step_label(step), vector=vec(result.contexts[step])))
            if step in result.rows_not_one:
                given = num(result.given_sums[step])
                st.warning(t("attention.not_one", step=step_label(step), total=given, normalised=weights))
    if pad_positions:
        st.info(t("attention.pad_note", positions=", ".join(pad_positions)))


def show_tables(config: AttentionConfig) -> None:
    """The weights and the vectors as plain tables (every number written by fmt)."""
    result = compute(config)
    T, S = result.weights.shape
    steps, positions = [step_label(i) for i in range(T)], [position_label(s) for s in range(S)]
    st.markdown(f"**{t('attention.table_weights')}**")
    weights = pd.DataFrame([[num(float(w)) for w in row] for row in result.weights], index=steps, columns=positions)
    st.table(weights)
    st.markdown(f"**{t('attention.table_vectors')}**")
    names = positions + [t("attention.chart.context", step=s, vector="").strip() for s in steps]
    rows = [vec(v) for v in result.values] + [vec(c) for c in result.contexts]
    st.table(pd.DataFrame({t("attention.table_vector"): rows}, index=names))
