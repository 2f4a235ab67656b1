"""Page: attention weighting — scores → softmax over source positions → weighted sum → context."""

from __future__ import annotations

from typing import Any

import streamlit as st

from s2s_core.attention import AttentionConfig, AttentionResult, attention_weighting, parse_config
from s2s_core.attention.charts import attention_charts
from s2s_core.attention.code import script
from s2s_core.attention.compute import DEFAULT_SOURCES, DEFAULT_WEIGHTS, MAX_DIM
from s2s_core.attention.frames import (
    position_label,
    step_label,
    vectors_frame,
    weighted_sum_text,
    weights_frame,
)
from s2s_core.errors import InputError
from s2s_core.fmt import num, vec
from s2s_ui.catalog import translate
from s2s_ui.charts import cached_spec
from s2s_ui.i18n import lang, t
from s2s_ui.link import linked
from s2s_ui.widgets import (
    check_badge,
    code_expander,
    matrix_input,
    notice_list,
    page_header,
    predict_then_reveal,
    reset_button,
    show_error,
)


@st.cache_data(max_entries=256, show_spinner=False)
def compute(config: AttentionConfig) -> AttentionResult:
    return attention_weighting(config)


def read_inputs() -> AttentionConfig | None:
    """Widgets -> validated config; None (with a message naming the field) when an input is bad."""
    st.subheader(t("attention.inputs"))
    st.caption(t("attention.pipeline"))
    mode = linked(
        st.segmented_control,
        t("attention.mode_label"),
        ["weights", "scores"],
        key="att_mode",
        default="weights",
        # A plain dict, not a lambda calling t(): the labels are fixed when the widget is drawn.
        labels={m: t(f"attention.mode_{m}") for m in ("weights", "scores")},
        required=True,
    )
    left, right = st.columns(2)
    with left:
        D = linked(
            st.number_input,
            t("attention.dim_label"),
            key="att_dim",
            default=len(DEFAULT_SOURCES[0]),
            min_value=1,
            max_value=MAX_DIM,
            step=1,
        )
        sources = matrix_input(
            "att_src",
            DEFAULT_SOURCES,
            "attention.field.sources",
            label=t("attention.sources_label"),
            parse=lambda rows: rows,
            n_cols=int(D),
            col_names=[f"d{i + 1}" for i in range(int(D))],
        )
    S = len(sources) if sources else len(DEFAULT_SOURCES)
    options = [position_label(s) for s in range(S)]
    with right:
        steps = matrix_input(
            "att_steps",
            DEFAULT_WEIGHTS,
            "attention.field.steps",
            label=t(f"attention.steps_label_{mode}"),
            parse=lambda rows: rows,
            n_cols=S,
            col_names=options,
        )
        # linked() drops a stale position (a row was removed) before drawing.
        pad = linked(
            st.multiselect,
            t("attention.pad_label"),
            options,
            key="att_pad",
            default=[],
            help=t("attention.pad_help"),
            placeholder=t("ui.choose_options"),
        )
    reset_button(["att_src", "att_steps", "att_pad", "att_mode", "att_dim"])
    if sources is None or steps is None:
        return None
    try:
        return parse_config(sources, steps, mode, [label in pad for label in options])
    except InputError as err:
        show_error(err)
        return None


def show_steps(config: AttentionConfig, result: AttentionResult) -> None:
    """Each decoder step written out: weights, their sum, the weighted sum per component, the context."""
    st.subheader(t("attention.results"))
    S, D = result.values.shape
    positions = ", ".join(position_label(s) for s in range(S))
    pad_positions = [position_label(s) for s in range(S) if config.pad[s]]
    for step in range(result.weights.shape[0]):
        with st.container(border=True):
            st.markdown(f"**{t('attention.step_heading', step=step_label(step))}**")
            if config.mode == "scores":
                st.markdown(
                    t(
                        "attention.scores_line",
                        scores=vec(result.scores[step]),
                        masked=vec(result.masked_scores[step]),
                    )
                )
            st.markdown(
                t(
                    "attention.weights_line",
                    positions=positions,
                    weights=vec(result.weights[step]),
                    total=num(result.weight_sums[step]),
                )
            )
            for d in range(D):
                st.markdown(t("attention.sum_component", d=d + 1, expr=weighted_sum_text(result, step, d)))
            st.markdown(t("attention.context_line", step=step_label(step), vector=vec(result.contexts[step])))
            if step in result.rows_not_one:
                st.warning(
                    t(
                        "attention.not_one",
                        step=step_label(step),
                        total=num(result.given_sums[step]),
                        normalised=vec(result.weights[step]),
                    )
                )
    if pad_positions:
        st.info(t("attention.pad_note", positions=", ".join(pad_positions)))
    check_badge(t("attention.check_what"), result.max_abs_diff, tol=1e-9)


@cached_spec(max_entries=256)
def chart_spec(config: AttentionConfig, language: str) -> Any:
    """The finished Vega-Lite spec, cached by value: building and validating it in Altair costs ~10x the math."""
    result = compute(config)
    labels = {
        k: translate(language, f"attention.chart.{k}")
        for k in (
            "position",
            "step",
            "weight",
            "score",
            "vector",
            "component",
            "value",
            "weights_title",
            "vectors_title",
        )
    }
    context_word = translate(language, "attention.chart.context")
    chart = attention_charts(weights_frame(result, config.pad), vectors_frame(result, context_word), labels)
    # Not validated here: tests/core/test_attention.py validates the chart's structure.
    return chart


def show_charts(config: AttentionConfig) -> None:
    st.vega_lite_chart(spec=chart_spec(config, lang()), width="content")


def show_quiz(result: AttentionResult) -> None:
    """Is the last step's context nearest the vector with the largest weight? Graded by the measured distances."""
    last = result.weights.shape[0] - 1
    best, other = result.dominant[last], result.runner_up[last]
    verdict = result.dominant_vs_rest[last]
    position = position_label(best)
    yes, no = t("attention.quiz_yes"), t("attention.quiz_no")
    explain = dict(
        position=position,
        context=vec(result.contexts[last]),
        vector=vec(result.values[best]),
        d=num(result.distances[last, best]),
    )
    if other is not None:
        explain |= dict(
            other=position_label(other), other_vector=vec(result.values[other]), d2=num(result.distances[last, other])
        )
    predict_then_reveal(
        "att_quiz",
        t("attention.quiz_question", step=step_label(last), weight=num(result.weights[last, best]), position=position),
        [yes, no],
        yes if verdict in ("nearer", "alone") else no,
        t(f"attention.quiz_explain_{verdict}", **explain),
    )


page_header("attention")
config = read_inputs()
if config is not None:
    result = compute(config)
    show_steps(config, result)
    show_charts(config)
    show_quiz(result)
    notice_list([f"attention.notice_{i}" for i in range(1, 5)])
    code_expander(script(config), file_name="attention_weighting.py")
st.info(t("attention.cell_vs_context"), icon=":material/lightbulb:")
