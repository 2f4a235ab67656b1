"""Page: attention weighting — scores → softmax over source positions → weighted sum → context."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from s2s_core.attention import AttentionConfig, AttentionResult, attention_weighting, parse_config
from s2s_core.attention.charts import PICK_PARAM, STEP_PARAM, attention_picture
from s2s_core.attention.code import script
from s2s_core.attention.compute import DEFAULT_SOURCES, DEFAULT_WEIGHTS, MAX_DIM, pad_what_if
from s2s_core.attention.frames import (
    layout_of,
    picture_frames,
    position_label,
    step_label,
    step_sum_text,
    weighted_sum_text,
)
from s2s_core.errors import InputError
from s2s_core.fmt import num, vec
from s2s_ui.cache import cached_result
from s2s_ui.catalog import translate
from s2s_ui.charts import cached_spec
from s2s_ui.explainer import TryCase, before_after, details, explainer, try_this
from s2s_ui.i18n import lang, t
from s2s_ui.link import linked
from s2s_ui.steps import StepEvent, step_param, step_view
from s2s_ui.widgets import (
    check_badge,
    code_expander,
    matrix_input,
    notice_list,
    predict_then_reveal,
    reset_button,
    revealed,
    show_error,
)

KEYS = ["att_src", "att_steps", "att_pad", "att_mode", "att_dim", "att_step"]
QUIZ = "att_quiz"
CASES = [
    TryCase("attention.try.one_label", "attention.try.one_note", {"att_steps": "0,0,1;1,0,0"}),
    TryCase("attention.try.pad_label", "attention.try.pad_note", {"att_pad": "s1"}),
    TryCase(
        "attention.try.scores_label", "attention.try.scores_note", {"att_mode": "scores", "att_steps": "0,0,8;1,2,3"}
    ),
    TryCase("attention.try.lines_label", "attention.try.lines_note", {"att_dim": "3", "att_src": "1,0,2;0,3,1;2,2,0"}),
]


@cached_result(max_entries=256)
def compute(config: AttentionConfig) -> AttentionResult:
    return attention_weighting(config)


def read_inputs() -> AttentionConfig | None:
    """Widgets -> validated config; None (with a message naming the field) when an input is bad."""
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
    # D and PAD share a row (the controls column is narrow; the first screen must hold all of it).
    left, right = st.columns([1, 1.7])  # PAD's chosen positions need the room more than D's one digit
    D = linked(
        left.number_input,
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
        right.multiselect,
        t("attention.pad_label"),
        options,
        key="att_pad",
        default=[],
        help=t("attention.pad_help"),
        placeholder=t("ui.choose_options"),
    )
    if sources is None or steps is None:
        return None
    try:
        return parse_config(sources, steps, mode, [label in pad for label in options])
    except InputError as err:
        show_error(err)
        return None


@cached_spec(max_entries=256)
def chart_spec(config: AttentionConfig, before: AttentionConfig | None, language: str, first_step: int) -> Any:
    """The picture's finished Vega-Lite spec, cached by value (building it in Altair costs ~10x the math)."""
    result = compute(config)
    words = {k: translate(language, f"attention.chart.{k}") for k in ("context", "term", "source", "pad", "link_aria")}
    previous = (compute(before), before.pad) if before is not None else None
    picture = picture_frames(result, config.pad, words, before=previous)
    layout = layout_of(result)
    labels = {
        k: translate(language, f"attention.chart.{k}") for k in ("axis_x", "axis_y", "position", "weight", "before")
    }
    for k in ("title", "subtitle", "description"):
        labels[k] = translate(language, f"attention.chart.{k}_{layout}")
    T = result.weights.shape[0]
    param = step_param(STEP_PARAM, T, first_step, translate(language, "steps.label"))
    # Not validated here: tests/core/test_attention.py validates the picture's structure.
    return attention_picture(picture, labels, param)


def follow_step(result: AttentionResult, pad: tuple[bool, ...], event: StepEvent) -> None:
    """Under the picture, for the slider's step: the weighted sum in one line, and the clicked source's term."""
    step = event.step - 1
    st.markdown(t("attention.step_sum", step=step_label(step), expr=step_sum_text(result, step)))
    picked = event.first(PICK_PARAM, "position")
    names = [position_label(s) for s in range(result.values.shape[0])]
    if picked not in names:
        st.caption(t("attention.pick_hint"))
        return
    s = names.index(picked)
    fmt = dict(position=picked, step=step_label(step), context=vec(result.contexts[step]))
    if pad[s]:
        st.markdown(t("attention.pick_pad", **fmt))
        return
    weight, vector, product = num(float(result.weights[step, s])), vec(result.values[s]), vec(result.terms[step, s])
    st.markdown(t("attention.pick_line", weight=weight, vector=vector, product=product, **fmt))


def show_picture(config: AttentionConfig) -> None:
    """The picture with its step slider and Play; before/after keeps the previous input faint behind."""
    before = before_after("att_picture", config)
    result = compute(config)
    T = result.weights.shape[0]
    step_view(
        "att_step",
        lambda first: chart_spec(config, before, lang(), first),
        T,
        param=STEP_PARAM,
        follow=lambda event: follow_step(result, config.pad, event),
        selections=(PICK_PARAM,),
    )


def show_steps(config: AttentionConfig, result: AttentionResult) -> None:
    """Each decoder step written out: weights, their sum, the weighted sum per component, the context."""
    st.caption(t("attention.pipeline"))
    S, D = result.values.shape
    positions = ", ".join(position_label(s) for s in range(S))
    pad_positions = [position_label(s) for s in range(S) if config.pad[s]]
    for step in range(result.weights.shape[0]):
        with st.container(border=True):
            st.markdown(f"**{t('attention.step_heading', step=step_label(step))}**")
            if config.mode == "scores":
                st.markdown(
                    t("attention.scores_line", scores=vec(result.scores[step]), masked=vec(result.masked_scores[step]))
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


def show_tables(result: AttentionResult) -> None:
    """The weights and the vectors as plain tables (every number written by fmt)."""
    T, S = result.weights.shape
    steps, positions = [step_label(i) for i in range(T)], [position_label(s) for s in range(S)]
    st.markdown(f"**{t('attention.table_weights')}**")
    weights = pd.DataFrame([[num(float(w)) for w in row] for row in result.weights], index=steps, columns=positions)
    st.table(weights)
    st.markdown(f"**{t('attention.table_vectors')}**")
    names = positions + [t("attention.chart.context", step=s, vector="").strip() for s in steps]
    rows = [vec(v) for v in result.values] + [vec(c) for c in result.contexts]
    st.table(pd.DataFrame({t("attention.table_vector"): rows}, index=names))


def show_quiz(config: AttentionConfig, result: AttentionResult) -> None:
    """Predict the effect of an edit before making it: mark step t1's heaviest position as PAD."""
    what = pad_what_if(config, result, step=0)
    if what is None:
        st.caption(t("attention.quiz_needs_two"))
        return
    position, step = position_label(what.position), step_label(what.step)
    correct = vec(what.after)
    # Three candidates (the real recomputation, the term just deleted, no change), in a fixed sorted order.
    options = sorted({correct, vec(what.dropped), vec(what.now)})
    predict_then_reveal(
        QUIZ,
        t("attention.quiz_question", position=position, step=step),
        options,
        correct,
        t(
            "attention.quiz_explain",
            position=position,
            step=step,
            weights=vec(what.weights_after),
            after=correct,
            dropped=vec(what.dropped),
            rest=num(what.rest),
        ),
    )


def show_notice() -> None:
    # notice_3 says how PAD rescales the other weights: that is how the question is answered, so it waits.
    shown = [1, 2, 3, 4] if revealed(QUIZ) else [1, 2, 4]
    notice_list([f"attention.notice_{i}" for i in shown])
    st.info(t("attention.cell_vs_context"), icon=":material/lightbulb:")


controls, picture = explainer("attention")
with controls:
    config = read_inputs()
    left, right = st.columns(2)  # side by side: both stay on the first 1280 x 900 screen
    try_this(CASES, KEYS, where=left)
    with right:
        reset_button(KEYS)
if config is not None:
    result = compute(config)
    with picture:
        show_picture(config)
    show_quiz(config, result)
    details(
        [
            ("ui.tab_steps", lambda: show_steps(config, result)),
            ("ui.tab_tables", lambda: show_tables(result)),
            ("ui.tab_check", lambda: check_badge(t("attention.check_what"), result.max_abs_diff, tol=1e-9)),
            ("ui.tab_code", lambda: code_expander(script(config), file_name="attention_weighting.py")),
            ("ui.tab_notice", show_notice),
        ],
        key="attention_tabs",
    )
else:
    with picture:
        st.info(t("attention.cell_vs_context"), icon=":material/lightbulb:")
