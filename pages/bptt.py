"""Page: backprop through time — gradient norms by steps back, vanishing/exploding, truncation, clipping."""

from __future__ import annotations

from typing import Any

import streamlit as st

from s2s_core import caps
from s2s_core.bptt import BpttConfig, BpttResult, ClipResult, backprop_through_time, clip, parse_config, parse_max_norm
from s2s_core.bptt.cells import GATE_NAMES
from s2s_core.bptt.charts import clip_chart, grad_chart, parts_chart
from s2s_core.bptt.code import script
from s2s_core.bptt.compute import CELLS, GATE_BIAS_RANGE, MAX_T, RHO_RANGE, H, quiz_edit
from s2s_core.bptt.frames import (
    CELL_NAMES,
    clip_frame,
    cuts_frame,
    grad_frame,
    milestones_frame,
    parts_frame,
    ratio_band,
    reach,
)
from s2s_core.bptt.picture import gradient_picture, picture_data
from s2s_core.errors import InputError
from s2s_core.fmt import num, sci
from s2s_ui.cache import cached_result
from s2s_ui.catalog import translate
from s2s_ui.charts import cached_spec, draw
from s2s_ui.explainer import TryCase, before_after, details, explainer, try_this
from s2s_ui.i18n import lang, t
from s2s_ui.link import linked
from s2s_ui.widgets import (
    check_badge,
    code_expander,
    notice_list,
    predict_then_reveal,
    reset_button,
    show_error,
)

BANDS = ("vanish", "same", "explode")
KEYS = ["bptt_cell", "bptt_T", "bptt_rho", "bptt_linear", "bptt_gate", "bptt_k", "bptt_seed", "bptt_clip"]
CASES = [
    TryCase("bptt.try.long", "bptt.try.long_note", {"bptt_T": str(MAX_T)}),
    TryCase("bptt.try.linear", "bptt.try.linear_note", {"bptt_linear": "true", "bptt_rho": "1.2"}),
    TryCase("bptt.try.gate", "bptt.try.gate_note", {"bptt_cell": "lstm", "bptt_gate": "5.0"}),
    TryCase("bptt.try.truncate", "bptt.try.truncate_note", {"bptt_k": "10"}),
]


@cached_result(max_entries=128)
def compute(config: BpttConfig) -> BpttResult:
    return backprop_through_time(config)


def read_inputs() -> tuple[BpttConfig, float] | None:
    """The controls column: cell, T and ρ, then the other settings folded; None (with a message) when bad."""
    cell = linked(
        st.segmented_control,
        t("bptt.cell_label"),
        list(CELLS),
        key="bptt_cell",
        default="rnn",
        labels=dict(CELL_NAMES),
        parse=str.lower,
        required=True,
        help=t("bptt.cell_help"),
    )
    T = linked(st.slider, t("bptt.T_label"), key="bptt_T", default=30, min_value=2, max_value=MAX_T)
    rho = linked(
        st.slider,
        t("bptt.rho_label"),
        key="bptt_rho",
        default=0.9,
        min_value=RHO_RANGE[0],
        max_value=RHO_RANGE[1],
        step=0.05,
        help=t("bptt.rho_help"),
    )
    with st.expander(t("bptt.more_settings"), icon=":material/tune:"):
        linear = linked(st.toggle, t("bptt.linear_label"), key="bptt_linear", default=False, help=t("bptt.linear_help"))
        gate = linked(
            st.slider,
            t("bptt.gate_label"),
            key="bptt_gate",
            default=1.0,
            min_value=GATE_BIAS_RANGE[0],
            max_value=GATE_BIAS_RANGE[1],
            step=0.5,
            help=t("bptt.gate_help"),
        )
        c1, c2 = st.columns(2)
        k = linked(
            c1.number_input,
            t("bptt.truncate_label"),
            key="bptt_k",
            default=0,
            min_value=0,
            max_value=MAX_T,
            step=1,
            help=t("bptt.truncate_help"),
        )
        seed = linked(
            c2.number_input,
            t("bptt.field.seed"),
            key="bptt_seed",
            default=0,
            min_value=0,
            max_value=caps.MAX_SEED,
            step=1,
        )
        max_norm = read_max_norm()
    try_this(CASES, KEYS)
    reset_button(KEYS)
    if max_norm is None:
        return None
    try:
        return parse_config(T, rho, cell, linear, gate, k, seed), max_norm
    except InputError as err:
        show_error(err)
        return None


@cached_spec(max_entries=128)
def grad_spec(config: BpttConfig, language: str) -> Any:
    """The gradient chart's Vega-Lite spec, cached by value (Altair costs far more than the math); validated in
    tests/core/test_bptt.py, so drawn here unvalidated."""
    result = compute(config)
    labels = {
        k: translate(language, f"bptt.chart.{k}") for k in ("k", "norm", "series", "t", "ratio", "cut", "grad_title")
    }
    return grad_chart(grad_frame(result), cuts_frame(result), labels)


@cached_spec(max_entries=128)
def clip_spec(config: BpttConfig, max_norm: float, language: str) -> Any:
    """The clipping charts' specs for one max_norm (per-parameter bars, per-step parts), cached by value."""
    clipped = clip(compute(config).by_cell(config.cell), max_norm)
    labels = {k: translate(language, f"bptt.chart.{k}") for k in ("norm", "k", "t", "part", "when", "ratio")}
    names = [translate(language, f"bptt.chart.{k}") for k in ("before", "after", "total")]
    return {
        "params": clip_chart(clip_frame(clipped, *names), max_norm, labels),
        "parts": parts_chart(
            parts_frame(clipped, config.T, *names[:2]),
            max_norm,
            labels | {"description": translate(language, "bptt.chart.parts_description")},
        ),
    }


@cached_spec(max_entries=128)
def picture_spec(config: BpttConfig, before: BpttConfig | None, max_norm: float, language: str) -> Any:
    """The chain with the gradient flowing back (s2s_core/bptt/picture.py), cached by value."""
    result = compute(config)
    clipped = clip(result.by_cell(config.cell), max_norm)
    previous = compute(before) if before is not None else None
    keys = ("step", "norm", "loss", "flow", "cut", "clip_title", "before", "after", "untouched", "description")
    words = {k: translate(language, f"bptt.picture.{k}") for k in keys}
    words["title"] = translate(language, "bptt.picture.title", cell=CELL_NAMES[config.cell])
    words["subtitle"] = translate(language, "bptt.picture.subtitle", rho=f"{config.rho:g}", T=config.T)
    words["clip_title"] = translate(language, "bptt.picture.clip_title", max_norm=f"{max_norm:g}")
    return gradient_picture(picture_data(config, result, clipped, previous), words)


def show_picture(config: BpttConfig, max_norm: float) -> None:
    """The main picture: the chain, ‖∂L/∂h_t‖ as the band's width and colour, the cuts, clipping under it."""
    before = before_after("bptt_picture", config)
    draw(st, picture_spec(config, before, max_norm, lang()))


def show_curves(config: BpttConfig) -> None:
    """‖∂L/∂h_(T−k)‖ against steps back for every cell, the focused one thick (log scale)."""
    st.markdown(f"**{t('bptt.chart.grad_title')}**")
    draw(st, grad_spec(config, lang()))


def show_reach(config: BpttConfig, result: BpttResult) -> None:
    """Why ρ decides, the readout per cell at the quiz's distance, and how much W_hh stretches a vector."""
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


def show_table(result: BpttResult) -> None:
    st.markdown(f"**{t('bptt.table_title')}**")
    st.dataframe(milestones_frame(result, t("bptt.k_col")), hide_index=True)


def show_checks(result: BpttResult) -> None:
    checked = [c for c in result.cells if c.module_diff is not None]
    modules = ", ".join(f"nn.{CELL_NAMES[c.cell]}" for c in checked)
    check_badge(t("bptt.check_modules", modules=modules), max(c.module_diff for c in checked), tol=1e-9)
    if result.law_diff is not None:
        check_badge(t("bptt.check_law"), result.law_diff, tol=1e-9)


def show_truncation(config: BpttConfig, result: BpttResult) -> None:
    if not result.cuts:
        st.markdown(t("bptt.truncate_off", T=config.T))
        return
    steps = ", ".join(str(config.T - k) for k in reversed(result.cuts))
    n = reach(result.by_cell(config.cell))
    st.markdown(t("bptt.truncate_on", steps=steps, T=config.T, reach=n - 1, first=config.T - n + 1))


def read_max_norm() -> float | None:
    value = linked(
        st.slider, t("bptt.clip_label"), key="bptt_clip", default=1.0, min_value=0.1, max_value=10.0, step=0.1
    )
    try:
        return parse_max_norm(value)
    except InputError as err:
        show_error(err)
        return None


def show_clipping(config: BpttConfig, result: BpttResult, max_norm: float) -> None:
    """clip_grad_norm_ on the chosen cell: sizes before/after, the unchanged direction, and each step's part of
    ∂L/∂W_hh before and after (why a vanished part stays vanished)."""
    st.markdown(t("bptt.clip_intro"))
    clipped: ClipResult = clip(result.by_cell(config.cell), max_norm)
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
    check_badge(t("bptt.check_parts"), clipped.parts_sum_diff, tol=1e-9)


def quiz_key(config: BpttConfig) -> str:
    """One question per cell and ρ: after moving ρ the learner meets a fresh question about the next edit."""
    return f"bptt_quiz_{config.cell}_{config.rho:g}"


def _set_rho(rho: float) -> None:
    st.session_state["bptt_rho"] = rho


def show_quiz(config: BpttConfig, result: BpttResult) -> None:
    """Predict the effect of an edit not made yet: the picture already shows every ratio of the current ρ."""
    edited = quiz_edit(config)
    grad = compute(edited).by_cell(config.cell)
    k = result.quiz_back
    ratio = grad.ratio(k)
    cell = CELL_NAMES[config.cell]
    words = {"cell": cell, "k": k, "rho": f"{config.rho:g}", "new": f"{edited.rho:g}"}
    answered = predict_then_reveal(
        quiz_key(config),
        t("bptt.quiz_question", **words),
        [t(f"bptt.quiz_{b}") for b in BANDS],
        t(f"bptt.quiz_{ratio_band(ratio)}"),
        t("bptt.quiz_explain", ratio=sci(ratio), **words)
        + " "
        + t("bptt.quiz_why_up" if edited.rho > config.rho else "bptt.quiz_why_down"),
    )
    if answered:
        st.button(
            t("bptt.quiz_apply", new=words["new"]),
            key="bptt_quiz_apply",
            icon=":material/tune:",
            on_click=_set_rho,
            args=(edited.rho,),
        )


def show_notices(config: BpttConfig, result: BpttResult) -> None:
    k = result.quiz_back
    ratios = {f"r_{c.cell}": sci(c.ratio(k)) for c in result.cells}
    lstm, gru = result.by_cell("lstm"), result.by_cell("gru")
    notice_list(
        [f"bptt.notice_{i}" for i in range(1, 6)],
        rho=f"{config.rho:g}",
        k=k,
        f=num(lstm.keep_gate),
        z=num(gru.keep_gate),
        **ratios,
    )


controls, picture = explainer("bptt")
with controls:
    inputs = read_inputs()
if inputs is not None:
    config, max_norm = inputs
    result = compute(config)
    with picture:
        show_picture(config, max_norm)
        show_quiz(config, result)
    details(
        [
            ("bptt.tab_reach", lambda: show_reach(config, result)),
            ("bptt.tab_curves", lambda: show_curves(config)),
            ("bptt.tab_truncate", lambda: show_truncation(config, result)),
            ("bptt.tab_clip", lambda: show_clipping(config, result, max_norm)),
            ("ui.tab_tables", lambda: show_table(result)),
            ("ui.tab_check", lambda: show_checks(result)),
            ("ui.tab_code", lambda: code_expander(script(config, max_norm), file_name="bptt.py")),
            ("ui.tab_notice", lambda: show_notices(config, result)),
        ],
        key="bptt_tabs",
    )
