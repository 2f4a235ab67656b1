"""Page: RNN unrolling — step through h_t = tanh(W_x·x_t + W_h·h_(t-1) + b) on the learner's sentence."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import streamlit as st

from s2s_core import caps
from s2s_core.errors import InputError
from s2s_core.fmt import num, sci, vec
from s2s_core.rnn import RnnConfig, RnnResult, parse_config, seeded_weights, unroll
from s2s_core.rnn.charts import step_chart
from s2s_core.rnn.code import script
from s2s_core.rnn.compute import (
    DEFAULT_E,
    DEFAULT_H,
    DEFAULT_SEED,
    DEFAULT_SENTENCES,
    MAX_E,
    MAX_H,
    MAX_S,
    check_size,
    default_sentence,
    first_word_effect,
    parameter_count,
    parse_weight_table,
)
from s2s_core.rnn.frames import (
    formula_latex,
    repeated_tokens,
    squash_range,
    step_frame,
    unit_expansion,
    weights_table,
)
from s2s_core.rnn.picture import STEP_PARAM, picture_data, unroll_picture
from s2s_ui.cache import cached_result
from s2s_ui.catalog import translate
from s2s_ui.charts import cached_spec, draw
from s2s_ui.explainer import TryCase, before_after, details, explainer, try_this
from s2s_ui.i18n import lang, t
from s2s_ui.link import linked, to_link
from s2s_ui.steps import StepEvent, step_param, step_view
from s2s_ui.widgets import (
    check_badge,
    code_expander,
    guarded,
    matrix_input,
    md_escape,
    notice_list,
    predict_then_reveal,
    reset_button,
    revealed,
)

TABLES = ("W_x", "W_h", "b")
QUIZ = "rnn_quiz"
QUIZ_OPTIONS = ("none", "only_first", "all", "only_last", "some")
SIZE_KEYS = ["rnn_E", "rnn_H", "rnn_seed", "rnn_edit", "rnn_step"]
REPEAT_SENTENCE = {"ko": "나는 책을 읽고 나는 잔다", "en": "the dog saw the cat"}  # a word that comes back


@dataclass(frozen=True)
class RnnInputs:
    """What the controls column read: the config (or the error that stopped it) and the sizes, which stay
    usable when only the sentence is bad (the weights and the parameter count need nothing else)."""

    config: RnnConfig | None
    error: InputError | None
    E: int
    H: int
    seed: int

    def need(self) -> RnnConfig:
        """The validated config, or its error raised again (the section's guard names the field)."""
        if self.config is None:
            raise self.error or InputError("errors.empty_text", "rnn.field.sentence")
        return self.config


@cached_result(max_entries=256)
def compute(config: RnnConfig) -> RnnResult:
    return unroll(config)


def _table_key(name: str, H: int, E: int) -> str:
    """One table per shape: a new H or E starts from that shape's seeded weights (and its own URL value)."""
    return f"rnn_{name.lower()}_{H}x{E}"


def _weight_tables(H: int, E: int, seed: int) -> dict[str, list[list[float]] | None]:
    """The three editable tables, one under another (the controls column is narrow); a table with a bad cell
    shows its message and counts as 'not typed', so only that table falls back to the seeded values."""
    seeded = seeded_weights(E, H, seed)
    defaults = {"W_x": seeded.W_x, "W_h": seeded.W_h, "b": seeded.b}
    cols = {"W_x": [f"x{j + 1}" for j in range(E)], "W_h": [f"h{j + 1}" for j in range(H)], "b": ["b"]}
    out: dict[str, list[list[float]] | None] = {}
    for name in TABLES:
        out[name] = matrix_input(
            _table_key(name, H, E),
            weights_table(defaults[name], name),
            f"rnn.field.{name}",
            label=t(f"rnn.{name}_label"),
            col_names=cols[name],
            dynamic_rows=False,
            parse=lambda rows, name=name: parse_weight_table(name, rows, H, E),
        )
        if out[name] is None:
            st.caption(t("rnn.table_fallback", field=t(f"rnn.field.{name}")))
    st.caption(t("rnn.bias_note"))
    return out


def _drop_stale_table_params(keep: set[str]) -> None:
    """Tables of other shapes (or with editing off) are not in effect: keep them out of the shared link."""
    for key in list(st.query_params):
        if key.startswith(("rnn_w_x_", "rnn_w_h_", "rnn_b_")) and key not in keep:
            to_link(key, None)


def _size(name: str, value: object, default: int) -> int:
    """A size the page can use whatever the link said (linked() already clamps; this only guards the type)."""
    try:
        return check_size(name, value)
    except InputError:
        return default


def cases() -> list[TryCase]:
    """Prepared states: the other language's example, a word that comes back, and a network with no memory.

    A case starts from the default sizes (every other input is forgotten first), so its W_h table is H×H for them.
    """
    E, H = DEFAULT_E, DEFAULT_H
    code = lang()
    other = "ko" if code == "en" else "en"
    sentence_key = f"rnn_sentence_{code}"
    zeros = ";".join(",".join("0" for _ in range(H)) for _ in range(H))
    return [
        TryCase(f"rnn.try.{other}", f"rnn.try.{other}_note", {sentence_key: DEFAULT_SENTENCES[other]}),
        TryCase("rnn.try.repeat", "rnn.try.repeat_note", {sentence_key: REPEAT_SENTENCE[code]}),
        TryCase(
            "rnn.try.no_memory",
            "rnn.try.no_memory_note",
            {sentence_key: REPEAT_SENTENCE[code], "rnn_edit": "true", _table_key("W_h", H, E): zeros},
        ),
    ]


def read_inputs() -> RnnInputs:
    """The controls column: the sentence, then sizes, seed and hand-typed weights folded in an expander.

    A bad sentence is not shown here but by each section that needs it (the picture first).
    """
    sentence_key = f"rnn_sentence_{lang()}"  # each language keeps its own default (and link parameter)
    sentence = linked(
        st.text_input,
        t("rnn.field.sentence"),
        key=sentence_key,
        default=default_sentence(lang()),
        help=t("rnn.sentence_help", limit=MAX_S),
        max_chars=caps.MAX_TEXT_CHARS,
    )
    with st.expander(t("rnn.sizes"), icon=":material/tune:"):
        c1, c2 = st.columns(2)
        E = linked(
            c1.number_input,
            t("rnn.field.E"),
            key="rnn_E",
            default=DEFAULT_E,
            min_value=1,
            max_value=MAX_E,
            step=1,
            help=t("rnn.E_help"),
        )
        H = linked(
            c2.number_input,
            t("rnn.field.H"),
            key="rnn_H",
            default=DEFAULT_H,
            min_value=1,
            max_value=MAX_H,
            step=1,
            help=t("rnn.H_help"),
        )
        seed = linked(
            st.number_input,
            t("rnn.field.seed"),
            key="rnn_seed",
            default=DEFAULT_SEED,
            min_value=0,
            max_value=caps.MAX_SEED,
            step=1,
            help=t("rnn.seed_help"),
        )
        E, H, seed = _size("E", E, DEFAULT_E), _size("H", H, DEFAULT_H), _size("seed", seed, DEFAULT_SEED)
        edit = linked(st.toggle, t("rnn.edit_label"), key="rnn_edit", default=False, help=t("rnn.edit_help"))
        keys = {_table_key(name, H, E) for name in TABLES}
        tables: dict[str, list[list[float]] | None] = _weight_tables(H, E, seed) if edit else dict.fromkeys(TABLES)
    _drop_stale_table_params(keep=keys if edit else set())
    page_keys = [sentence_key, *SIZE_KEYS, *sorted(keys)]
    try_this(cases(), page_keys)
    reset_button(page_keys)
    try:
        config = parse_config(sentence, E, H, seed, tables["W_x"], tables["W_h"], tables["b"])
    except InputError as err:
        return RnnInputs(None, err, E, H, seed)
    return RnnInputs(config, None, E, H, seed)


# --- the picture: the unrolled chain with its step slider inside (s2s_ui/steps.py) -----------------------------


@cached_spec(max_entries=256)
def chart_spec(config: RnnConfig, before: RnnConfig | None, language: str, first_step: int) -> Any:
    """The picture's finished Vega-Lite spec, cached by value (building it in Altair costs far more than the math).

    Not validated here (to_dict(validate=False)): tests/core/test_rnn.py validates the picture's structure.
    """
    result = compute(config)
    previous = compute(before) if before is not None else None
    keys = ("title", "subtitle", "description", "vector", "component", "value", "before", "token")
    words = {k: translate(language, f"rnn.picture.{k}") for k in keys}
    param = step_param(STEP_PARAM, len(result.tokens), first_step, translate(language, "steps.label"))
    return unroll_picture(picture_data(result, previous), words, param)


@cached_spec(max_entries=256)
def step_bars_spec(config: RnnConfig, step: int, language: str) -> Any:
    """One step's terms as bars (the step's details, under the picture)."""
    labels = {k: translate(language, f"rnn.chart.{k}") for k in ("unit", "value", "term")}
    labels |= {f"term_{i}": translate(language, f"rnn.chart.term_{i}") for i in range(5)}
    return step_chart(step_frame(compute(config), step), labels)


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
    step_view(
        "rnn_step",
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


def show_weights(inputs: RnnInputs) -> None:
    """The one set of weights: parameter count and the numbers themselves (needs only E, H and the seed)."""
    st.subheader(t("rnn.shared_title"))
    n = parameter_count(inputs.E, inputs.H)
    if inputs.config is not None:
        S = len(inputs.config.tokens)
        st.caption(t("rnn.shared_caption", E=inputs.E, H=inputs.H, n=n, S=S))
    else:
        st.caption(t("rnn.shared_caption_any", E=inputs.E, H=inputs.H, n=n))
    config = inputs.config
    if config is not None and (config.W_x or config.W_h or config.b):
        st.caption(t("rnn.weights_typed"))
        return
    w = seeded_weights(inputs.E, inputs.H, inputs.seed)
    cols = st.columns([inputs.E + 1, inputs.H + 1, 2])
    for col, name, matrix in zip(cols, TABLES, (w.W_x, w.W_h, w.b), strict=True):
        col.markdown(f"**{name}**")
        col.dataframe(weights_table(matrix, name), hide_index=True)
    st.caption(t("rnn.bias_note"))


def show_check(inputs: RnnInputs) -> None:
    check_badge(t("rnn.check_what"), compute(inputs.need()).max_abs_diff, tol=1e-9)


def show_code(inputs: RnnInputs) -> None:
    code_expander(script(inputs.need()), file_name="rnn_unroll.py")


def show_notices(inputs: RnnInputs) -> None:
    result = compute(inputs.need())
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
    inputs = read_inputs()
with picture:
    guarded(lambda: show_picture(inputs.need()))
    guarded(lambda: show_quiz(inputs.need()))
details(
    [
        ("ui.tab_tables", lambda: show_weights(inputs)),
        ("ui.tab_check", lambda: show_check(inputs)),
        ("ui.tab_code", lambda: show_code(inputs)),
        ("ui.tab_notice", lambda: show_notices(inputs)),
    ],
    key="rnn_tabs",
)
