"""Page: Bahdanau vs Luong — every score function on the same states, keys vs values, windows, step wiring."""

from __future__ import annotations

from typing import Any

import streamlit as st

from s2s_core import caps
from s2s_core.errors import InputError
from s2s_core.fmt import num, sci, vec
from s2s_core.scoring.charts import flow_dot, page_charts
from s2s_core.scoring.code import script
from s2s_core.scoring.compute import (
    CONTEXT_INTO,
    DEFAULT_DEC,
    DEFAULT_ENC,
    MAX_ATTN,
    MAX_HALF_WIDTH,
    MAX_SCALE,
    MAX_SIZE,
    QUERY_FROM,
    WINDOWS,
    ScoringConfig,
    ScoringResult,
    as_error,
    compare,
    parse_config,
)
from s2s_core.scoring.frames import (
    masked_text,
    param_tables,
    position_label,
    states_table,
    total,
)
from s2s_core.scoring.from_encoder import DEFAULT_SENTENCES, states_from_encoder
from s2s_core.scoring.modules import SCORERS
from s2s_core.scoring.picture import compare_picture, focus_picture
from s2s_core.scoring.quiz import DoubledQuery, doubled_query
from s2s_ui.cache import cached_result
from s2s_ui.catalog import translate
from s2s_ui.charts import cached_spec, draw
from s2s_ui.explainer import TryCase, before_after, details, explainer, try_this
from s2s_ui.i18n import lang, t
from s2s_ui.link import linked
from s2s_ui.registry import PAGES
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

SOURCES = ("table", "encoder")
QUIZ = "scoring_quiz"
INPUT_KEYS = [
    "scoring_from",
    "scoring_dec",
    "scoring_he",
    "scoring_enc",
    "scoring_sentence",
    "scoring_attn",
    "scoring_seed",
    "scoring_scale",
    "scoring_focus",
    "scoring_window",
    "scoring_step",
    "scoring_D",
    "scoring_query",
    "scoring_into",
    "scoring_pos",
]


def cases() -> list[TryCase]:
    """Prepared states: the other language's sentence through a real encoder, a size mismatch, local-p, scale."""
    other = "ko" if lang() == "en" else "en"
    return [
        TryCase(
            f"scoring.try_{other}",
            "scoring.try_sentence_note",
            {"scoring_from": "encoder", "scoring_sentence": DEFAULT_SENTENCES[other]},
        ),
        TryCase("scoring.try_sizes", "scoring.try_sizes_note", {"scoring_he": "3"}),
        TryCase("scoring.try_local_p", "scoring.try_local_p_note", {"scoring_window": "local_p", "scoring_D": "2"}),
        TryCase("scoring.try_scale", "scoring.try_scale_note", {"scoring_scale": "8"}),
    ]


@cached_result(max_entries=256)
def compute(config: ScoringConfig) -> ScoringResult:
    return compare(config)


# Building Altair specs is the slow part of a rerun, so the finished Vega-Lite dicts are cached (validated
# against the schema in tests/core/test_scoring.py instead of on every rerun).
@cached_spec(max_entries=256)
def chart_specs(config: ScoringConfig, labels: dict[str, str]) -> Any:
    return dict(page_charts(compute(config), config.focus, labels))


def chart_labels(config: ScoringConfig, result: ScoringResult) -> dict[str, str]:
    """Translated titles and axis names with the live shapes (part of the cache key: one entry per language)."""
    labels = {k: t(f"scoring.chart.{k}") for k in ("position", "weight", "score", "align", "gauss", "compare_title")}
    f = result.get(config.focus)
    shown = f.name if f.read is not None else "additive"
    labels["window_title"] = t("scoring.chart.window_title", name=names()[shown])
    return labels


@cached_result(max_entries=256)
def quiz_answer(config: ScoringConfig) -> DoubledQuery | None:
    return doubled_query(config)


@cached_result(max_entries=64)
def encoder_states(sentence: str, seed: int) -> tuple[tuple[float, ...], tuple[tuple[float, ...], ...]]:
    return states_from_encoder(sentence, seed)


def names() -> dict[str, str]:
    return {n: t(f"scoring.fn.{n}") for n in SCORERS}


def choice(label_key: str, options: tuple[str, ...], default: str, key: str, prefix: str):
    return linked(
        st.segmented_control,
        t(label_key),
        options,
        key=key,
        default=default,
        labels={o: t(f"{prefix}{o}") for o in options},
        required=True,
    )


def read_states(seed: int) -> tuple[str, list[list[object]]] | None:
    """The decoder state (as text) and the encoder states (rows), typed or taken from the encoder."""
    source = choice("scoring.from_label", SOURCES, "table", "scoring_from", "scoring.from_")
    if source == "encoder":
        sentence = linked(
            st.text_input,
            t("scoring.sentence_label"),
            key="scoring_sentence",
            default=DEFAULT_SENTENCES.get(lang(), DEFAULT_SENTENCES["en"]),  # each language's own: no parameter
            help=t("scoring.sentence_help"),
            max_chars=caps.MAX_TEXT_CHARS,
        )
        try:
            s, rows = encoder_states(sentence, seed)
        except InputError as err:
            show_error(err)
            return None
        st.caption(t("scoring.from_encoder_note", S=len(rows), H=len(rows[0]), s=vec(list(s))))
        st.dataframe(states_table(rows), hide_index=True, width="stretch")
        return ", ".join(repr(x) for x in s), [list(r) for r in rows]
    left, right = st.columns([3, 2])
    dec = linked(
        left.text_input,
        t("scoring.dec_label"),
        key="scoring_dec",
        default=", ".join(f"{x:g}" for x in DEFAULT_DEC),
        help=t("scoring.dec_help"),
    )
    H_e = linked(
        right.number_input,
        t("scoring.he_label"),
        key="scoring_he",
        default=len(DEFAULT_ENC[0]),
        min_value=1,
        max_value=MAX_SIZE,
        step=1,
        help=t("scoring.he_help"),
    )
    rows = matrix_input(
        "scoring_enc",
        DEFAULT_ENC,
        "scoring.field.enc_states",
        label=t("scoring.enc_label"),
        parse=lambda r: r,
        n_cols=int(H_e),
        col_names=[f"h{i + 1}" for i in range(int(H_e))],
    )
    return None if rows is None else (dec, rows)


def read_model() -> tuple[int, int, float]:
    """The untrained weights: attention size A, seed, scale (secondary: folded in the controls column)."""
    attn = linked(
        st.number_input,
        t("scoring.attn_label"),
        key="scoring_attn",
        default=3,
        min_value=1,
        max_value=MAX_ATTN,
        step=1,
    )
    seed = linked(
        st.number_input,
        t("scoring.seed_label"),
        key="scoring_seed",
        default=0,
        min_value=0,
        max_value=caps.MAX_SEED,
        step=1,
    )
    scale = linked(
        st.number_input,
        t("scoring.scale_label"),
        key="scoring_scale",
        default=2.0,
        min_value=0.1,
        max_value=MAX_SCALE,
        step=0.5,
        help=t("scoring.scale_help"),
    )
    return attn, seed, scale


def read_views() -> dict[str, object]:
    """What the tabs below look at: the function in focus, the window, the step's wiring (folded)."""
    focus = linked(
        st.segmented_control,
        t("scoring.focus_label"),
        SCORERS,
        key="scoring_focus",
        default="additive",
        labels=names(),
        required=True,
    )
    window = choice("scoring.window_label", WINDOWS, "global", "scoring_window", "scoring.window_")
    c1, c2 = st.columns(2)
    step = linked(
        c1.number_input,
        t("scoring.step_label"),
        key="scoring_step",
        default=3,
        min_value=1,
        max_value=caps.MAX_SEQ_LEN,
        step=1,
        help=t("scoring.step_help"),
        disabled=window != "local_m",
    )
    half_width = linked(
        c2.number_input,
        t("scoring.half_width_label"),
        key="scoring_D",
        default=1,
        min_value=1,
        max_value=MAX_HALF_WIDTH,
        step=1,
        disabled=window == "global",
    )
    query_from = choice("scoring.query_label", QUERY_FROM, "previous", "scoring_query", "scoring.query_")
    context_into = choice("scoring.into_label", CONTEXT_INTO, "input", "scoring_into", "scoring.into_")
    return dict(
        focus=focus,
        window=window,
        step=step,
        half_width=half_width,
        query_from=query_from,
        context_into=context_into,
    )


def read_inputs() -> ScoringConfig | None:
    """Widgets -> validated config, all in the controls column; a bad field is named under it."""
    main = st.container()  # the states first on screen, though the encoder needs the seed read below
    # Secondary settings, folded: the untrained weights, then what the tabs below look at.
    with st.expander(t("scoring.more_settings"), icon=":material/tune:"):
        attn, seed, scale = read_model()
        st.divider()
        views = read_views()
    with main:
        states = read_states(int(seed))
    try_this(cases(), INPUT_KEYS)
    reset_button(INPUT_KEYS)
    if states is None:
        return None
    try:
        return parse_config(states[0], states[1], attn_size=attn, seed=seed, scale=scale, **views)
    except InputError as err:
        show_error(err)
        return None


STEP_PARAM = "scoring_pos_sel"
PICTURE_KEYS = ("title", "subtitle", "subtitle_before", "before", "unavailable", "position", "score", "weight")


@cached_spec(max_entries=256)
def compare_spec(config: ScoringConfig, before: ScoringConfig | None, language: str) -> Any:
    """Picture 1: every function's scores and weights; the previous input's weights as dashes."""
    result = compute(config)
    fn = {n: translate(language, f"scoring.fn.{n}") for n in SCORERS}
    word = {k: translate(language, f"scoring.chart.{k}") for k in ("picture_title", "before", "unavailable")}
    word |= {k: translate(language, f"scoring.chart.{k}") for k in ("position", "score", "weight")}
    peaks = "; ".join(
        translate(
            language,
            "scoring.chart.peak_item",
            name=fn[f.name],
            position=position_label(int(f.read.weights[0].argmax())),
            weight=num(float(f.read.weights[0].max())),
        )
        for f in result.functions
        if f.read is not None
    )
    previous = compute(before) if before is not None else None
    labels = word | {
        "title": word["picture_title"],
        "subtitle": translate(language, "scoring.chart.picture_subtitle" + ("_before" if previous is not None else "")),
        "description": translate(language, "scoring.chart.picture_description", S=result.S, peaks=peaks),
    }
    return compare_picture(result, fn, labels, previous)


def focused(result: ScoringResult, focus: str):
    """The function in focus, or additive when it cannot score these states (the window is the same for all)."""
    f = result.get(focus)
    return f if f.read is not None else result.get("additive")


@cached_spec(max_entries=256)
def focus_spec(config: ScoringConfig, language: str, first: int) -> Any:
    """Picture 2: keys on top, values below, the function between; the window on the source row."""
    result = compute(config)
    f = focused(result, config.focus)
    name = translate(language, f"scoring.fn.{f.name}")
    words = ("key", "value_row", "context", "position", "score", "weight", "gauss", "value", "component", "p")
    labels = {k: translate(language, f"scoring.chart.{k}") for k in words}
    window = {"global": {}, "local_m": {"t": config.step}, "local_p": {}}[config.window]
    p = num(float(f.read.center[0])) if f.read.center is not None else ""
    labels |= {
        "title": translate(language, "scoring.chart.focus_title", name=name),
        "subtitle": translate(language, f"scoring.chart.focus_{config.window}", p=p, **window),
        "description": translate(
            language, "scoring.chart.focus_description", name=name, weights=vec(f.read.weights[0])
        ),
        "keys": translate(language, "scoring.chart.keys_row"),
        "scores": translate(
            language, "scoring.chart.scores_row", formula=translate(language, f"scoring.formula.{f.name}")
        ),
        "values": translate(language, "scoring.chart.values_row"),
    }
    step = step_param(STEP_PARAM, result.S, first, translate(language, "scoring.chart.position"))
    return focus_picture(f.read, config.window, labels, step)


def follow_position(result: ScoringResult, focus: str, event: StepEvent) -> None:
    """Under picture 2, for the chosen position j: its score, weight and share of the context."""
    read = focused(result, focus).read
    j = event.step - 1
    position = position_label(j)
    if not bool(read.mask[0, j]):
        st.markdown(t("scoring.position_outside", position=position))
        return
    weight = float(read.weights[0, j])
    st.markdown(
        t(
            "scoring.position_line",
            position=position,
            score=num(float(read.scores[0, j])),
            weight=num(weight),
            value=vec(read.values[0, j]),
            term=vec(weight * read.values[0, j]),
            context=vec(read.context[0]),
        )
    )


def show_picture(config: ScoringConfig, result: ScoringResult) -> None:
    """Picture 1 (every function side by side), then picture 2 (keys, values, window) with its position slider."""
    before = before_after("scoring_picture", config)
    if not any(f.read is not None for f in result.functions):
        st.info(t("scoring.no_function_scores"), icon=":material/info:")
        return
    draw(st, compare_spec(config, before, lang()))
    step_view(
        "scoring_pos",
        lambda first: focus_spec(config, lang(), first),
        result.S,
        param=STEP_PARAM,
        follow=lambda event: follow_position(result, config.focus, event),
        play=False,
    )


def show_comparison(result: ScoringResult) -> None:
    fn = names()
    rows, errors = [], []
    for f in result.functions:
        missing = t("scoring.unavailable")
        rows.append(
            {
                t("scoring.col_function"): fn[f.name],
                t("scoring.col_scores"): masked_text(f.read) if f.read else missing,
                t("scoring.col_weights"): vec(f.read.weights[0]) if f.read else missing,
                t("scoring.col_context"): vec(f.read.context[0]) if f.read else missing,
            }
        )
        if f.error and f.error[0] not in [e[0] for e in errors]:
            errors.append(f.error)
    # Formulas on one line, not in a column: four columns of vectors already fill a phone's width.
    st.caption(" · ".join(f"{fn[f.name]} = {t(f'scoring.formula.{f.name}')}" for f in result.functions))
    st.table(rows, border="horizontal", hide_index=True)  # five short rows: plain text that wraps on a phone
    for parts in errors:
        show_error(as_error(parts))
    check_badge(t("scoring.check_what"), result.max_abs_diff, tol=1e-9)
    st.caption(t("scoring.concat_note", diff=sci(result.concat_as_additive_diff)))


def show_focus(config: ScoringConfig, result: ScoringResult, specs: dict[str, dict]) -> None:
    f = result.get(config.focus)
    name = names()[f.name]
    st.markdown(t("scoring.focus_formula", formula=t(f"scoring.formula.{f.name}")))
    if f.read is None:
        show_error(as_error(f.error))
        return
    read = f.read
    st.caption(t("scoring.qkv_caption"))
    if f.maps == "none":
        st.markdown(t("scoring.keys_are_values", name=name))
    else:
        shapes = dict(keys=tuple(read.keys.shape), values=tuple(read.values.shape), H_e=result.H_e)
        if f.maps == "keys":
            st.markdown(t("scoring.keys_values_general", H_d=read.query.shape[1], **shapes))
        else:
            st.markdown(t("scoring.keys_values_both", A=config.attn_size, **shapes))
    st.markdown(t("scoring.weights_line", weights=vec(read.weights[0]), total=total(read.weights)))
    st.markdown(t("scoring.context_line", context=vec(read.context[0])))
    with st.expander(t("scoring.params_title", name=name)):
        if not f.params:
            st.caption(t("scoring.no_params", name=name))
        for label, shape, rows in param_tables(f.params):
            st.markdown(f"**{label}** {shape}")
            st.dataframe(rows, hide_index=True)


def show_window(config: ScoringConfig, result: ScoringResult, specs: dict[str, dict]) -> None:
    st.caption(t("scoring.window_intro"))
    f = result.get(config.focus)
    if f.read is None:
        f = result.get("additive")  # the window does not depend on the score function; show one that scores
    read = f.read
    inside = [position_label(j) for j in range(result.S) if bool(read.mask[0, j])]
    if config.window == "global":
        st.markdown(t("scoring.global_line", S=result.S))
    elif config.window == "local_m":
        w = result.window
        key = "scoring.local_m_clipped" if w.step_clipped else "scoring.local_m_line"
        st.markdown(
            t(key, t=config.step, S=result.S, p=num(w.center), lo=num(w.lo), hi=num(w.hi), positions=", ".join(inside))
        )
    else:
        w = result.window
        st.markdown(
            t(
                "scoring.local_p_line",
                S=result.S,
                share=num(w.sigmoid),
                p=num(w.center),
                lo=num(w.lo),
                hi=num(w.hi),
                positions=", ".join(inside),
                sigma=num(w.sigma),
            )
        )
    lines = [
        t("scoring.masked_line", masked=masked_text(read)),
        t("scoring.align_line", align=vec(read.align[0]), total=total(read.align)),
    ]
    if read.gauss is not None:
        lines.append(t("scoring.gauss_line", gauss=vec(read.gauss[0])))
    lines.append(t("scoring.final_line", weights=vec(read.weights[0]), total=total(read.weights)))
    st.markdown("  \n".join(lines))
    if read.gauss is not None:
        w = result.window
        why = t(
            "scoring.gauss_sum_cut" if w.edges_cut else "scoring.gauss_sum_whole",
            total=total(read.weights),
            m=w.n_window,
            n=w.n_inside,
            whole=num(w.whole_sum),
            cut=num(w.cut_sum),
        )
        st.info(t("scoring.gauss_note") + "  \n" + why, icon=":material/info:")
    draw(st, specs["window"])


def show_flow(config: ScoringConfig, result: ScoringResult) -> None:
    if result.flow is None:
        show_error(as_error(result.flow_error))
        return
    flow = result.flow
    st.markdown(t(f"scoring.flow_{config.query_from}_{config.context_into}"))
    keys = (
        "y",
        "s_prev",
        "enc",
        "score",
        "weights",
        "context",
        "gru",
        "s_t",
        "combine",
        "combined",
        "logits",
        "keys_edge",
        "values_edge",
    )
    st.graphviz_chart(flow_dot(flow, {k: t(f"scoring.diagram.{k}") for k in keys}), width="content")  # natural size
    shapes = ", ".join(f"{name} {shape}" for name, shape in flow.shapes)
    st.caption(t("scoring.flow_shapes", shapes=shapes))
    weights = vec(flow.read.weights[0])
    if config.query_from == "current":
        st.markdown(t("scoring.flow_differs", weights=weights))
    else:
        st.markdown(t("scoring.flow_same", name=names()[config.focus], weights=weights))
    show_recurrence(flow)


def show_recurrence(flow) -> None:
    """Attention sits on top of a decoder that is still recurrent: s_t = GRU(input, s_(t-1))."""
    if flow.prev_is_zero:
        st.info(t("scoring.flow_recurrent_zero"), icon=":material/repeat:")
    else:
        st.info(
            t(
                "scoring.flow_recurrent",
                s_t=vec(flow.s_t[0]),
                zero=vec(flow.s_t_from_zero[0]),
                carried=num(flow.carried),
            ),
            icon=":material/repeat:",
        )
    lab = next((p for p in PAGES if p.ns == "translation" and p.exists), None)
    if lab is None:
        st.caption(t("scoring.flow_translation_later"))
    else:
        st.page_link(lab.file, label=t("scoring.flow_translation_link"), icon=lab.icon)


def show_quiz(config: ScoringConfig) -> None:
    """Predict the effect of an edit: double s. The picture shows the weights for s only."""
    q = quiz_answer(config)
    if q is None:
        return
    options = {v: t(f"scoring.quiz_{v}") for v in ("rise", "same", "fall")}
    name, doubled = names()[q.name], ", ".join(f"{x:g}" for x in q.doubled)
    predict_then_reveal(
        QUIZ,
        t("scoring.quiz_question", name=name, peak=num(q.peak), doubled=doubled),
        list(options.values()),
        options[q.verdict],
        t("scoring.quiz_explain", name=name, peak=num(q.peak), peak2=num(q.peak_doubled), doubled=doubled),
    )


def show_notice() -> None:
    notice_list([f"scoring.notice_{i}" for i in range(1, 5)])
    if revealed(QUIZ):  # says how dot-product scores react to a longer s: the question's answer
        st.markdown(f"- {t('scoring.notice_doubled')}")


controls, picture = explainer("scoring")
with controls:
    config = read_inputs()
if config is not None:
    result = compute(config)
    specs = chart_specs(config, chart_labels(config, result))
    with picture:
        show_picture(config, result)
    show_quiz(config)
    details(
        [
            ("scoring.tab_compare", lambda: show_comparison(result)),
            ("scoring.tab_focus", lambda: show_focus(config, result, specs)),
            ("scoring.tab_window", lambda: show_window(config, result, specs)),
            ("scoring.tab_flow", lambda: show_flow(config, result)),
            ("ui.tab_notice", show_notice),
            ("ui.tab_code", lambda: code_expander(script(config), file_name="bahdanau_vs_luong.py")),
        ],
        key="scoring_tabs",
    )
