"""Page: RNN unrolling — step through h_t = tanh(W_x·x_t + W_h·h_(t-1) + b) on the learner's sentence."""

from __future__ import annotations

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
    MAX_E,
    MAX_H,
    MAX_S,
    first_word_effect,
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
from s2s_ui.i18n import lang, t
from s2s_ui.link import linked, to_link
from s2s_ui.widgets import (
    check_badge,
    code_expander,
    matrix_input,
    md_escape,
    notice_list,
    page_header,
    predict_then_reveal,
    reset_button,
    show_error,
)

PLAY_SECONDS = 1.0  # one step per tick while playing; stops by itself at the last step
TABLES = ("W_x", "W_h", "b")
QUIZ_OPTIONS = ("none", "only_first", "all", "only_last", "some")


@st.cache_data(max_entries=256, show_spinner=False)
def compute(config: RnnConfig) -> RnnResult:
    return unroll(config)


def _table_key(name: str, H: int, E: int) -> str:
    """One table per shape: a new H or E starts from that shape's seeded weights (and its own URL value)."""
    return f"rnn_{name.lower()}_{H}x{E}"


def _weight_tables(H: int, E: int, seed: int) -> dict[str, list[list[float]] | None]:
    """The three editable tables; a table with a bad cell shows its message and counts as 'not typed'."""
    seeded = seeded_weights(E, H, seed)
    defaults = {"W_x": seeded.W_x, "W_h": seeded.W_h, "b": seeded.b}
    cols = {"W_x": [f"x{j + 1}" for j in range(E)], "W_h": [f"h{j + 1}" for j in range(H)], "b": ["b"]}
    out: dict[str, list[list[float]] | None] = {}
    left, mid, right = st.columns([E + 1, H + 1, 2])
    for name, col in zip(TABLES, (left, mid, right), strict=True):
        with col:
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


def read_inputs() -> RnnConfig | None:
    """Widgets -> validated config; None (with a message naming the field) when the sentence or a size is bad."""
    st.subheader(t("rnn.inputs"))
    sentence_key = f"rnn_sentence_{lang()}"  # the default sentence follows the language
    left, right = st.columns([3, 2])
    with left:
        sentence = linked(
            st.text_input,
            t("rnn.field.sentence"),
            key=sentence_key,
            default=t("rnn.default_sentence"),
            help=t("rnn.sentence_help", limit=MAX_S),
            max_chars=caps.MAX_TEXT_CHARS,
        )
    with right:
        c1, c2, c3 = st.columns(3)
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
            c3.number_input,
            t("rnn.field.seed"),
            key="rnn_seed",
            default=DEFAULT_SEED,
            min_value=0,
            max_value=caps.MAX_SEED,
            step=1,
            help=t("rnn.seed_help"),
        )
    edit = linked(st.toggle, t("rnn.edit_label"), key="rnn_edit", default=False, help=t("rnn.edit_help"))
    try:
        base = parse_config(sentence, E, H, seed)
    except InputError as err:
        show_error(err)
        reset_button([sentence_key, "rnn_E", "rnn_H", "rnn_seed", "rnn_edit", "rnn_step"])
        return None
    tables: dict[str, list[list[float]] | None] = dict.fromkeys(TABLES)
    keys = {_table_key(name, base.H, base.E) for name in TABLES}
    if edit:
        tables = _weight_tables(base.H, base.E, base.seed)
    _drop_stale_table_params(keep=keys if edit else set())
    reset_button([sentence_key, "rnn_E", "rnn_H", "rnn_seed", "rnn_edit", "rnn_step", *sorted(keys)])
    return parse_config(sentence, base.E, base.H, base.seed, tables["W_x"], tables["W_h"], tables["b"])


def show_weights(config: RnnConfig, result: RnnResult) -> None:
    """The one set of weights: parameter count and (on demand) the numbers themselves."""
    S = len(result.tokens)
    st.subheader(t("rnn.shared_title"))
    st.caption(t("rnn.shared_caption", E=config.E, H=config.H, n=result.n_params, S=S))
    if not config.W_x and not config.W_h and not config.b:
        with st.expander(t("rnn.weights_expander")):
            cols = st.columns([config.E + 1, config.H + 1, 2])
            w = result.weights
            for col, name, matrix in zip(cols, TABLES, (w.W_x, w.W_h, w.b), strict=True):
                col.markdown(f"**{name}**")
                col.dataframe(weights_table(matrix, name), hide_index=True)
            st.caption(t("rnn.bias_note"))


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


def show_step_body(config: RnnConfig, result: RnnResult) -> None:
    """Slider, unrolled graph, the current step written out, and the heatmap (reruns alone while playing)."""
    S = len(result.tokens)
    playing = bool(st.session_state.get("rnn_playing"))
    if playing:
        _advance(S)
    if int(st.session_state.get("rnn_step", 1) or 1) > S:  # the sentence got shorter
        st.session_state["rnn_step"] = S
    if S > 1:
        t_ = linked(
            st.slider, t("rnn.step_label"), key="rnn_step", default=1, min_value=1, max_value=S, disabled=playing
        )
    else:
        t_ = 1
    step = int(t_) - 1
    labels = chart_labels(step, lang())
    specs = chart_specs(config, step, lang())
    st.markdown(f"**{labels['unroll_title']}**")
    draw(st, specs["unroll"])

    token = md_escape(result.tokens[step])
    with st.container(border=True):
        st.markdown(f"**{t('rnn.step_heading', t=step + 1, S=S, token=token)}**")
        st.markdown(t("rnn.x_line", t=step + 1, token=token, x=f"`{vec(result.x[step])}`"))
        st.markdown(t("rnn.hprev_line", tp=step, h=f"`{vec(result.h_prev[step])}`"))
        if step == 0:
            st.caption(t("rnn.h0_note"))
        for line in formula_latex(result, step):
            st.latex(line)
        st.caption(t("rnn.expansion", t=step + 1, expr=f"`{unit_expansion(result, step, 0)}`"))
        st.markdown(t("rnn.squash_note", t=step + 1, **squash_range(result, step)))
        st.markdown(f"**{labels['step_title']}**")
        draw(st, specs["step"])

    st.subheader(t("rnn.timeline_header"))
    st.markdown(f"**{labels['timeline_title']}**")
    draw(st, specs["timeline"])


def chart_labels(step: int, language: str) -> dict[str, str]:
    def tr(key: str, **fmt: object) -> str:
        return translate(language, f"rnn.chart.{key}", **fmt)

    keys = ("weight", "node", "token", "unroll_title", "step", "unit", "timeline_title", "value", "term")
    labels = {k: tr(k) for k in keys}
    labels["step_title"] = tr("step_title", t=step + 1)
    labels |= {f"term_{i}": tr(f"term_{i}") for i in range(5)}
    return labels


def show_steps(config: RnnConfig, result: RnnResult) -> None:
    st.subheader(t("rnn.step_title"))
    st.latex(r"h_t = \tanh(W_x\,x_t + W_h\,h_{t-1} + b)")
    S = len(result.tokens)
    playing = bool(st.session_state.get("rnn_playing"))
    if S > 1:
        if playing:
            st.button(t("rnn.stop"), key="rnn_stop", icon=":material/stop:", on_click=_stop_play)
        else:
            st.button(
                t("rnn.play"),
                key="rnn_play",
                icon=":material/play_arrow:",
                on_click=_start_play,
                help=t("rnn.play_help"),
            )
    # While playing, only this part reruns, once a tick; the timer is set only then.
    st.fragment(show_step_body, run_every=PLAY_SECONDS if playing else None)(config, result)


def show_quiz(result: RnnResult) -> None:
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
    predict_then_reveal("rnn_quiz", t("rnn.quiz_question"), options, t(f"rnn.quiz_{effect.answer}"), f"{explain} {why}")


def show_notices(result: RnnResult) -> None:
    repeats = repeated_tokens(result.tokens)
    token, steps = repeats[0] if repeats else ("", [])
    repeat_key = "rnn.notice_repeat" if repeats else "rnn.notice_repeat_hint"
    notice_list(
        ["rnn.notice_1", "rnn.notice_2", "rnn.notice_3", repeat_key, "rnn.notice_5"],
        n=result.n_params,
        S=len(result.tokens),
        token=md_escape(token),
        steps=", ".join(map(str, steps)),
    )


page_header("rnn")
config = read_inputs()
if config is not None:
    result = compute(config)
    show_weights(config, result)
    show_steps(config, result)
    check_badge(t("rnn.check_what"), result.max_abs_diff, tol=1e-9)
    show_quiz(result)
    show_notices(result)
    code_expander(script(config), file_name="rnn_unroll.py")
