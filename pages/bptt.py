"""Page: backprop through time — gradient norms by steps back, vanishing/exploding, truncation, clipping."""

from __future__ import annotations

import streamlit as st

from s2s_core.bptt import BpttConfig, fields, parse_config, parse_max_norm
from s2s_core.bptt.code import script
from s2s_core.bptt.compute import quiz_edit, quiz_reading
from s2s_core.bptt.fields import MAX_T
from s2s_core.bptt.frames import CELL_NAMES
from s2s_core.fields import Parsed
from s2s_core.fmt import num, sci
from s2s_ui.bptt.sections import (
    show_checks,
    show_clipping,
    show_curves,
    show_notices,
    show_reach,
    show_table,
    show_truncation,
)
from s2s_ui.bptt.specs import compute, picture_spec
from s2s_ui.charts import draw
from s2s_ui.explainer import before_after, explainer
from s2s_ui.i18n import lang, t
from s2s_ui.kept import kept_picture
from s2s_ui.state import Page, TryCase
from s2s_ui.widgets import code_expander, predict_then_reveal

PAGE = Page("bptt", fields.FIELDS)
BANDS = ("vanish", "same", "explode")
CASES = [
    TryCase("bptt.try.long", "bptt.try.long_note", {fields.T.key: str(MAX_T)}),
    TryCase("bptt.try.linear", "bptt.try.linear_note", {fields.LINEAR.key: "true", fields.RHO.key: "1.2"}),
    TryCase("bptt.try.gate", "bptt.try.gate_note", {fields.CELL.key: "lstm", fields.GATE.key: "5.0"}),
    TryCase("bptt.try.truncate", "bptt.try.truncate_note", {fields.TRUNCATE.key: "10"}),
]


def read_inputs() -> tuple[Parsed[BpttConfig], Parsed[float]]:
    """The controls column: cell, T and ρ, then the other settings folded. A bad value is named by each section
    that needs it (clipping needs only max_norm's own check)."""
    cell = PAGE.input(
        fields.CELL,
        st.segmented_control,
        label=t("bptt.cell_label"),
        labels=dict(CELL_NAMES),
        decode=str.lower,  # an older link named the cell as shown ("LSTM")
        required=True,
        help=t("bptt.cell_help"),
    )
    T = PAGE.input(fields.T, st.slider, label=t("bptt.T_label"))
    rho = PAGE.input(fields.RHO, st.slider, label=t("bptt.rho_label"), step=0.05, help=t("bptt.rho_help"))
    with st.expander(t("bptt.more_settings"), icon=":material/tune:"):
        linear = PAGE.input(fields.LINEAR, st.toggle, help=t("bptt.linear_help"))
        gate = PAGE.input(fields.GATE, st.slider, label=t("bptt.gate_label"), step=0.5, help=t("bptt.gate_help"))
        c1, c2 = st.columns(2)
        k = PAGE.input(fields.TRUNCATE, c1.number_input, label=t("bptt.truncate_label"), step=1)
        seed = PAGE.input(fields.SEED, c2.number_input, step=1)
        max_norm = PAGE.input(fields.CLIP, st.slider, label=t("bptt.clip_label"), step=0.1)
    PAGE.buttons(CASES)
    config = Parsed.of(lambda: parse_config(T, rho, cell, linear, gate, k, seed))
    return config, Parsed.of(lambda: parse_max_norm(max_norm))


def show_picture(settings: tuple[BpttConfig, float]) -> None:
    """The main picture: the chain, ‖∂L/∂h_t‖ as the band's width and colour, the cuts, clipping under it."""
    config, max_norm = settings
    before = before_after("bptt_picture", config)
    draw(st, picture_spec(config, before, max_norm, lang()))


def quiz_key(config: BpttConfig) -> str:
    """One question per cell and ρ: after moving ρ the learner meets a fresh question about the next edit."""
    return f"bptt_quiz_{config.cell}_{config.rho:g}"


def _set_rho(rho: float) -> None:
    st.session_state[fields.RHO.key] = rho


def show_quiz(config: BpttConfig) -> None:
    """Predict the effect of an edit not made yet: the picture already shows every ratio of the current ρ."""
    edited = quiz_edit(config)
    k = compute(config).quiz_back
    reading = quiz_reading(config, compute(config), compute(edited))  # the answer and its reason, for this cell
    words = {"cell": CELL_NAMES[config.cell], "k": k, "rho": f"{config.rho:g}", "new": f"{edited.rho:g}"}
    numbers = {"ratio": sci(reading.ratio), "now": sci(reading.ratio_now), "per_step": num(reading.per_step)}
    answered = predict_then_reveal(
        quiz_key(config),
        t("bptt.quiz_question", **words),
        [t(f"bptt.quiz_{b}") for b in BANDS],
        t(f"bptt.quiz_{reading.band}"),
        t("bptt.quiz_explain", **numbers, **words) + " " + t(f"bptt.quiz_why_{reading.why}", **numbers, **words),
    )
    if answered:
        st.button(
            t("bptt.quiz_apply", new=words["new"]),
            key="bptt_quiz_apply",
            icon=":material/tune:",
            on_click=_set_rho,
            args=(edited.rho,),
        )


controls, picture = explainer("bptt")
with controls:
    config, max_norm = read_inputs()
with picture:
    # A bad value keeps the last good picture, faded, under its message (s2s_ui/kept.py); the question waits.
    live = kept_picture(PAGE, lambda: (config.need(), max_norm.need()), show_picture)
    if live is not None:
        show_quiz(live[0])
PAGE.tabs(
    [
        ("bptt.tab_reach", lambda: show_reach(config.need())),
        ("bptt.tab_curves", lambda: show_curves(config.need())),
        ("bptt.tab_truncate", lambda: show_truncation(config.need())),
        ("bptt.tab_clip", lambda: show_clipping(config.need(), max_norm.need())),
        ("ui.tab_tables", lambda: show_table(config.need())),
        ("ui.tab_check", lambda: show_checks(config.need())),
        ("ui.tab_code", lambda: code_expander(script(config.need(), max_norm.need()), file_name="bptt.py")),
        ("ui.tab_notice", lambda: show_notices(config.need())),
    ]
)
