"""Page: RNN unrolling — step through h_t = tanh(W_x·x_t + W_h·h_(t-1) + b) on the learner's sentence."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import streamlit as st

from s2s_core import caps
from s2s_core.errors import InputError
from s2s_core.fmt import num, sci, vec
from s2s_core.rnn import RnnConfig, RnnResult, parse_config, seeded_weights, unroll
from s2s_core.rnn.charts import step_chart, timeline_chart, unroll_chart
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
    timeline_frame,
    unit_expansion,
    unroll_frames,
    weights_table,
)
from s2s_ui.catalog import translate
from s2s_ui.charts import cached_spec, draw
from s2s_ui.explainer import TryCase, details, explainer, try_this
from s2s_ui.i18n import lang, t
from s2s_ui.link import linked, to_link
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

PLAY_SECONDS = 1.0  # one step per tick while playing; stops by itself at the last step
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


@st.cache_data(max_entries=256, show_spinner=False)
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


# --- the picture: the unrolled graph, its step slider, and every state at once --------------------------------


def _start_play() -> None:
    st.session_state["rnn_step"] = 1
    st.session_state["rnn_playing"] = True
    st.session_state["rnn_play_fresh"] = True  # show step 1 first, advance on the next tick


def _stop_play() -> None:
    st.session_state["rnn_playing"] = False


def _advance(S: int) -> None:
    """One tick of Play: next step; at the last step stop (a full rerun drops the timer)."""
    if st.session_state.pop("rnn_play_fresh", False):
        return
    st.session_state["rnn_step"] = min(int(st.session_state.get("rnn_step", 1)) + 1, S)
    if st.session_state["rnn_step"] >= S:
        st.session_state["rnn_playing"] = False
        st.rerun()


def current_step(S: int) -> int:
    """The slider's step (1-based), clamped into 1..S: the sentence may have got shorter."""
    if int(st.session_state.get("rnn_step", 1) or 1) > S:
        st.session_state["rnn_step"] = S
    return max(1, min(int(st.session_state.get("rnn_step", 1) or 1), S))


@cached_spec(max_entries=512)
def chart_specs(config: RnnConfig, step: int, language: str) -> Any:
    """The three figures' Vega-Lite specs for one step, cached by value: Altair costs far more than the math.

    Not validated here (to_dict(validate=False)): tests/core/test_rnn.py validates the charts' structure.
    """
    result = compute(config)
    labels = chart_labels(step, language)
    nodes, edges = unroll_frames(result, step)
    return {
        "unroll": unroll_chart(nodes, edges, labels),
        "step": step_chart(step_frame(result, step), labels),
        "timeline": timeline_chart(timeline_frame(result, step), labels),
    }


def chart_labels(step: int, language: str) -> dict[str, str]:
    def tr(key: str, **fmt: object) -> str:
        return translate(language, f"rnn.chart.{key}", **fmt)

    keys = ("weight", "node", "token", "unroll_title", "step", "unit", "timeline_title", "value", "term")
    labels = {k: tr(k) for k in keys}
    labels["step_title"] = tr("step_title", t=step + 1)
    labels |= {f"term_{i}": tr(f"term_{i}") for i in range(5)}
    return labels


def picture_body(config: RnnConfig, result: RnnResult) -> None:
    """The unrolled graph, the step slider under it, and the h_t heatmap (reruns alone while playing)."""
    S = len(result.tokens)
    playing = bool(st.session_state.get("rnn_playing"))
    if playing:
        _advance(S)
    current_step(S)
    specs_now = chart_specs(config, int(st.session_state.get("rnn_step", 1)) - 1, lang())
    draw(st, specs_now["unroll"])
    if S > 1:
        t_ = linked(
            st.slider, t("rnn.step_label"), key="rnn_step", default=1, min_value=1, max_value=S, disabled=playing
        )
    else:
        t_ = 1
    step = int(t_) - 1
    # A moved slider reruns only this fragment; the step-by-step tab below follows on a full rerun.
    if not playing and step + 1 != st.session_state.get("rnn_full_step", step + 1):
        st.rerun()
    specs = chart_specs(config, step, lang())
    st.caption(t("rnn.step_heading", t=step + 1, S=S, token=md_escape(result.tokens[step])))
    st.markdown(f"**{chart_labels(step, lang())['timeline_title']}**")
    draw(st, specs["timeline"])


def show_picture(config: RnnConfig) -> None:
    result = compute(config)
    S = len(result.tokens)
    playing = bool(st.session_state.get("rnn_playing"))
    title, button = st.columns([4, 1], vertical_alignment="bottom")
    title.markdown(f"**{translate(lang(), 'rnn.chart.unroll_title')}**")
    if S > 1:
        if playing:
            button.button(t("rnn.stop"), key="rnn_stop", icon=":material/stop:", on_click=_stop_play)
        else:
            button.button(
                t("rnn.play"),
                key="rnn_play",
                icon=":material/play_arrow:",
                on_click=_start_play,
                help=t("rnn.play_help"),
            )
    st.session_state["rnn_full_step"] = current_step(S)
    # While playing, only this part reruns, once a tick; the timer is set only then.
    st.fragment(picture_body, run_every=PLAY_SECONDS if playing else None)(config, result)


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


def show_step(inputs: RnnInputs) -> None:
    """The slider's step written out: x_t, h_(t-1), the formula with its numbers, and the step's bars."""
    config = inputs.need()
    result = compute(config)
    S = len(result.tokens)
    step = current_step(S) - 1
    token = md_escape(result.tokens[step])
    st.latex(r"h_t = \tanh(W_x\,x_t + W_h\,h_{t-1} + b)")
    st.markdown(f"**{t('rnn.step_heading', t=step + 1, S=S, token=token)}**")
    st.markdown(t("rnn.x_line", t=step + 1, token=token, x=f"`{vec(result.x[step])}`"))
    st.markdown(t("rnn.hprev_line", tp=step, h=f"`{vec(result.h_prev[step])}`"))
    if step == 0:
        st.caption(t("rnn.h0_note"))
    for line in formula_latex(result, step):
        st.latex(line)
    st.caption(t("rnn.expansion", t=step + 1, expr=f"`{unit_expansion(result, step, 0)}`"))
    st.markdown(t("rnn.squash_note", t=step + 1, **squash_range(result, step)))
    st.markdown(f"**{chart_labels(step, lang())['step_title']}**")
    draw(st, chart_specs(config, step, lang())["step"])


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
        ("ui.tab_steps", lambda: show_step(inputs)),
        ("ui.tab_tables", lambda: show_weights(inputs)),
        ("ui.tab_check", lambda: show_check(inputs)),
        ("ui.tab_code", lambda: show_code(inputs)),
        ("ui.tab_notice", lambda: show_notices(inputs)),
    ]
)
