"""Page: RNN unrolling — step through h_t = tanh(W_x·x_t + W_h·h_(t-1) + b) on the learner's sentence."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import streamlit as st

from s2s_core.fields import Parsed
from s2s_core.fmt import num, sci, vec
from s2s_core.rnn import RnnConfig, RnnResult, fields, parse_config, seeded_weights, unroll
from s2s_core.rnn.charts import LABELS, step_chart
from s2s_core.rnn.code import script
from s2s_core.rnn.compute import check_size, first_word_effect, parameter_count, parse_weight_table
from s2s_core.rnn.fields import DEFAULT_E, DEFAULT_H, DEFAULT_SENTENCES, MAX_S, TABLES
from s2s_core.rnn.frames import (
    formula_latex,
    repeated_tokens,
    squash_range,
    step_frame,
    unit_expansion,
    weights_table,
)
from s2s_core.rnn.picture import STEP_PARAM, WORDS, picture_data, unroll_picture
from s2s_ui.cache import cached_result
from s2s_ui.catalog import translate, words
from s2s_ui.charts import cached_spec, draw
from s2s_ui.explainer import before_after, explainer
from s2s_ui.i18n import lang, t
from s2s_ui.state import Page, TryCase
from s2s_ui.steps import StepEvent, step_param
from s2s_ui.widgets import (
    check_badge,
    code_expander,
    guarded,
    md_escape,
    notice_list,
    predict_then_reveal,
    revealed,
)

PAGE = Page("rnn", fields.FIELDS)
QUIZ = "rnn_quiz"
QUIZ_OPTIONS = ("none", "only_first", "all", "only_last", "some")
REPEAT_SENTENCE = {"ko": "나는 책을 읽고 나는 잔다", "en": "the dog saw the cat"}  # a word that comes back


@dataclass(frozen=True)
class Sizes:
    """E, H and the seed: usable when only the sentence is bad (the weights and the parameter count need no more)."""

    E: int
    H: int
    seed: int


@cached_result(max_entries=256)
def compute(config: RnnConfig) -> RnnResult:
    return unroll(config)


def _shape(H: int, E: int) -> str:
    """The member of a weight-table family: one table per shape, seeded from that shape's weights."""
    return f"{H}x{E}"


def _weight_tables(sizes: Sizes) -> dict[str, list[list[float]] | None]:
    """The three editable tables, one under another (the controls column is narrow); a table with a bad cell
    shows its message and counts as 'not typed', so only that table falls back to the seeded values."""
    E, H = sizes.E, sizes.H
    seeded = seeded_weights(E, H, sizes.seed)
    defaults = {"W_x": seeded.W_x, "W_h": seeded.W_h, "b": seeded.b}
    cols = {"W_x": [f"x{j + 1}" for j in range(E)], "W_h": [f"h{j + 1}" for j in range(H)], "b": ["b"]}
    out: dict[str, list[list[float]] | None] = {}
    for name, field in TABLES.items():
        out[name] = PAGE.table(
            field,
            weights_table(defaults[name], name),
            lambda rows, name=name: parse_weight_table(name, rows, H, E),
            member=_shape(H, E),
            label=t(f"rnn.{name}_label"),
            col_names=cols[name],
            dynamic_rows=False,
        )
        if out[name] is None:
            st.caption(t("rnn.table_fallback", field=t(field.label)))
    st.caption(t("rnn.bias_note"))
    return out


def cases() -> list[TryCase]:
    """Prepared states: the other language's example, a word that comes back, and a network with no memory.

    A case starts from the default sizes (every other input is forgotten first), so its W_h table is H×H for them.
    """
    code = lang()
    other = "ko" if code == "en" else "en"
    key = fields.SENTENCE.key
    zeros = ";".join(",".join("0" for _ in range(DEFAULT_H)) for _ in range(DEFAULT_H))
    no_memory = {key: REPEAT_SENTENCE[code], fields.EDIT.key: "true"}
    no_memory[fields.W_H.member(_shape(DEFAULT_H, DEFAULT_E))] = zeros
    return [
        TryCase(f"rnn.try.{other}", f"rnn.try.{other}_note", {key: DEFAULT_SENTENCES[other]}),
        TryCase("rnn.try.repeat", "rnn.try.repeat_note", {key: REPEAT_SENTENCE[code]}),
        TryCase("rnn.try.no_memory", "rnn.try.no_memory_note", no_memory),
    ]


def read_inputs() -> tuple[Parsed[RnnConfig], Sizes]:
    """The controls column: the sentence, then sizes, seed and hand-typed weights folded in an expander.

    A bad sentence is not shown here but by each section that needs it (the picture first).
    """
    sentence = PAGE.input(fields.SENTENCE, st.text_input, help=t("rnn.sentence_help", limit=MAX_S))
    with st.expander(t("rnn.sizes"), icon=":material/tune:"):
        c1, c2 = st.columns(2)
        E = PAGE.input(fields.E, c1.number_input, step=1, help=t("rnn.E_help"))
        H = PAGE.input(fields.H, c2.number_input, step=1, help=t("rnn.H_help"))
        seed = PAGE.input(fields.SEED, st.number_input, step=1, help=t("rnn.seed_help"))
        sizes = Sizes(check_size("E", E), check_size("H", H), check_size("seed", seed))  # always in range here
        edit = PAGE.input(fields.EDIT, st.toggle, help=t("rnn.edit_help"))
        tables = _weight_tables(sizes) if edit else dict.fromkeys(TABLES)
    shape = _shape(sizes.H, sizes.E)
    for field in TABLES.values():  # tables of other shapes (or with editing off) are not in effect: not in the link
        PAGE.keep_members(field, {field.member(shape)} if edit else set())
    PAGE.buttons(cases())
    parsed = Parsed.of(
        lambda: parse_config(sentence, sizes.E, sizes.H, sizes.seed, tables["W_x"], tables["W_h"], tables["b"])
    )
    return parsed, sizes


# --- the picture: the unrolled chain with its step slider inside (s2s_ui/steps.py) -----------------------------


@cached_spec(max_entries=256)
def chart_spec(config: RnnConfig, before: RnnConfig | None, language: str, first_step: int) -> Any:
    """The picture's finished Vega-Lite spec, cached by value (building it in Altair costs far more than the math).

    Not validated here (to_dict(validate=False)): tests/core/test_rnn.py validates the picture's structure.
    """
    result = compute(config)
    previous = compute(before) if before is not None else None
    param = step_param(STEP_PARAM, len(result.tokens), first_step, translate(language, "steps.label"))
    return unroll_picture(picture_data(result, previous), words(language, "rnn.picture", WORDS), param)


@cached_spec(max_entries=256)
def step_bars_spec(config: RnnConfig, step: int, language: str) -> Any:
    """One step's terms as bars (the step's details, under the picture)."""
    return step_chart(step_frame(compute(config), step), words(language, "rnn.chart", LABELS))


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
        st.markdown(t("rnn.squash_note", t=step + 1, **squash_range(result, step)))
        st.markdown(f"**{t('rnn.chart.step_title', t=step + 1)}**")
        draw(st, step_bars_spec(config, step, lang()))


def show_picture(config: RnnConfig) -> None:
    """The chain with its step slider and Play; before/after keeps the previous input's states as dots."""
    before = before_after("rnn_picture", config)
    S = len(compute(config).tokens)
    PAGE.step(
        fields.STEP,
        lambda first: chart_spec(config, before, lang(), first),
        S,
        param=STEP_PARAM,
        follow=lambda event: follow_step(config, event),
    )


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


# --- the details, folded under the picture --------------------------------------------------------------------


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
    w = seeded_weights(sizes.E, sizes.H, sizes.seed)
    cols = st.columns([sizes.E + 1, sizes.H + 1, 2])
    for col, name, matrix in zip(cols, TABLES, (w.W_x, w.W_h, w.b), strict=True):
        col.markdown(f"**{name}**")
        col.dataframe(weights_table(matrix, name), hide_index=True)
    st.caption(t("rnn.bias_note"))


def show_notices(config: RnnConfig) -> None:
    result = compute(config)
    repeats = repeated_tokens(result.tokens)
    token, steps = repeats[0] if repeats else ("", [])
    repeat_key = "rnn.notice_repeat" if repeats else "rnn.notice_repeat_hint"
    # Notice 2 says how the state carries each column into the next: the question's answer, so after it.
    carried = ["rnn.notice_2"] if revealed(QUIZ) else []
    notice_list(
        ["rnn.notice_1", *carried, "rnn.notice_3", repeat_key, "rnn.notice_5"],
        n=result.n_params,
        S=len(result.tokens),
        token=md_escape(token),
        steps=", ".join(map(str, steps)),
    )


controls, picture = explainer("rnn")
with controls:
    parsed, sizes = read_inputs()
with picture:
    guarded(lambda: show_picture(parsed.need()))
    guarded(lambda: show_quiz(parsed.need()))
PAGE.tabs(
    [
        ("ui.tab_tables", lambda: show_weights(parsed, sizes)),
        ("ui.tab_check", lambda: check_badge(t("rnn.check_what"), compute(parsed.need()).max_abs_diff, tol=1e-9)),
        ("ui.tab_code", lambda: code_expander(script(parsed.need()), file_name="rnn_unroll.py")),
        ("ui.tab_notice", lambda: show_notices(parsed.need())),
    ]
)
