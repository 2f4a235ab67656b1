"""Page: attention weighting — scores → softmax over source positions → weighted sum → context."""

from __future__ import annotations

import streamlit as st

from s2s_core.attention import AttentionConfig, fields, parse_config
from s2s_core.attention.code import script
from s2s_core.attention.compute import pad_what_if
from s2s_core.attention.fields import DEFAULT_SOURCES, DEFAULT_WEIGHTS, MODES
from s2s_core.attention.frames import position_label, step_label
from s2s_core.attention.notes import shared_steps, steps_key
from s2s_core.fields import Parsed
from s2s_core.fmt import num, vec
from s2s_ui.attention.picture import show_picture
from s2s_ui.attention.sections import compute, show_steps, show_tables
from s2s_ui.explainer import explainer
from s2s_ui.i18n import t
from s2s_ui.kept import kept_picture
from s2s_ui.state import Page, TryCase
from s2s_ui.widgets import check_badge, code_expander, notice_list, predict_then_reveal, revealed

PAGE = Page("attention", fields.FIELDS)
QUIZ = "att_quiz"
CASES = [
    TryCase("attention.try.one_label", "attention.try.one_note", {fields.STEPS.key: "0,0,1;1,0,0"}),
    # s1 is PAD and picked: the line under the picture says why it adds nothing.
    TryCase("attention.try.pad_label", "attention.try.pad_note", {fields.PAD.key: "s1", fields.PICK.key: "s1"}),
    TryCase(
        "attention.try.scores_label",
        "attention.try.scores_note",
        {fields.MODE.key: "scores", fields.STEPS.key: "0,0,8;1,2,3"},
    ),
    TryCase(
        "attention.try.lines_label",
        "attention.try.lines_note",
        {fields.DIM.key: "3", fields.SOURCES.key: "1,0,2;0,3,1;2,2,0"},
    ),
]


def read_inputs() -> Parsed[AttentionConfig]:
    """Widgets -> the validated config, or the error that names the bad field (shown above the kept picture)."""
    labels = {m: t(f"attention.mode_{m}") for m in MODES}
    mode = PAGE.input(fields.MODE, st.segmented_control, label=t("attention.mode_label"), labels=labels, required=True)
    # D and PAD share a row (the controls column is narrow; the first screen must hold all of it).
    left, right = st.columns([1, 1.7])  # PAD's chosen positions need the room more than D's one digit
    D = int(PAGE.input(fields.DIM, left.number_input, step=1))
    sources = PAGE.table(
        fields.SOURCES,
        DEFAULT_SOURCES,
        lambda rows: rows,
        label=t("attention.sources_label"),
        n_cols=D,
        col_names=[f"d{i + 1}" for i in range(D)],
    )
    S = len(sources) if sources else len(DEFAULT_SOURCES)
    options = [position_label(s) for s in range(S)]
    steps = PAGE.table(
        fields.STEPS,
        DEFAULT_WEIGHTS,
        lambda rows: rows,
        label=t(f"attention.steps_label_{mode}"),
        n_cols=S,
        col_names=options,
    )
    # The field drops a stale position (a row was removed) before drawing.
    pad = PAGE.input(
        fields.PAD,
        right.multiselect,
        label=t("attention.pad_label"),
        options=options,
        help=t("attention.pad_help"),
        placeholder=t("attention.pad_none"),  # short: the shared "Choose positions" is cut in this narrow column
    )
    # Side by side: both stay on the first 1280 x 900 screen; "Try this" (icon, words, arrow) needs the wider half.
    left, right = st.columns([1.2, 1])
    PAGE.try_this(CASES, where=left)
    PAGE.reset_button(where=right)
    return Parsed.of(lambda: parse_config(sources, steps, mode, [label in pad for label in options]))


def show_quiz(config: AttentionConfig) -> None:
    """Predict the effect of an edit before making it: mark step t1's heaviest position as PAD."""
    what = pad_what_if(config, compute(config), step=0)
    if what is None:
        st.caption(t("attention.quiz_needs_two"))
        return
    position, step = position_label(what.position), step_label(what.step)
    explain = t(
        "attention.quiz_explain",
        position=position,
        step=step,
        weights=vec(what.weights_after),
        after=what.answer,
        dropped=vec(what.dropped),
        rest=num(what.rest),
    )
    question = t("attention.quiz_question", position=position, step=step)
    predict_then_reveal(QUIZ, question, list(what.options), what.answer, explain)


def show_notice(config: AttentionConfig) -> None:
    # notice_3 says how PAD rescales the other weights: that is how the question is answered, so it waits.
    result = compute(config)
    shown = [2, 3, 4] if revealed(QUIZ) else [2, 4]
    shared = ", ".join(step_label(s) for s in shared_steps(result))
    notice_list([steps_key(result), *(f"attention.notice_{i}" for i in shown)], steps=shared)
    st.info(t("attention.cell_vs_context"), icon=":material/lightbulb:")


controls, picture = explainer("attention")
with controls:
    parsed = read_inputs()
with picture:  # a bad input: its message, and the last good picture kept faded (s2s_ui/kept.py)
    config = kept_picture(PAGE, parsed.need, lambda good: show_picture(PAGE, good))
if config is not None:  # the question and every tab need the live config; a bad input leaves the open tab as it was
    show_quiz(config)
    PAGE.tabs(
        [
            ("ui.tab_steps", lambda: show_steps(config)),
            ("ui.tab_tables", lambda: show_tables(config)),
            ("ui.tab_check", lambda: check_badge(t("attention.check_what"), compute(config).max_abs_diff, tol=1e-9)),
            ("ui.tab_code", lambda: code_expander(script(config), file_name="attention_weighting.py")),
            ("ui.tab_notice", lambda: show_notice(config)),
        ]
    )
