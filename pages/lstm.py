"""Page: LSTM gates — nn.LSTM's own weights split into i, f, g, o; each step by hand; h vs c; gate overrides."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from s2s_core.errors import InputError
from s2s_core.fmt import num, vec
from s2s_core.gated.charts import gate_heatmaps, override_lines, states_heatmaps, step_charts
from s2s_core.gated.forcing import parse_forces
from s2s_core.gated.frames import first_difference, largest_states, weight_rows
from s2s_core.lstm import LstmConfig, LstmResult, lstm_gates, parse_config
from s2s_core.lstm.code import script
from s2s_core.lstm.compute import FORCEABLE, GATES
from s2s_core.lstm.diagram import lstm_cell_dot
from s2s_core.lstm.frames import (
    equations,
    gates_frame,
    mean_openness,
    override_frame,
    reading,
    states_frame,
    step_bars,
    step_table,
)
from s2s_ui.catalog import translate
from s2s_ui.charts import cached_spec, draw
from s2s_ui.gated import pick_step, read_cell_inputs, read_forces
from s2s_ui.i18n import lang, t
from s2s_ui.widgets import (
    check_badge,
    code_expander,
    notice_list,
    page_header,
    predict_then_reveal,
    show_error,
)

FORCE_DEFAULT = {"i": 0, "f": 1, "o": 0}  # the values that make "freeze the cell" one click away
CHART_KEYS = ("step", "component", "value", "gate", "gate_value", "quantity", "gates_title", "states_title", "run")


@st.cache_data(max_entries=256, show_spinner=False)
def compute(config: LstmConfig) -> LstmResult:
    return lstm_gates(config)


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
    elif kind == "states":
        titles = {"c": tr("chart.c_title"), "h": tr("chart.h_title")}
        charts = states_heatmaps(states_frame(run, result.labels), titles, labels)
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


def show_check(result: LstmResult) -> None:
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


def show_step(config: LstmConfig, result: LstmResult) -> int:
    st.subheader(t("lstm.step_heading"))
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
    return step


def show_all_steps(config: LstmConfig) -> None:
    st.subheader(t("lstm.all_steps_heading"))
    st.caption(t("lstm.all_steps_caption"))
    figure("gates", config)


def show_h_vs_c(config: LstmConfig, result: LstmResult) -> None:
    st.subheader(t("lstm.hc_heading"))
    left, right = st.columns([2, 3])
    dot = lstm_cell_dot({k: t(f"lstm.diagram.{k}") for k in ("gates", "output", "next_c", "next_h", "carry", "expose")})
    left.graphviz_chart(dot, width="stretch")
    with right:
        st.markdown(t("lstm.hc_intro"))
        st.markdown(t("lstm.hc_numbers", **{k: num(v) for k, v in largest_states(result.run).items()}))
        figure("states", config)
        st.caption(t("lstm.hc_output"))


def freeze_from_step_2(S: int) -> None:
    """Button callback: f = 1 and i = 0 from step 2 on, o free (callbacks run before widgets are drawn)."""
    later = list(range(2, S + 1))
    st.session_state.update(
        {"lstm_force_f": later, "lstm_force_f_to": 1, "lstm_force_i": later, "lstm_force_i_to": 0, "lstm_force_o": []}
    )


def show_override(config: LstmConfig, result: LstmResult) -> LstmConfig:
    """The override experiment; returns the config with the overrides (for the code expander)."""
    st.subheader(t("lstm.override_heading"))
    st.caption(t("lstm.override_intro"))
    raw = read_forces("lstm", result.labels, FORCEABLE, FORCE_DEFAULT, freeze_from_step_2)
    try:
        forces = parse_forces("lstm", raw, FORCEABLE, config.seq.S)
    except InputError as err:
        show_error(err)
        return config
    if not forces:
        st.info(t("lstm.override_none"), icon=":material/touch_app:")
        return config
    forced_config = replace(config, forces=forces)
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
    return forced_config


def show_weights(result: LstmResult) -> None:
    with st.expander(t("lstm.weights_heading")):
        st.caption(
            t(
                "lstm.weights_caption",
                ih_shape=" × ".join(map(str, result.weight_ih.shape)),
                hh_shape=" × ".join(map(str, result.weight_hh.shape)),
            )
        )
        st.caption(t("lstm.weights_table_caption"))
        st.dataframe(weight_rows(result.weight_ih, GATES, t("lstm.block")), hide_index=True, width="stretch")


def show_quiz(result: LstmResult, step: int) -> None:
    opens = mean_openness(result.run, step)
    names = {g: t(f"lstm.gate_name_{g}") for g in ("i", "f", "o")}
    best = max(opens, key=opens.get)
    predict_then_reveal(
        "lstm_quiz",
        t("lstm.quiz_question", step=step + 1),
        list(names.values()),
        names[best],
        t("lstm.quiz_explain", step=step + 1, **{g: num(v) for g, v in opens.items()}),
    )


page_header("lstm")
st.caption(t("lstm.untrained"))
config = read_cell_inputs("lstm", parse_config)
if config is not None:
    result = compute(config)
    show_check(result)
    step = show_step(config, result)
    show_all_steps(config)
    show_h_vs_c(config, result)
    code_config = show_override(config, result)
    show_weights(result)
    show_quiz(result, step)
    notice_list([f"lstm.notice_{i}" for i in range(1, 6)])
    code_expander(script(code_config), file_name="lstm_gates.py")
