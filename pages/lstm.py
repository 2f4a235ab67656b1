"""Page: LSTM gates — nn.LSTM's own weights split into i, f, g, o; each step by hand; h vs c; gate overrides."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from s2s_core import caps
from s2s_core.errors import InputError
from s2s_core.lstm import LstmConfig, LstmResult, lstm_gates, parse_config
from s2s_core.lstm.charts import gate_heatmaps, override_lines, states_heatmaps, step_charts
from s2s_core.lstm.code import script
from s2s_core.lstm.compute import FORCEABLE, GATES
from s2s_core.lstm.diagram import lstm_cell_dot
from s2s_core.lstm.forcing import parse_forces
from s2s_core.lstm.frames import (
    equations,
    first_difference,
    fmt,
    gates_frame,
    largest_states,
    mean_openness,
    override_frame,
    reading,
    states_frame,
    step_bars,
    step_table,
    vec_text,
    weight_rows,
)
from s2s_core.lstm.inputs import (
    DEFAULT_E,
    DEFAULT_H,
    DEFAULT_SEED,
    DEFAULT_SENTENCE,
    DEFAULT_VECTORS,
    MAX_E,
    MAX_H,
    MAX_S,
    SOURCES,
)
from s2s_ui.catalog import translate
from s2s_ui.i18n import error_text, lang, t
from s2s_ui.widgets import (
    check_badge,
    code_expander,
    matrix_input,
    md_escape,
    notice_list,
    page_header,
    predict_then_reveal,
    reset_button,
)

FORCE_DEFAULT = {"i": 0, "f": 1, "o": 0}  # the values that make "freeze the cell" one click away
INPUT_KEYS = ["lstm_source", "lstm_sentence", "lstm_x", "lstm_E", "lstm_H", "lstm_seed"]
CHART_KEYS = ("step", "component", "value", "gate", "gate_value", "quantity", "gates_title", "states_title", "run")


def show_error(err: InputError) -> None:
    """An InputError as a message; only text params are escaped, so numbers still format ("{limit:g}")."""
    params = {k: md_escape(v) if isinstance(v, str) else v for k, v in err.params.items()}
    st.error(error_text(InputError(err.key, err.field, **params)), icon=":material/error:")


def from_link(key: str, options, default, parse=str) -> None:
    """Seed a choice widget once per session from ?key=<raw option>.

    Why not bind="query-params": a bound choice widget writes its displayed label into the link, and
    these labels hold translated words or the learner's own words, so the link would break.
    """
    if key in st.session_state:
        return
    raw = st.query_params.get(key)
    try:
        value = default if raw is None else parse(raw)
    except (TypeError, ValueError):
        value = default
    st.session_state[key] = value if value in options else default


def steps_from_link(key: str, steps: list[int]) -> None:
    """Seed a step multiselect once per session from ?key=2,3,4 (unknown or repeated steps are dropped)."""
    if key in st.session_state:
        return
    picked: list[int] = []
    for part in str(st.query_params.get(key, "")).split(",")[:MAX_S]:
        if part.strip().isdigit() and int(part) in steps and int(part) not in picked:
            picked.append(int(part))
    st.session_state[key] = picked


def to_link(key: str, value) -> None:
    """Mirror a choice widget's raw value (not its label) into the link; nothing chosen, no parameter."""
    if value is None or value == []:
        st.query_params.pop(key, None)
    else:
        st.query_params[key] = ",".join(map(str, value)) if isinstance(value, list) else str(value)


@st.cache_data(max_entries=256, show_spinner=False)
def compute(config: LstmConfig) -> LstmResult:
    return lstm_gates(config)


@st.cache_data(max_entries=256, show_spinner=False)
def chart_spec(kind: str, config: LstmConfig, step: int, language: str) -> list[dict]:
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
    return [chart.to_dict(validate=False) for chart in charts]


def draw(kind: str, config: LstmConfig, step: int = 0, where=None) -> None:
    """Every chart of one figure, one under the other (in `where`'s columns when given)."""
    specs = chart_spec(kind, config, step, lang())
    for spec, place in zip(specs, where or [st.container()] * len(specs)):
        place.vega_lite_chart(spec=spec, width="stretch")


def read_inputs() -> LstmConfig | None:
    """Widgets -> validated config (no overrides yet); None, with a message naming the field, when bad."""
    st.subheader(t("lstm.inputs"))
    from_link("lstm_source", SOURCES, "sentence")
    source = st.segmented_control(
        t("lstm.source_label"), options=list(SOURCES),
        format_func={s: t(f"lstm.source_{s}") for s in SOURCES}.get, key="lstm_source", required=True,
    )
    to_link("lstm_source", source)
    c1, c2, c3 = st.columns(3)
    E = c1.number_input(t("lstm.E_label"), min_value=1, max_value=MAX_E, value=DEFAULT_E, step=1,
                        key="lstm_E", bind="query-params")
    H = c2.number_input(t("lstm.H_label"), min_value=1, max_value=MAX_H, value=DEFAULT_H, step=1,
                        key="lstm_H", bind="query-params")
    seed = c3.number_input(t("lstm.seed_label"), min_value=0, max_value=caps.MAX_SEED, value=DEFAULT_SEED, step=1,
                           key="lstm_seed", help=t("lstm.seed_help"), bind="query-params")
    sentence, rows = None, None
    if source == "table":
        rows = matrix_input(
            "lstm_x", DEFAULT_VECTORS, "lstm.field.vectors", label=t("lstm.vectors_label"),
            parse=lambda r: r, n_cols=int(E or 1), col_names=[f"x{i + 1}" for i in range(int(E or 1))],
        )
        if rows is None:
            return None
    else:
        sentence = st.text_input(t("lstm.sentence_label"), value=DEFAULT_SENTENCE, key="lstm_sentence",
                                 help=t("lstm.sentence_help"), max_chars=caps.MAX_TEXT_CHARS, bind="query-params")
    reset_button(INPUT_KEYS)
    try:
        return parse_config(source, sentence, rows, E, H, seed)
    except InputError as err:
        show_error(err)
        return None


def step_options(result: LstmResult) -> tuple[list[int], dict[int, str]]:
    """1-based steps and their labels (user words: escaped, since button labels render markdown)."""
    steps = list(range(1, len(result.labels) + 1))
    return steps, {s: md_escape(result.labels[s - 1]) for s in steps}


def pick_step(result: LstmResult) -> int:
    """The step to inspect (0-based); a stale value (the sentence got shorter) falls back to the default."""
    steps, names = step_options(result)
    default = min(2, len(steps))
    from_link("lstm_step", steps, default, parse=int)
    if st.session_state.get("lstm_step") not in steps:
        st.session_state["lstm_step"] = default
    step = st.segmented_control(t("lstm.step_pick"), options=steps, format_func=names.get, key="lstm_step",
                                required=True)
    to_link("lstm_step", step)
    return int(step or default) - 1


def show_check(result: LstmResult) -> None:
    st.subheader(t("lstm.check_heading"))
    check_badge(t("lstm.check_what"), result.max_abs_diff, tol=1e-9)
    run = result.run
    st.caption(t("lstm.final_states", h_n=vec_text(result.torch_h_n), c_n=vec_text(result.torch_c_n),
                 h=vec_text(run.h[-1]), c=vec_text(run.c[-1]), n_params=result.n_params))


def show_step(config: LstmConfig, result: LstmResult) -> int:
    st.subheader(t("lstm.step_heading"))
    step = pick_step(result)
    run = result.run
    st.caption(t("lstm.equations_caption"))
    st.code("\n".join(equations(result, run, step)), language=None, wrap_lines=True)
    draw("step", config, step, where=st.columns(2))
    left, right = st.columns([3, 2])
    with left:
        st.caption(t("lstm.table_caption"))
        st.dataframe(step_table(run, step), hide_index=True, width="stretch")
    with right:
        read = reading(run, step)
        none = t("lstm.none")
        st.markdown(f"**{t('lstm.reading_title', step=step + 1)}**")
        st.markdown("\n".join(f"- {t(f'lstm.reading_{k}', list=read[k] or none)}"
                              for k in ("kept", "written", "exposed")))
    return step


def show_all_steps(config: LstmConfig) -> None:
    st.subheader(t("lstm.all_steps_heading"))
    st.caption(t("lstm.all_steps_caption"))
    draw("gates", config)


def show_h_vs_c(config: LstmConfig, result: LstmResult) -> None:
    st.subheader(t("lstm.hc_heading"))
    left, right = st.columns([2, 3])
    dot = lstm_cell_dot({k: t(f"lstm.diagram.{k}") for k in ("gates", "output", "next_c", "next_h", "carry", "expose")})
    left.graphviz_chart(dot, width="stretch")
    with right:
        st.markdown(t("lstm.hc_intro"))
        st.markdown(t("lstm.hc_numbers", **{k: fmt(v) for k, v in largest_states(result.run).items()}))
        draw("states", config)
        st.caption(t("lstm.hc_output"))


def freeze_from_step_2(S: int) -> None:
    """Button callback: f = 1 and i = 0 from step 2 on, o free (callbacks run before widgets are drawn)."""
    later = list(range(2, S + 1))
    st.session_state.update({"lstm_force_f": later, "lstm_force_f_to": 1, "lstm_force_i": later,
                             "lstm_force_i_to": 0, "lstm_force_o": []})


def read_forces(result: LstmResult) -> dict[str, tuple[list[int], int]]:
    steps, _ = step_options(result)
    raw: dict[str, tuple[list[int], int]] = {}
    for col, gate in zip(st.columns(3), FORCEABLE):
        key = f"lstm_force_{gate}"
        steps_from_link(key, steps)
        # A stale selection (the sentence got shorter) would not be a valid option: drop it first.
        st.session_state[key] = [s for s in (st.session_state[key] or []) if s in steps]
        with col:
            picked = st.multiselect(t("lstm.force_steps", gate=gate), steps, format_func=lambda s: result.labels[s - 1],
                                    key=key, placeholder=t("lstm.force_placeholder"))
            to_link(key, picked)
            value = st.segmented_control(t("lstm.force_value"), options=[0, 1], default=FORCE_DEFAULT[gate],
                                         key=f"{key}_to", required=True, bind="query-params")
        raw[gate] = (picked, value)
    st.button(t("lstm.freeze"), on_click=freeze_from_step_2, args=(len(steps),), disabled=len(steps) < 2)
    return raw


def show_override(config: LstmConfig, result: LstmResult) -> LstmConfig:
    """The override experiment; returns the config with the overrides (for the code expander)."""
    st.subheader(t("lstm.override_heading"))
    st.caption(t("lstm.override_intro"))
    raw = read_forces(result)
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
    draw("override", forced_config)
    st.markdown(t("lstm.override_result", c_nat=vec_text(natural.c[-1]), h_nat=vec_text(natural.h[-1]),
                  c_for=vec_text(forced.c[-1]), h_for=vec_text(forced.h[-1])))
    first = first_difference(natural, forced)
    st.caption(t("lstm.override_same") if first is None else t("lstm.override_first", step=first + 1))
    with st.expander(t("lstm.forced_gates")):
        draw("forced_gates", forced_config)
    return forced_config


def show_weights(result: LstmResult) -> None:
    with st.expander(t("lstm.weights_heading")):
        st.caption(t("lstm.weights_caption", ih_shape=" × ".join(map(str, result.weight_ih.shape)),
                     hh_shape=" × ".join(map(str, result.weight_hh.shape))))
        st.caption(t("lstm.weights_table_caption"))
        st.dataframe(weight_rows(result.weight_ih, GATES, t("lstm.block")), hide_index=True, width="stretch")


def show_quiz(result: LstmResult, step: int) -> None:
    opens = mean_openness(result.run, step)
    names = {g: t(f"lstm.gate_name_{g}") for g in ("i", "f", "o")}
    best = max(opens, key=opens.get)
    predict_then_reveal(
        "lstm_quiz", t("lstm.quiz_question", step=step + 1), list(names.values()), names[best],
        t("lstm.quiz_explain", step=step + 1, **{g: fmt(v) for g, v in opens.items()}),
    )


page_header("lstm")
st.caption(t("lstm.untrained"))
config = read_inputs()
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
