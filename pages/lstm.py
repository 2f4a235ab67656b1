"""Page: LSTM gates — nn.LSTM's own weights split into i, f, g, o; each step by hand; h vs c; gate overrides."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from s2s_core.fmt import num, vec
from s2s_core.gated.charts import gate_heatmaps, override_lines, step_charts
from s2s_core.gated.forcing import forces_from
from s2s_core.gated.frames import first_difference, keeps_moving, largest_states, weight_rows
from s2s_core.gated.inputs import parse_sizes
from s2s_core.gated.picture import STEP_PARAM, cell_chart
from s2s_core.lstm import LstmConfig, LstmResult, lstm_gates, parse_config
from s2s_core.lstm.code import script
from s2s_core.lstm.compute import FORCEABLE, FREEZE, FREEZE_FROM, GATES, lstm_weights
from s2s_core.lstm.diagram import lstm_cell_dot
from s2s_core.lstm.frames import (
    equations,
    gates_frame,
    override_frame,
    reading,
    step_bars,
    step_table,
)
from s2s_core.lstm.picture import picture_data
from s2s_ui.cache import cached_result
from s2s_ui.catalog import translate
from s2s_ui.charts import cached_spec, draw
from s2s_ui.explainer import TryCase, details, explainer
from s2s_ui.gated import CellInputs, CellPage, example_cases, first_screen, pick_step, picture_words, show_cell_picture
from s2s_ui.i18n import lang, t
from s2s_ui.steps import step_param
from s2s_ui.widgets import check_badge, code_expander, notice_list, predict_then_reveal

FORCE_DEFAULT = {"i": 0, "f": 1, "o": 0}  # the values that make "freeze the cell" one click away
CHART_KEYS = ("step", "component", "value", "gate", "gate_value", "quantity", "gates_title", "states_title", "run")
# Prepared states (links): both defaults have four words, so steps 2-4 exist in either language.
CASES = (
    TryCase("lstm.try.freeze", "lstm.try.freeze_note", {"lstm_force_f": "2,3,4", "lstm_force_i": "2,3,4"}),
    TryCase("lstm.try.forget", "lstm.try.forget_note", {"lstm_force_f": "3", "lstm_force_f_to": "0"}),
    *example_cases("lstm"),
)


@cached_result(max_entries=256)
def compute(config: LstmConfig) -> LstmResult:
    return lstm_gates(config)


@cached_result(max_entries=64)
def weights(E: int, H: int, seed: int):
    return lstm_weights(E, H, seed)


@cached_spec(max_entries=256)
def chart_spec(kind: str, config: LstmConfig, step: int, language: str) -> list:
    """The Vega-Lite specs of one figure, cached by value: building Altair specs costs far more than the math."""
    result = compute(config)
    run = result.run

    def tr(key: str) -> str:
        return translate(language, f"lstm.{key}")

    labels = {k: tr(f"chart.{k}") for k in CHART_KEYS}
    gate_titles = {g: tr(f"gate_title.{g}") for g in GATES}
    if kind == "step":
        charts = step_charts(*step_bars(run, step), labels)
    elif kind == "gates":
        charts = gate_heatmaps(gates_frame(run, result.labels), ("f", "i", "g", "o"), gate_titles, labels)
    elif kind == "override":
        names = {"natural": tr("natural"), "forced": tr("forced")}
        frame = override_frame(run, result.forced, result.labels, names)
        charts = override_lines(frame, {"c": tr("chart.c_over"), "h": tr("chart.h_over")}, labels)
    else:  # "forced_gates"
        charts = gate_heatmaps(gates_frame(result.forced, result.labels, config.forces), FORCEABLE, gate_titles, labels)
    # Not validated here: tests/core validate every chart's structure, which does not depend on the numbers.
    return list(charts)


def figure(kind: str, config: LstmConfig, step: int = 0, where=None) -> None:
    """Every chart of one figure, one under the other (in `where`'s columns when given)."""
    specs = chart_spec(kind, config, step, lang())
    for spec, place in zip(specs, where or [st.container()] * len(specs), strict=True):
        draw(place, spec)


@cached_spec(max_entries=256)
def picture_spec(config: LstmConfig, before: LstmConfig | None, language: str, first: int) -> dict:
    """The cell diagram at step `first` (the slider moves it in the browser), the previous input faint in the strip."""
    words = picture_words("lstm", language, bool(config.forces))
    pic = picture_data(compute(config), config, words, compute(before) if before is not None else None)
    return cell_chart(pic, words, step_param(STEP_PARAM, config.seq.S, first, translate(language, "steps.label")))


def show_picture(config: LstmConfig) -> None:
    """The main picture: the cell at one step (of the forced run when a gate is overridden), c and h under it."""
    show_cell_picture(PAGE, config, picture_spec, reading)


def show_check(config: LstmConfig) -> None:
    result = compute(config)
    st.subheader(t("lstm.check_heading"))
    check_badge(t("lstm.check_what"), result.max_abs_diff, tol=1e-9)
    run = result.run
    st.caption(
        t(
            "lstm.final_states",
            h_n=vec(result.torch_h_n),
            c_n=vec(result.torch_c_n),
            h=vec(run.h[-1]),
            c=vec(run.c[-1]),
            n_params=result.n_params,
        )
    )


def show_step(config: LstmConfig) -> None:
    result = compute(config)
    step = pick_step("lstm", result.labels)
    run = result.run
    st.caption(t("lstm.equations_caption"))
    st.code("\n".join(equations(result, run, step)), language=None, wrap_lines=True)
    figure("step", config, step, where=st.columns(2))
    left, right = st.columns([3, 2])
    with left:
        st.caption(t("lstm.table_caption"))
        st.dataframe(step_table(run, step), hide_index=True, width="stretch")
    with right:
        read = reading(run, step)
        none = t("lstm.none")
        st.markdown(f"**{t('lstm.reading_title', step=step + 1)}**")
        st.markdown(
            "\n".join(f"- {t(f'lstm.reading_{k}', list=read[k] or none)}" for k in ("kept", "written", "exposed"))
        )


def show_gates(config: LstmConfig) -> None:
    """All steps' gates, then the h-vs-c diagram and its numbers (the two states are the main picture)."""
    st.caption(t("lstm.all_steps_caption"))
    figure("gates", config)
    st.subheader(t("lstm.hc_heading"))
    left, right = st.columns([2, 3])
    dot = lstm_cell_dot({k: t(f"lstm.diagram.{k}") for k in ("gates", "output", "next_c", "next_h", "carry", "expose")})
    left.graphviz_chart(dot, width="stretch")
    with right:
        st.markdown(t("lstm.hc_intro"))
        st.markdown(t("lstm.hc_numbers", **{k: num(v) for k, v in largest_states(compute(config).run).items()}))
        st.caption(t("lstm.hc_output"))


def freeze_from_step_2(S: int) -> None:
    """Button callback: f = 1 and i = 0 from step 2 on, o free (callbacks run before widgets are drawn)."""
    later = list(range(FREEZE_FROM, S + 1))
    st.session_state.update(
        {"lstm_force_f": later, "lstm_force_f_to": 1, "lstm_force_i": later, "lstm_force_i_to": 0, "lstm_force_o": []}
    )


def show_override(config: LstmConfig, forced_config: LstmConfig | None) -> None:
    """The override experiment's results (its controls sit beside the picture): both runs' c and h."""
    st.caption(t("lstm.override_intro"))
    result = compute(config)
    if forced_config is None:
        st.info(t("lstm.override_none"), icon=":material/touch_app:")
        return
    forced = compute(forced_config).forced
    natural = result.run
    figure("override", forced_config)
    st.markdown(
        t(
            "lstm.override_result",
            c_nat=vec(natural.c[-1]),
            h_nat=vec(natural.h[-1]),
            c_for=vec(forced.c[-1]),
            h_for=vec(forced.h[-1]),
        )
    )
    first = first_difference(natural, forced)
    st.caption(t("lstm.override_same") if first is None else t("lstm.override_first", step=first + 1))
    with st.expander(t("lstm.forced_gates")):
        figure("forced_gates", forced_config)


def show_weights(inputs: CellInputs) -> None:
    """Needs only E, H and the seed: drawn even while the sentence or a table cell is bad."""
    E, H, seed = parse_sizes("lstm", inputs.E, inputs.H, inputs.seed)
    weight_ih, weight_hh = weights(E, H, seed)
    st.subheader(t("lstm.weights_heading"))
    st.caption(
        t(
            "lstm.weights_caption",
            ih_shape=" × ".join(map(str, weight_ih.shape)),
            hh_shape=" × ".join(map(str, weight_hh.shape)),
        )
    )
    st.caption(t("lstm.weights_table_caption"))
    st.dataframe(weight_rows(weight_ih, GATES, t("lstm.block")), hide_index=True, width="stretch")


def show_quiz(config: LstmConfig) -> None:
    """Predict an edit's effect: freeze the cell (c stays c_1) — does h stay h_1? Graded on that frozen run."""
    S = config.seq.S
    if S < FREEZE_FROM:
        st.caption(t("lstm.quiz_short"))
        return
    frozen = compute(replace(config, forces=forces_from(FREEZE, S, FREEZE_FROM))).forced
    stays, moves = t("lstm.quiz_stays"), t("lstm.quiz_moves")
    o = frozen.gates["o"].value  # (S, H)
    predict_then_reveal(
        "lstm_quiz",
        t("lstm.quiz_question"),
        [stays, moves],
        moves if keeps_moving(frozen.h) else stays,
        t(
            "lstm.quiz_explain",
            c1=vec(frozen.c[0]),
            o1=vec(o[0]),
            o_last=vec(o[-1]),
            h1=vec(frozen.h[0]),
            h_last=vec(frozen.h[-1]),
            last=S,
        ),
    )


def show_notice() -> None:
    notice_list([f"lstm.notice_{i}" for i in range(1, 6)])
    st.caption(t("lstm.untrained_more"))


PAGE = CellPage("lstm", parse_config, compute, FORCEABLE, FORCE_DEFAULT, freeze_from_step_2, CASES)
controls, picture = explainer("lstm")
inputs, forced_config = first_screen(PAGE, controls, picture, show_picture, show_quiz)
details(
    [
        ("lstm.tab_override", lambda: show_override(inputs.need(), forced_config)),
        ("ui.tab_steps", lambda: show_step(inputs.need())),
        ("lstm.tab_gates", lambda: show_gates(inputs.need())),
        ("ui.tab_tables", lambda: show_weights(inputs)),
        ("ui.tab_check", lambda: show_check(inputs.need())),
        ("ui.tab_code", lambda: code_expander(script(forced_config or inputs.need()), file_name="lstm_gates.py")),
        ("ui.tab_notice", show_notice),
    ],
    key="lstm_tabs",
)
