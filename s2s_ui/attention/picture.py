"""The attention page's picture: the weighted sum drawn, its step slider inside, and the source picked with a click.

The picked source is a field of the page (s2s_core/attention/fields.PICK): a click writes it into the link, and a
link (or an earlier click, after an edit) starts the chart's own selection from it, so a shared link reopens with
the same source ringed and its share written out under the picture.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from s2s_core.attention import AttentionConfig, AttentionResult, fields
from s2s_core.attention.charts import LABELS, PICK_PARAM, STEP_PARAM, attention_picture
from s2s_core.attention.frames import WORDS, picture_frames, position_index, step_label, step_sum_text
from s2s_core.catalog import translate, words
from s2s_core.chartkit import step_param
from s2s_core.fmt import num, vec
from s2s_ui.attention.sections import compute
from s2s_ui.charts import cached_spec
from s2s_ui.explainer import before_after
from s2s_ui.i18n import lang, t
from s2s_ui.state import Page
from s2s_ui.steps import StepEvent


@cached_spec(max_entries=256)
def chart_spec(
    config: AttentionConfig, before: AttentionConfig | None, language: str, first_step: int, picked: str | None
) -> Any:
    """The picture's finished Vega-Lite spec, cached by value (building it in Altair costs ~10x the math).

    Not validated here: tests/core/test_attention.py validates the picture's structure.
    """
    result = compute(config)
    previous = (compute(before), before) if before is not None else None
    picture = picture_frames(result, config, words(language, "attention.chart", WORDS), before=previous)
    param = step_param(STEP_PARAM, result.weights.shape[0], first_step, translate(language, "steps.label"))
    return attention_picture(picture, words(language, "attention.chart", LABELS), param, picked)


def picked_source(page: Page, result: AttentionResult, event: StepEvent) -> int | None:
    """The picked source (0-based) after this run, kept in the session and the link.

    The chart reports a click once one happened (before that, nothing: the pick it started with stays, from the
    link or an earlier run). A pick these sources do not have (a row was removed) is dropped.
    """
    clicked = event.first(PICK_PARAM, "position")
    if position_index(result, clicked) is not None:
        page.remember(fields.PICK, clicked)
    elif position_index(result, page.value(fields.PICK)) is None:
        page.remember(fields.PICK, None)
    return position_index(result, page.value(fields.PICK))


def follow_step(page: Page, config: AttentionConfig, event: StepEvent) -> None:
    """Under the picture, for the slider's step: the weighted sum in one line, and the picked source's term."""
    result = compute(config)
    step = event.step - 1
    st.markdown(t("attention.step_sum", step=step_label(step), expr=step_sum_text(result, step)))
    s = picked_source(page, result, event)
    if s is None:
        st.caption(t("attention.pick_hint"))
        return
    position = page.value(fields.PICK)
    fmt = dict(position=position, step=step_label(step), context=vec(result.contexts[step]))
    if config.pad[s]:
        st.markdown(t("attention.pick_pad", **fmt))
        return
    weight, vector, product = num(float(result.weights[step, s])), vec(result.values[s]), vec(result.terms[step, s])
    st.markdown(t("attention.pick_line", weight=weight, vector=vector, product=product, **fmt))


def show_picture(page: Page, config: AttentionConfig) -> None:
    """The picture with its step slider and Play; before/after keeps the previous input faint behind.

    The spec starts from the pick of this full run (a fragment rerun draws the same spec, so the view in the
    browser keeps its own selection); a stale pick is not drawn.
    """
    before = before_after("att_picture", config)
    result = compute(config)
    picked = page.value(fields.PICK)
    start = picked if position_index(result, picked) is not None else None
    page.step(
        fields.STEP,
        lambda first: chart_spec(config, before, lang(), first, start),
        result.weights.shape[0],
        param=STEP_PARAM,
        follow=lambda event: follow_step(page, config, event),
        selections=(PICK_PARAM,),
    )
