"""Page: LSTM gates — nn.LSTM's own weights split into i, f, g, o; each step by hand; h vs c; gate overrides."""

from __future__ import annotations

import streamlit as st

from s2s_core.catalog import translate, words
from s2s_core.chartkit import step_param
from s2s_core.fmt import num, vec
from s2s_core.gated.frames import largest_states
from s2s_core.gated.picture import STEP_PARAM, cell_chart, legend_words, picture_words
from s2s_core.lstm import LstmConfig, LstmResult, fields, frames, lstm_gates
from s2s_core.lstm import compute as model
from s2s_core.lstm.charts import LABELS, RUNS, figure
from s2s_core.lstm.code import script
from s2s_core.lstm.compute import GATES, frozen_config, lstm_weights
from s2s_core.lstm.diagram import LEGEND, WORDS, lstm_cell_dot
from s2s_core.lstm.frames import h_answer
from s2s_core.lstm.picture import picture_data
from s2s_ui import gated
from s2s_ui.cache import cached_result
from s2s_ui.charts import cached_spec
from s2s_ui.explainer import explainer
from s2s_ui.i18n import lang, t
from s2s_ui.state import Page, TryCase
from s2s_ui.widgets import check_badge, code_expander, notice_list, predict_then_reveal

PAGE = Page("lstm", fields.FIELDS)
F = fields.GATED


@cached_result(max_entries=256)
def compute(config: LstmConfig) -> LstmResult:
    return lstm_gates(config)


@cached_result(max_entries=64)
def weights(E: int, H: int, seed: int):
    return lstm_weights(E, H, seed)


@cached_spec(max_entries=256)
def chart_spec(kind: str, config: LstmConfig, step: int, language: str) -> list:
    """The Vega-Lite specs of one figure, cached by value: building Altair specs costs far more than the math.

    Not validated here: tests/core validate every figure's structure, which does not depend on the numbers.
    """
    labels, titles = words(language, "lstm.chart", LABELS), words(language, "lstm.gate_title", GATES)
    return figure(kind, compute(config), config.forces, step, labels, titles, words(language, "lstm", RUNS))


def draw_figure(kind: str, config: LstmConfig, step: int = 0, where=None) -> None:
    gated.draw_all(chart_spec(kind, config, step, lang()), where)


@cached_spec(max_entries=256)
def picture_spec(config: LstmConfig, before: LstmConfig | None, language: str, first: int) -> dict:
    """The cell diagram at step `first` (the slider moves it in the browser), the previous input faint in the strip."""
    texts = picture_words("lstm", language, bool(config.forces))
    pic = picture_data(compute(config), config, texts, compute(before) if before is not None else None)
    return cell_chart(pic, texts, step_param(STEP_PARAM, config.seq.S, first, translate(language, "steps.label")))


CELL = gated.Cell(PAGE, F, model, frames, compute=compute, weights=weights, figure=draw_figure)


def cases() -> list[TryCase]:
    """Prepared states (links): both defaults have four words, so steps 2-4 exist in either language."""
    f, i = F.override("f"), F.override("i")
    return [
        TryCase("lstm.try.freeze", "lstm.try.freeze_note", {f.steps.key: "2,3,4", i.steps.key: "2,3,4"}),
        TryCase("lstm.try.forget", "lstm.try.forget_note", {f.steps.key: "3", f.to.key: "0"}),
        *gated.example_cases(CELL),
    ]


def show_check(config: LstmConfig) -> None:
    result = compute(config)
    st.subheader(t("lstm.check_heading"))
    check_badge(t("lstm.check_what"), result.max_abs_diff, tol=1e-9)
    run = result.run
    final = {"h_n": vec(result.torch_h_n), "c_n": vec(result.torch_c_n), "h": vec(run.h[-1]), "c": vec(run.c[-1])}
    st.caption(t("lstm.final_states", **final, n_params=result.n_params))


def show_gates(config: LstmConfig) -> None:
    """All steps' gates, then the h-vs-c diagram and its numbers (the two states are the main picture)."""
    st.caption(t("lstm.all_steps_caption", **legend_words(lang())))
    draw_figure("gates", config)
    st.subheader(t("lstm.hc_heading"))
    left, right = st.columns([2, 3])
    left.graphviz_chart(lstm_cell_dot(words(lang(), "lstm.diagram", WORDS)), width="stretch")
    with right:
        st.markdown(t("lstm.hc_intro", **{name: t(key) for name, key in LEGEND.items()}))
        st.markdown(t("lstm.hc_numbers", **{k: num(v) for k, v in largest_states(compute(config).run).items()}))
        st.caption(t("lstm.hc_output"))


def show_quiz(config: LstmConfig) -> None:
    """Predict an edit's effect: freeze the cell (c stays c_1) — does h stay h_1? Graded on that frozen run."""
    frozen_at = frozen_config(config)
    if frozen_at is None:
        st.caption(t("lstm.quiz_short"))
        return
    frozen = compute(frozen_at).forced
    o = frozen.gates["o"].value  # (S, H)
    predict_then_reveal(
        "lstm_quiz",
        t("lstm.quiz_question"),
        [t("lstm.quiz_stays"), t("lstm.quiz_moves")],
        t(f"lstm.quiz_{h_answer(frozen)}"),
        t(
            "lstm.quiz_explain",
            c1=vec(frozen.c[0]),
            o1=vec(o[0]),
            o_last=vec(o[-1]),
            h1=vec(frozen.h[0]),
            h_last=vec(frozen.h[-1]),
            last=config.seq.S,
        ),
    )


def show_notice(own: bool) -> None:
    """The notices; the last one and the caption say whose weights these are (seeded, or the learner's file)."""
    keys = [f"lstm.notice_{i}" for i in range(1, 5)] + ["lstm.notice_5_own" if own else "lstm.notice_5"]
    notice_list(keys, **legend_words(lang()))
    st.caption(t("own.more" if own else "lstm.untrained_more"))


parsed, sizes, forced = gated.first_screen(
    CELL,
    explainer("lstm"),
    lambda config: gated.show_cell_picture(CELL, config, picture_spec),
    show_quiz,
    cases(),
)
PAGE.tabs(
    [
        ("lstm.tab_override", lambda: gated.show_override(CELL, parsed.need(), forced)),
        ("ui.tab_steps", lambda: gated.show_step(CELL, parsed.need())),
        ("lstm.tab_gates", lambda: show_gates(parsed.need())),
        ("ui.tab_tables", lambda: gated.show_weights(CELL, sizes)),
        ("ui.tab_check", lambda: show_check(parsed.need())),
        ("ui.tab_code", lambda: code_expander(script(forced or parsed.need()), file_name="lstm_gates.py")),
        ("ui.tab_notice", lambda: show_notice(sizes.own is not None)),
    ]
)
