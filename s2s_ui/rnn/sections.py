"""What the RNN page draws under its picture: the step written out, the question, and the folded tabs' bodies."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from s2s_core.fields import Parsed
from s2s_core.fmt import num, sci, vec
from s2s_core.own_weights import OwnWeights
from s2s_core.rnn import RnnConfig, seeded_weights
from s2s_core.rnn.compute import first_word_effect, parameter_count, weights_of
from s2s_core.rnn.fields import TABLES
from s2s_core.rnn.frames import (
    formula_latex,
    notice_keys,
    repeat_reading,
    saturated,
    squash_range,
    unit_expansion,
    weights_table,
)
from s2s_ui.charts import draw
from s2s_ui.i18n import lang, t
from s2s_ui.rnn.specs import compute, step_bars_spec
from s2s_ui.steps import StepEvent
from s2s_ui.text import md_escape
from s2s_ui.widgets import notice_list, predict_then_reveal, revealed

QUIZ = "rnn_quiz"
QUIZ_OPTIONS = ("none", "only_first", "all", "only_last", "some")


@dataclass(frozen=True)
class Sizes:
    """E, H and the seed: usable when only the sentence is bad (the weights and the parameter count need no more);
    own: the learner's uploaded nn.RNN, which decides E, H and the weights (None: the seeded ones)."""

    E: int
    H: int
    seed: int
    own: OwnWeights | None = None


def follow_step(config: RnnConfig, event: StepEvent) -> None:
    """Under the picture, for the slider's step: which token, then the step written out (folded)."""
    result = compute(config)
    S = len(result.tokens)
    step = event.step - 1
    token = md_escape(result.tokens[step])
    st.caption(t("rnn.step_heading", t=step + 1, S=S, token=token))
    with st.expander(t("rnn.step_detail")):
        st.markdown(t("rnn.x_line", t=step + 1, token=token, x=f"`{vec(result.x[step])}`"))
        st.markdown(t("rnn.hprev_line", tp=step, h=f"`{vec(result.h_prev[step])}`"))
        if step == 0:
            st.caption(t("rnn.h0_note"))
        for line in formula_latex(result, step):
            st.latex(line)
        st.caption(t("rnn.expansion", t=step + 1, expr=f"`{unit_expansion(result, step, 0)}`"))
        squash = "rnn.squash_note_rounded" if saturated(result, step) else "rnn.squash_note"
        st.markdown(t(squash, t=step + 1, **squash_range(result, step)))
        st.markdown(f"**{t('rnn.chart.step_title', t=step + 1)}**")
        draw(st, step_bars_spec(config, step, lang()))


def show_quiz(config: RnnConfig) -> None:
    result = compute(config)
    S = len(result.tokens)
    if S < 2:
        st.caption(t("rnn.quiz_one_token"))
        return
    effect = first_word_effect(result)
    options = [t(f"rnn.quiz_{o}") for o in QUIZ_OPTIONS]
    change = result.first_word_change
    explain = t("rnn.quiz_explain", first=num(change[0]), last=sci(change[-1]), S=S, changed=effect.changed)
    # The reason is read from the live weights (zero matrix, null space, rounding), never assumed from the answer.
    why = t(f"rnn.quiz_why_{effect.reason}", stop=effect.stop, prev=(effect.stop or 1) - 1, handed=sci(effect.handed))
    predict_then_reveal(QUIZ, t("rnn.quiz_question"), options, t(f"rnn.quiz_{effect.answer}"), f"{explain} {why}")


def show_weights(parsed: Parsed[RnnConfig], sizes: Sizes) -> None:
    """The one set of weights: parameter count and the numbers themselves (needs only E, H and the seed)."""
    st.subheader(t("rnn.shared_title"))
    n = parameter_count(sizes.E, sizes.H)
    config = parsed.value
    if config is not None:
        st.caption(t("rnn.shared_caption", E=sizes.E, H=sizes.H, n=n, S=len(config.tokens)))
    else:
        st.caption(t("rnn.shared_caption_any", E=sizes.E, H=sizes.H, n=n))
    if config is not None and (config.W_x or config.W_h or config.b):
        st.caption(t("rnn.weights_typed"))
        return
    if sizes.own is not None:
        st.caption(t("own.weights_shown"))
        w = weights_of(sizes.own.module)  # the file's two biases; b is their sum
    else:
        w = seeded_weights(sizes.E, sizes.H, sizes.seed)
    cols = st.columns([sizes.E + 1, sizes.H + 1, 2])
    for col, name, matrix in zip(cols, TABLES, (w.W_x, w.W_h, w.b), strict=True):
        col.markdown(f"**{name}**")
        col.dataframe(weights_table(matrix, name), hide_index=True)
    st.caption(t("rnn.bias_note"))


def show_notices(config: RnnConfig) -> None:
    result = compute(config)
    keys = notice_keys(result)  # chosen by what this run computed (W_h, the repeated word's states)
    reading = repeat_reading(result)
    # Notice 2 says how the state carries each column into the next: the question's answer, so after it.
    carried = [keys["carried"]] if revealed(QUIZ) else []
    notice_list(
        ["rnn.notice_1", *carried, "rnn.notice_3", keys["repeat"], "rnn.notice_5"],
        n=result.n_params,
        S=len(result.tokens),
        token=md_escape(reading.token if reading else ""),
        steps=", ".join(map(str, reading.steps if reading else ())),
    )
