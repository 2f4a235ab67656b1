"""Page: GRU — nn.GRU's own weights split into r, z, n; each step by hand; no cell state; LSTM vs GRU sizes."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from s2s_core.errors import InputError
from s2s_core.fmt import num, vec
from s2s_core.gated.charts import gate_heatmaps, override_lines, states_heatmaps, step_charts
from s2s_core.gated.forcing import parse_forces
from s2s_core.gated.frames import first_difference, largest_states, weight_rows
from s2s_core.gru import GruConfig, GruResult, gru_gates, parse_config
from s2s_core.gru.charts import params_chart
from s2s_core.gru.code import script
from s2s_core.gru.compare import compare
from s2s_core.gru.compute import FORCEABLE, GATES
from s2s_core.gru.diagram import gru_cell_dot
from s2s_core.gru.frames import (
    comparison_table,
    equations,
    gates_frame,
    mean_update,
    override_frame,
    params_frame,
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

FORCE_DEFAULT = {"r": 0, "z": 1}  # z = 1 is "freeze h"; r = 0 is "ignore the old state in the candidate"
CHART_KEYS = (
    "step",
    "component",
    "value",
    "gate",
    "gate_value",
    "quantity",
    "gates_title",
    "states_title",
    "run",
    "params",
    "tensor",
    "cell",
    "shape",
    "params_title",
)


@st.cache_data(max_entries=256, show_spinner=False)
def compute(config: GruConfig) -> GruResult:
    return gru_gates(config)


@cached_spec(max_entries=256)
def chart_spec(kind: str, config: GruConfig, step: int, language: str) -> list:
    """The Vega-Lite specs of one figure, cached by value: building Altair specs costs far more than the math."""

    def tr(key: str) -> str:
        return translate(language, f"gru.{key}")

    labels = {k: tr(f"chart.{k}") for k in CHART_KEYS}
    if kind == "params":
        return [params_chart(params_frame(compare(config.seq.E, config.H)), labels).to_dict(validate=False)]
    result = compute(config)
    run = result.run
    gate_titles = {g: tr(f"gate_title.{g}") for g in GATES}
    if kind == "step":
        charts = step_charts(*step_bars(run, step), labels)
    elif kind == "gates":
        charts = gate_heatmaps(gates_frame(run, result.labels), ("z", "r", "n"), gate_titles, labels, tanh_gates=("n",))
    elif kind == "states":
        charts = states_heatmaps(states_frame(run, result.labels), {"h": tr("h_title")}, labels)
    elif kind == "override":
        names = {"natural": tr("natural"), "forced": tr("forced")}
        charts = override_lines(
            override_frame(run, result.forced, result.labels, names), {"h": tr("chart.h_over")}, labels
        )
    else:  # "forced_gates"
        charts = gate_heatmaps(
            gates_frame(result.forced, result.labels, config.forces), ("z", "r"), gate_titles, labels
        )
    # Not validated here: tests/core validate every chart's structure, which does not depend on the numbers.
    return list(charts)


def figure(kind: str, config: GruConfig, step: int = 0, where=None) -> None:
    """Every chart of one figure, one under the other (in `where`'s columns when given)."""
    specs = chart_spec(kind, config, step, lang())
    for spec, place in zip(specs, where or [st.container()] * len(specs), strict=True):
        draw(place, spec)


def show_check(result: GruResult) -> None:
    st.subheader(t("gru.check_heading"))
    check_badge(t("gru.check_what"), result.max_abs_diff, tol=1e-9)
    st.caption(t("gru.final_states", h_n=vec(result.torch_h_n), h=vec(result.run.h[-1])))


def show_step(config: GruConfig, result: GruResult) -> int:
    st.subheader(t("gru.step_heading"))
    step = pick_step("gru", result.labels)
    run = result.run
    st.caption(t("gru.equations_caption"))
    st.code("\n".join(equations(result, run, step)), language=None, wrap_lines=True)
    figure("step", config, step, where=st.columns(2))
    left, right = st.columns([3, 2])
    with left:
        st.caption(t("gru.table_caption"))
        st.dataframe(step_table(run, step), hide_index=True, width="stretch")
    with right:
        read = reading(run, step)
        none = t("gru.none")
        st.markdown(f"**{t('gru.reading_title', step=step + 1)}**")
        st.markdown("\n".join(f"- {t(f'gru.reading_{k}', list=read[k] or none)}" for k in ("kept", "written", "reset")))
    return step


def show_all_steps(config: GruConfig, result: GruResult) -> None:
    st.subheader(t("gru.all_steps_heading"))
    st.caption(t("gru.all_steps_caption"))
    figure("gates", config)
    st.subheader(t("gru.h_heading"))
    left, right = st.columns([2, 3])
    dot = gru_cell_dot({k: t(f"gru.diagram.{k}") for k in ("gates", "candidate", "output", "next_h", "keep", "take")})
    left.graphviz_chart(dot, width="stretch")
    with right:
        st.markdown(t("gru.h_intro"))
        st.markdown(t("gru.h_numbers", max_h=num(largest_states(result.run)["max_h"])))
        figure("states", config)


def freeze_from_step_2(S: int) -> None:
    """Button callback: z = 1 from step 2 on (callbacks run before widgets are drawn)."""
    st.session_state.update({"gru_force_z": list(range(2, S + 1)), "gru_force_z_to": 1, "gru_force_r": []})


def show_override(config: GruConfig, result: GruResult) -> GruConfig:
    """The override experiment; returns the config with the overrides (for the code expander)."""
    st.subheader(t("gru.override_heading"))
    st.caption(t("gru.override_intro"))
    raw = read_forces("gru", result.labels, FORCEABLE, FORCE_DEFAULT, freeze_from_step_2)
    try:
        forces = parse_forces("gru", raw, FORCEABLE, config.seq.S)
    except InputError as err:
        show_error(err)
        return config
    if not forces:
        st.info(t("gru.override_none"), icon=":material/touch_app:")
        return config
    forced_config = replace(config, forces=forces)
    forced = compute(forced_config).forced
    natural = result.run
    figure("override", forced_config)
    st.markdown(t("gru.override_result", h_nat=vec(natural.h[-1]), h_for=vec(forced.h[-1])))
    first = first_difference(natural, forced)
    st.caption(t("gru.override_same") if first is None else t("gru.override_first", step=first + 1))
    with st.expander(t("gru.forced_gates")):
        figure("forced_gates", forced_config)
    return forced_config


def show_compare(config: GruConfig) -> None:
    st.subheader(t("gru.compare_heading"))
    E, H = config.seq.E, config.H
    comp = compare(E, H)
    st.caption(t("gru.compare_intro", E=E, H=H))
    names = {k: t(f"gru.col_{k}") for k in ("cell", "blocks", "carries", "params", "formula")}
    st.dataframe(comparison_table(comp, names), hide_index=True, width="stretch")
    figure("params", config)
    st.markdown(t("gru.compare_ratio", gru=comp.totals["gru"], lstm=comp.totals["lstm"]))
    st.markdown(t("gru.compare_keeps"))
    st.info(t("gru.compare_which"), icon=":material/science:")


def show_weights(result: GruResult) -> None:
    with st.expander(t("gru.weights_heading")):
        st.caption(
            t(
                "gru.weights_caption",
                ih_shape=" × ".join(map(str, result.weight_ih.shape)),
                hh_shape=" × ".join(map(str, result.weight_hh.shape)),
            )
        )
        st.caption(t("gru.weights_table_caption"))
        st.dataframe(weight_rows(result.weight_ih, GATES, t("gru.block")), hide_index=True, width="stretch")


def show_quiz(result: GruResult, step: int) -> None:
    z = mean_update(result, step)
    old, new = t("gru.quiz_old"), t("gru.quiz_new")
    correct = old if z > 0.5 else new
    predict_then_reveal(
        "gru_quiz",
        t("gru.quiz_question", step=step + 1),
        [old, new],
        correct,
        t("gru.quiz_explain", step=step + 1, z=num(z), answer=correct),
    )


page_header("gru")
st.caption(t("gru.untrained"))
config = read_cell_inputs("gru", parse_config)
if config is not None:
    result = compute(config)
    show_check(result)
    step = show_step(config, result)
    show_all_steps(config, result)
    code_config = show_override(config, result)
    show_compare(config)
    show_weights(result)
    show_quiz(result, step)
    notice_list([f"gru.notice_{i}" for i in range(1, 5)])
    code_expander(script(code_config), file_name="gru_by_hand.py")
