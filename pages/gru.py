"""Page: GRU — nn.GRU's own weights split into r, z, n; each step by hand; no cell state; LSTM vs GRU sizes."""

from __future__ import annotations

import streamlit as st

from s2s_core.catalog import translate, words
from s2s_core.chartkit import step_param
from s2s_core.fmt import num, vec
from s2s_core.gated.frames import largest_states
from s2s_core.gated.picture import STEP_PARAM, cell_chart, legend_words, picture_words
from s2s_core.gru import GruConfig, GruResult, fields, frames, gru_gates
from s2s_core.gru import compute as model
from s2s_core.gru.charts import LABELS, PARAMS_LABELS, RUNS, figure, params_chart
from s2s_core.gru.code import script
from s2s_core.gru.compare import Comparison
from s2s_core.gru.compare import compare as count_parameters
from s2s_core.gru.compute import GATES, gru_weights, shut_config
from s2s_core.gru.diagram import LEGEND, WORDS, gru_cell_dot
from s2s_core.gru.frames import COLUMNS, comparison_table, params_frame, reset_quiz
from s2s_core.gru.picture import picture_data
from s2s_ui import gated
from s2s_ui.cache import cached_result
from s2s_ui.charts import cached_spec, draw
from s2s_ui.explainer import explainer
from s2s_ui.i18n import lang, t
from s2s_ui.state import Page, TryCase
from s2s_ui.widgets import check_badge, code_expander, notice_list, predict_then_reveal, revealed

PAGE = Page("gru", fields.FIELDS)
F = fields.GATED


@cached_result(max_entries=256)
def compute(config: GruConfig) -> GruResult:
    return gru_gates(config)


@cached_result(max_entries=64)
def compare(E: int, H: int) -> Comparison:
    return count_parameters(E, H)  # builds three modules on the meta device: a few ms per rerun uncached


@cached_result(max_entries=64)
def weights(E: int, H: int, seed: int):
    return gru_weights(E, H, seed)


@cached_spec(max_entries=256)
def chart_spec(kind: str, config: GruConfig, step: int, language: str) -> list:
    """The Vega-Lite specs of one figure, cached by value: building Altair specs costs far more than the math.

    Not validated here: tests/core validate every figure's structure, which does not depend on the numbers.
    """
    labels, titles = words(language, "gru.chart", LABELS), words(language, "gru.gate_title", GATES)
    return figure(kind, compute(config), config.forces, step, labels, titles, words(language, "gru", RUNS))


@cached_spec(max_entries=64)
def params_spec(E: int, H: int, language: str) -> dict:
    """The parameters of nn.RNN, nn.GRU and nn.LSTM at these sizes, stacked by tensor (needs no sequence)."""
    return params_chart(params_frame(compare(E, H)), words(language, "gru.chart", PARAMS_LABELS))


def draw_figure(kind: str, config: GruConfig, step: int = 0, where=None) -> None:
    gated.draw_all(chart_spec(kind, config, step, lang()), where)


@cached_spec(max_entries=256)
def picture_spec(config: GruConfig, before: GruConfig | None, language: str, first: int) -> dict:
    """The cell diagram at step `first` (the slider moves it in the browser), the previous input's h in the strip."""
    texts = picture_words("gru", language, bool(config.forces))
    pic = picture_data(compute(config), config, texts, compute(before) if before is not None else None)
    return cell_chart(pic, texts, step_param(STEP_PARAM, config.seq.S, first, translate(language, "steps.label")))


CELL = gated.Cell(PAGE, F, model, frames, compute=compute, weights=weights, figure=draw_figure)


def cases() -> list[TryCase]:
    """Prepared states (links): both defaults have four words, so steps 1-4 exist in either language."""
    z = F.override("z")
    return [
        TryCase("gru.try.freeze", "gru.try.freeze_note", {z.steps.key: "2,3,4"}),
        TryCase("gru.try.replace", "gru.try.replace_note", {z.steps.key: "1,2,3,4", z.to.key: "0"}),
        *gated.example_cases(CELL),
    ]


def show_picture(config: GruConfig) -> None:
    """The main picture: the cell at one step (of the forced run when a gate is overridden), h under it; then
    the parameter counts of both cells at these sizes, side by side."""
    gated.show_cell_picture(CELL, config, picture_spec)
    totals = compare(config.seq.E, config.H).totals
    gru_col, lstm_col = st.columns(2)
    gru_col.metric(t("gru.picture.params_gru"), totals["gru"], border=True)
    lstm_col.metric(t("gru.picture.params_lstm"), totals["lstm"], border=True)
    st.caption(t("gru.picture.params_why", E=config.seq.E, H=config.H))


def show_check(config: GruConfig) -> None:
    result = compute(config)
    st.subheader(t("gru.check_heading"))
    check_badge(t("gru.check_what"), result.max_abs_diff, tol=1e-9)
    st.caption(t("gru.final_states", h_n=vec(result.torch_h_n), h=vec(result.run.h[-1])))


def show_gates(config: GruConfig) -> None:
    """All steps' gates, then the one-state diagram and its numbers (h itself is the main picture)."""
    st.caption(t("gru.all_steps_caption", **legend_words(lang())))
    draw_figure("gates", config)
    st.subheader(t("gru.h_heading"))
    left, right = st.columns([2, 3])
    left.graphviz_chart(gru_cell_dot(words(lang(), "gru.diagram", WORDS)), width="stretch")
    with right:
        st.markdown(t("gru.h_intro", **{name: t(key) for name, key in LEGEND.items()}))
        st.markdown(t("gru.h_numbers", max_h=num(largest_states(compute(config).run)["max_h"])))


def show_compare(sizes: gated.Sizes) -> None:
    """Needs only E and H: drawn even while the sentence or a table cell is bad."""
    E, H = sizes.E, sizes.H
    comp = compare(E, H)
    st.caption(t("gru.compare_intro", E=E, H=H))
    st.dataframe(comparison_table(comp, {k: t(f"gru.col_{k}") for k in COLUMNS}), hide_index=True, width="stretch")
    draw(st, params_spec(E, H, lang()))
    st.markdown(t("gru.compare_ratio", gru=comp.totals["gru"], lstm=comp.totals["lstm"]))
    st.markdown(t("gru.compare_keeps"))
    st.info(t("gru.compare_which"), icon=":material/science:")


def show_quiz(config: GruConfig) -> None:
    """Predict an edit's effect: shut r at every step — does h_(t-1) still reach the last h_t? Graded on that run."""
    S = config.seq.S
    shut = compute(shut_config(config)).forced
    quiz = reset_quiz(shut)  # the kind (and answer) read from that run
    if quiz.answer is None:  # h_(t-1) = 0 (one word: h_0): no earlier state to keep, whatever r does
        st.caption(t("gru.quiz_empty", last=S))
        return
    options = {"yes": t("gru.quiz_yes"), "no": t("gru.quiz_no")}
    predict_then_reveal(
        "gru_quiz",
        t("gru.quiz_question"),
        list(options.values()),
        options[quiz.answer],
        t(
            f"gru.quiz_explain_{quiz.kind}",
            last=S,
            z=vec(shut.gates["z"].value[S - 1]),
            h_prev=vec(shut.h_prev[S - 1]),
            kept=vec(quiz.kept),
            taken=vec(quiz.taken),
            h=vec(shut.h[S - 1]),
        ),
    )


def show_notice(own: bool) -> None:
    # notice 3 says what r = 0 leaves in place: the question's answer, so it waits until the question is answered.
    shown = [1, 2, 3, 4] if revealed("gru_quiz") else [1, 2, 4]
    notice_list([f"gru.notice_{i}" for i in shown], **legend_words(lang()))
    st.caption(t("own.more" if own else "gru.untrained_more"))  # whose weights: seeded, or the learner's file


parsed, sizes, forced = gated.first_screen(CELL, explainer("gru"), show_picture, show_quiz, cases())
PAGE.tabs(
    [
        ("gru.tab_override", lambda: gated.show_override(CELL, parsed.need(), forced)),
        ("ui.tab_steps", lambda: gated.show_step(CELL, parsed.need())),
        ("gru.tab_gates", lambda: show_gates(parsed.need())),
        ("gru.tab_compare", lambda: show_compare(sizes)),
        ("ui.tab_tables", lambda: gated.show_weights(CELL, sizes)),
        ("ui.tab_check", lambda: show_check(parsed.need())),
        ("ui.tab_code", lambda: code_expander(script(forced or parsed.need()), file_name="gru_by_hand.py")),
        ("ui.tab_notice", lambda: show_notice(sizes.own is not None)),
    ]
)
