"""Page: Bahdanau vs Luong — one score function at a time (or all compared), keys vs values, windows, wiring."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from s2s_core.fields import Parsed
from s2s_core.fmt import num
from s2s_core.scoring import ScoringConfig, fields
from s2s_core.scoring.code import script
from s2s_core.scoring.compute import as_error
from s2s_core.scoring.fields import DEFAULT_SENTENCES, SCORERS
from s2s_core.scoring.frames import position_label, position_parts
from s2s_core.scoring.notes import LOCAL_P_CASE, softmax_reading
from s2s_core.scoring.quiz import VERDICTS
from s2s_ui.charts import draw
from s2s_ui.explainer import before_after, explainer
from s2s_ui.i18n import lang, t
from s2s_ui.kept import kept_picture
from s2s_ui.scoring.sections import notice_keys, show_comparison, show_flow, show_focus, show_window
from s2s_ui.scoring.settings import View, read_inputs, read_view
from s2s_ui.scoring.specs import (
    STEP_PARAM,
    compare_spec,
    compute,
    focus_spec,
    function_names,
    local_p_note,
    quiz_answer,
)
from s2s_ui.state import Page, TryCase
from s2s_ui.steps import StepEvent
from s2s_ui.widgets import code_expander, notice_list, predict_then_reveal, revealed, show_error

PAGE = Page("scoring", fields.FIELDS)
QUIZ = "scoring_quiz"


def cases() -> list[TryCase]:
    """Prepared states: the other language's sentence through a real encoder, a size mismatch, local-p, scale (the
    two about every function open "compare all")."""
    other = "ko" if lang() == "en" else "en"
    encoder = {fields.FROM.key: "encoder", fields.SENTENCE.key: DEFAULT_SENTENCES[other]}
    return [
        TryCase(f"scoring.try_{other}", "scoring.try_sentence_note", encoder),
        TryCase("scoring.try_sizes", "scoring.try_sizes_note", {fields.H_E.key: "3", fields.COMPARE.key: "true"}),
        TryCase("scoring.try_local_p", local_p_note(), LOCAL_P_CASE),
        TryCase("scoring.try_scale", "scoring.try_scale_note", {fields.SCALE.key: "8", fields.COMPARE.key: "true"}),
    ]


def follow_position(config: ScoringConfig, event: StepEvent) -> None:
    """Under the picture, for the chosen position j: its score, weight and share of the context."""
    position = position_label(event.step - 1)
    parts = position_parts(compute(config).shown(config.focus).read, event.step - 1)
    if parts is None:
        st.markdown(t("scoring.position_outside", position=position))
    else:
        st.markdown(t("scoring.position_line", position=position, **parts))


def show_picture(config: ScoringConfig, view: View) -> None:
    """The picture: with "compare all", every function side by side first; then the chosen function's scores →
    softmax → weights between its keys and values, with its position slider, and what the softmax did here."""
    config = replace(config, focus=view.focus)  # a kept (faded) picture follows the function picked meanwhile
    result = compute(config)
    if not any(f.read is not None for f in result.functions):
        st.info(t("scoring.no_function_scores"), icon=":material/info:")
        return
    before = before_after("scoring_picture", replace(config, focus=SCORERS[0]))  # the focus moves no compare row
    if view.compare:
        draw(st, compare_spec(config, before, lang()))
    chosen = result.get(config.focus)
    if chosen.read is None:  # e.g. dot with H_d ≠ H_e: the message names the sizes; additive is drawn instead
        show_error(as_error(chosen.error))
    PAGE.step(
        fields.POSITION,
        lambda first: focus_spec(config, lang(), first),
        result.S,
        param=STEP_PARAM,
        follow=lambda event: follow_position(config, event),
        play=False,
    )
    reading = softmax_reading(result.shown(config.focus).read)  # what the softmax row did, chosen in the core
    after = f" {t('scoring.softmax_before_gauss')}" if reading.gauss else ""
    st.caption(t(reading.key, **reading.numbers) + after)


def show_quiz(config: ScoringConfig) -> None:
    """Predict the effect of an edit: double s. The picture shows the weights for s only."""
    q = quiz_answer(config)
    if q is None:
        return
    options = {v: t(f"scoring.quiz_{v}") for v in VERDICTS}
    name, doubled = function_names(lang())[q.name], ", ".join(f"{x:g}" for x in q.doubled)
    predict_then_reveal(
        QUIZ,
        t("scoring.quiz_question", name=name, peak=num(q.peak), doubled=doubled),
        list(options.values()),
        options[q.verdict],
        t("scoring.quiz_explain", name=name, peak=num(q.peak), peak2=num(q.peak_doubled), doubled=doubled),
    )


def show_notice(config: ScoringConfig) -> None:
    keys, fmt = notice_keys(config, typed=PAGE.current(fields.FROM) == "table")
    notice_list(keys, **fmt)
    if revealed(QUIZ):  # says how dot-product scores react to a longer s: the question's answer
        st.markdown(f"- {t('scoring.notice_doubled')}")


controls, picture = explainer("scoring")
with picture:  # the picture's own two controls first: on a phone they come with it, before the states
    view = read_view(PAGE)
with controls:
    parsed: Parsed[ScoringConfig] = read_inputs(PAGE, view.focus)
    PAGE.buttons(cases())
with picture:  # a bad input: its message once, and the last good picture faded (s2s_ui/kept.py)
    config = kept_picture(PAGE, parsed.need, lambda c: show_picture(c, view))
if config is not None:  # the question and the tabs only from the live input; a bad one leaves the open tab as it was
    show_quiz(config)
    PAGE.tabs(
        [
            ("scoring.tab_compare", lambda: show_comparison(config)),
            ("scoring.tab_focus", lambda: show_focus(config)),
            ("scoring.tab_window", lambda: show_window(config)),
            ("scoring.tab_flow", lambda: show_flow(config)),
            ("ui.tab_notice", lambda: show_notice(config)),
            ("ui.tab_code", lambda: code_expander(script(config), file_name="bahdanau_vs_luong.py")),
        ]
    )
