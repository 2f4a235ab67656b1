"""Page: GRU — nn.GRU's own weights split into r, z, n; each step by hand; no cell state; LSTM vs GRU sizes."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from s2s_core.fmt import num, vec
from s2s_core.gated.charts import gate_heatmaps, override_lines, step_charts
from s2s_core.gated.forcing import forces_from
from s2s_core.gated.frames import first_difference, largest_states, weight_rows
from s2s_core.gated.inputs import parse_sizes
from s2s_core.gated.picture import STEP_PARAM, cell_chart
from s2s_core.gru import GruConfig, GruResult, gru_gates, parse_config
from s2s_core.gru.charts import params_chart
from s2s_core.gru.code import script
from s2s_core.gru.compare import Comparison
from s2s_core.gru.compare import compare as count_parameters
from s2s_core.gru.compute import FORCEABLE, GATES, RESET_SHUT, gru_weights
from s2s_core.gru.diagram import gru_cell_dot
from s2s_core.gru.frames import (
    comparison_table,
    equations,
    gates_frame,
    mix_parts,
    override_frame,
    params_frame,
    reading,
    step_bars,
    step_table,
)
from s2s_core.gru.picture import picture_data
from s2s_ui.cache import cached_result
from s2s_ui.catalog import translate
from s2s_ui.charts import cached_spec, draw
from s2s_ui.explainer import TryCase, details, explainer
from s2s_ui.gated import CellInputs, CellPage, example_cases, first_screen, pick_step, picture_words, show_cell_picture
from s2s_ui.i18n import lang, t
from s2s_ui.steps import step_param
from s2s_ui.widgets import check_badge, code_expander, notice_list, predict_then_reveal, revealed

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
# Prepared states (links): both defaults have four words, so steps 1-4 exist in either language.
CASES = (
    TryCase("gru.try.freeze", "gru.try.freeze_note", {"gru_force_z": "2,3,4"}),
    TryCase("gru.try.replace", "gru.try.replace_note", {"gru_force_z": "1,2,3,4", "gru_force_z_to": "0"}),
    *example_cases("gru"),
)


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


@cached_spec(max_entries=256)
def picture_spec(config: GruConfig, before: GruConfig | None, language: str, first: int) -> dict:
    """The cell diagram at step `first` (the slider moves it in the browser), the previous input's h in the strip."""
    words = picture_words("gru", language, bool(config.forces))
    pic = picture_data(compute(config), config, words, compute(before) if before is not None else None)
    return cell_chart(pic, words, step_param(STEP_PARAM, config.seq.S, first, translate(language, "steps.label")))


def show_picture(config: GruConfig) -> None:
    """The main picture: the cell at one step (of the forced run when a gate is overridden), h under it; then
    the parameter counts of both cells at these sizes, side by side."""
    show_cell_picture(PAGE, config, picture_spec, reading)
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


def show_step(config: GruConfig) -> None:
    result = compute(config)
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


def show_gates(config: GruConfig) -> None:
    """All steps' gates, then the one-state diagram and its numbers (h itself is the main picture)."""
    st.caption(t("gru.all_steps_caption"))
    figure("gates", config)
    st.subheader(t("gru.h_heading"))
    left, right = st.columns([2, 3])
    dot = gru_cell_dot({k: t(f"gru.diagram.{k}") for k in ("gates", "candidate", "output", "next_h", "keep", "take")})
    left.graphviz_chart(dot, width="stretch")
    with right:
        st.markdown(t("gru.h_intro"))
        st.markdown(t("gru.h_numbers", max_h=num(largest_states(compute(config).run)["max_h"])))


def freeze_from_step_2(S: int) -> None:
    """Button callback: z = 1 from step 2 on (callbacks run before widgets are drawn)."""
    st.session_state.update({"gru_force_z": list(range(2, S + 1)), "gru_force_z_to": 1, "gru_force_r": []})


def show_override(config: GruConfig, forced_config: GruConfig | None) -> None:
    """The override experiment's results (its controls sit beside the picture): both runs' h."""
    st.caption(t("gru.override_intro"))
    result = compute(config)
    if forced_config is None:
        st.info(t("gru.override_none"), icon=":material/touch_app:")
        return
    forced = compute(forced_config).forced
    natural = result.run
    figure("override", forced_config)
    st.markdown(t("gru.override_result", h_nat=vec(natural.h[-1]), h_for=vec(forced.h[-1])))
    first = first_difference(natural, forced)
    st.caption(t("gru.override_same") if first is None else t("gru.override_first", step=first + 1))
    with st.expander(t("gru.forced_gates")):
        figure("forced_gates", forced_config)


def sizes(inputs: CellInputs) -> tuple[int, int, int]:
    return parse_sizes("gru", inputs.E, inputs.H, inputs.seed)


def show_compare(inputs: CellInputs) -> None:
    """Needs only E and H: drawn even while the sentence or a table cell is bad."""
    E, H, _ = sizes(inputs)
    comp = compare(E, H)
    st.caption(t("gru.compare_intro", E=E, H=H))
    names = {k: t(f"gru.col_{k}") for k in ("cell", "blocks", "carries", "params", "formula")}
    st.dataframe(comparison_table(comp, names), hide_index=True, width="stretch")
    figure("params", GruConfig(seq=replace(GruConfig().seq, E=E), H=H))
    st.markdown(t("gru.compare_ratio", gru=comp.totals["gru"], lstm=comp.totals["lstm"]))
    st.markdown(t("gru.compare_keeps"))
    st.info(t("gru.compare_which"), icon=":material/science:")


def show_weights(inputs: CellInputs) -> None:
    """Needs only E, H and the seed: drawn even while the sentence or a table cell is bad."""
    weight_ih, weight_hh = weights(*sizes(inputs))
    st.subheader(t("gru.weights_heading"))
    st.caption(
        t(
            "gru.weights_caption",
            ih_shape=" × ".join(map(str, weight_ih.shape)),
            hh_shape=" × ".join(map(str, weight_hh.shape)),
        )
    )
    st.caption(t("gru.weights_table_caption"))
    st.dataframe(weight_rows(weight_ih, GATES, t("gru.block")), hide_index=True, width="stretch")


def show_quiz(config: GruConfig) -> None:
    """Predict an edit's effect: shut r at every step — does h_(t-1) still reach the last h_t? Graded on that run."""
    S = config.seq.S
    shut = compute(replace(config, forces=forces_from(RESET_SHUT, S))).forced
    kept, taken = mix_parts(shut, S - 1)  # (H,), (H,)
    yes, no = t("gru.quiz_yes"), t("gru.quiz_no")
    reaches = float(kept.abs().max()) > 1e-12
    predict_then_reveal(
        "gru_quiz",
        t("gru.quiz_question"),
        [yes, no],
        yes if reaches else no,
        t(
            "gru.quiz_explain" if reaches else "gru.quiz_explain_first",
            last=S,
            z=vec(shut.gates["z"].value[S - 1]),
            h_prev=vec(shut.h_prev[S - 1]),
            kept=vec(kept),
            taken=vec(taken),
            h=vec(shut.h[S - 1]),
        ),
    )


def show_notice() -> None:
    # notice 3 says what r = 0 leaves in place: the question's answer, so it waits until the question is answered.
    shown = [1, 2, 3, 4] if revealed("gru_quiz") else [1, 2, 4]
    notice_list([f"gru.notice_{i}" for i in shown])
    st.caption(t("gru.untrained_more"))


PAGE = CellPage("gru", parse_config, compute, FORCEABLE, FORCE_DEFAULT, freeze_from_step_2, CASES)
controls, picture = explainer("gru")
inputs, forced_config = first_screen(PAGE, controls, picture, show_picture, show_quiz)
details(
    [
        ("gru.tab_override", lambda: show_override(inputs.need(), forced_config)),
        ("ui.tab_steps", lambda: show_step(inputs.need())),
        ("gru.tab_gates", lambda: show_gates(inputs.need())),
        ("gru.tab_compare", lambda: show_compare(inputs)),
        ("ui.tab_tables", lambda: show_weights(inputs)),
        ("ui.tab_check", lambda: show_check(inputs.need())),
        ("ui.tab_code", lambda: code_expander(script(forced_config or inputs.need()), file_name="gru_by_hand.py")),
        ("ui.tab_notice", show_notice),
    ],
    key="gru_tabs",
)
