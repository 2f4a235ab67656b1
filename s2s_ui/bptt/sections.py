"""The backprop page's tabs under the picture: why ρ decides, the curves, truncation, clipping, the table, the
checks and the notices. Each takes the parsed config (and max_norm) and fetches the result from the cache itself."""

from __future__ import annotations

import streamlit as st

from s2s_core.bptt import BpttConfig, ClipResult, clip
from s2s_core.bptt.cells import GATE_NAMES
from s2s_core.bptt.compute import H, keep_reading
from s2s_core.bptt.frames import CELL_NAMES, milestones_frame, reach
from s2s_core.fmt import num, sci
from s2s_ui.bptt.specs import clip_spec, compute, grad_spec
from s2s_ui.charts import draw
from s2s_ui.i18n import lang, t
from s2s_ui.widgets import check_badge, notice_list

CHECK_TOL = 1e-9  # hand loops vs nn modules, both float64


def show_reach(config: BpttConfig) -> None:
    """Why ρ decides, the readout per cell at the quiz's distance, and how much W_hh stretches a vector."""
    result = compute(config)
    st.caption(t("bptt.setup"))
    st.markdown(t("bptt.why"))
    k = result.quiz_back
    lines = [t("bptt.readout", cell=CELL_NAMES[c.cell], k=k, ratio=sci(c.ratio(k, full=False))) for c in result.cells]
    st.markdown("\n".join(f"- {line}" for line in lines))
    # How much W_hh stretches a vector, measured per cell: ρ for the RNN's one block, ρ·√G for a stack of G.
    stretches = [
        t(
            "bptt.stretch_one" if c.blocks == 1 else "bptt.stretch_blocks",
            cell=CELL_NAMES[c.cell],
            H=H,
            G=c.blocks,
            gates=", ".join(GATE_NAMES[c.cell]),
            blocks=", ".join(num(b) for b in c.block_stretch),
            stretch=num(c.stretch),
            rho=f"{config.rho:g}",
        )
        for c in result.cells
    ]
    st.markdown("\n".join(f"- {line}" for line in stretches))


def show_curves(config: BpttConfig) -> None:
    """‖∂L/∂h_(T−k)‖ against steps back for every cell, the focused one thick (log scale)."""
    st.markdown(f"**{t('bptt.chart.grad_title')}**")
    draw(st, grad_spec(config, lang()))


def show_truncation(config: BpttConfig) -> None:
    result = compute(config)
    if not result.cuts:
        st.markdown(t("bptt.truncate_off", T=config.T))
        return
    steps = ", ".join(str(config.T - k) for k in reversed(result.cuts))
    n = reach(result.by_cell(config.cell))
    st.markdown(t("bptt.truncate_on", steps=steps, T=config.T, reach=n - 1, first=config.T - n + 1))


def show_clipping(config: BpttConfig, max_norm: float) -> None:
    """clip_grad_norm_ on the chosen cell: sizes before/after, the unchanged direction, and each step's part of
    ∂L/∂W_hh before and after (why a vanished part stays vanished)."""
    st.markdown(t("bptt.clip_intro"))
    clipped: ClipResult = clip(compute(config).by_cell(config.cell), max_norm)
    specs = clip_spec(config, max_norm, lang())
    st.caption(t("bptt.clip_cell", cell=CELL_NAMES[config.cell]))
    c1, c2, c3 = st.columns(3)
    c1.metric(t("bptt.metric_before"), sci(clipped.total_before))
    c2.metric(t("bptt.metric_after"), sci(clipped.total_after))
    c3.metric(t("bptt.metric_cos"), num(clipped.cosine))
    fmt = {"before": sci(clipped.total_before), "max_norm": f"{max_norm:g}", "scale": num(clipped.scale)}
    st.markdown(t("bptt.clip_active" if clipped.scale < 1 else "bptt.clip_idle", **fmt))
    st.markdown(f"**{t('bptt.chart.clip_title')}**")
    draw(st, specs["params"])
    st.markdown(t("bptt.clip_parts_intro"))
    st.markdown(f"**{t('bptt.chart.parts_title')}**")
    draw(st, specs["parts"])
    far = {
        "t": config.T - clipped.far_back,
        "before": sci(clipped.far_before),
        "after": sci(clipped.far_after),
        "scale": num(clipped.scale),
    }
    st.info(t(f"bptt.clip_far_{clipped.far_band}", **far), icon=":material/info:")
    check_badge(t("bptt.check_parts"), clipped.parts_sum_diff, tol=CHECK_TOL)


def show_table(config: BpttConfig) -> None:
    st.markdown(f"**{t('bptt.table_title')}**")
    st.dataframe(milestones_frame(compute(config), t("bptt.k_col")), hide_index=True)


def show_checks(config: BpttConfig) -> None:
    result = compute(config)
    checked = [c for c in result.cells if c.module_diff is not None]
    modules = ", ".join(f"nn.{CELL_NAMES[c.cell]}" for c in checked)
    check_badge(t("bptt.check_modules", modules=modules), max(c.module_diff for c in checked), tol=CHECK_TOL)
    if result.law_diff is not None:
        check_badge(t("bptt.check_law"), result.law_diff, tol=CHECK_TOL)


def show_notices(config: BpttConfig) -> None:
    result = compute(config)
    k = result.quiz_back
    ratios = {f"r_{c.cell}": sci(c.ratio(k)) for c in result.cells}
    keep = keep_reading(result)  # the keep gates beside the measured fall per step; "about" only where it holds
    lstm_key = "bptt.notice_3_lstm_about" if keep.lstm_about_f else "bptt.notice_3_lstm"
    gru_key = "bptt.notice_3_gru_about" if keep.gru_about_z else "bptt.notice_3_gru"
    notice_list(
        ["bptt.notice_1", "bptt.notice_2", lstm_key, gru_key, "bptt.notice_4", "bptt.notice_5"],
        rho=f"{config.rho:g}",
        k=k,
        f=num(keep.f),
        z=num(keep.z),
        c_step=num(keep.lstm_cell_step),
        h_step=num(keep.gru_step),
        **ratios,
    )
