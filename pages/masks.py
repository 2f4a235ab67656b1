"""Page: padding & masks — PAD left out of the loss (ignore_index) vs PAD masked out of attention."""

from __future__ import annotations

from typing import Any

import streamlit as st

from s2s_core.errors import InputError
from s2s_core.fmt import num, signed, vec
from s2s_core.masks import MasksConfig, MasksResult, compute_masks, default_pairs, parse_config, screen_pairs
from s2s_core.masks.charts import batch_charts, sentence_charts
from s2s_core.masks.code import script
from s2s_core.masks.compute import (
    DEFAULT_EMBED,
    DEFAULT_HIDDEN,
    DEFAULT_PAIRS,
    DEFAULT_SEED,
    MAX_PAIRS,
    MAX_SIZE,
    MIN_SIZE,
    PAIRS_BY_LANG,
)
from s2s_core.masks.empty import EmptySourceDemo, empty_source_demo
from s2s_core.masks.frames import final_state_table
from s2s_core.masks.picture import Rejected, masks_picture, weight_line
from s2s_ui.cache import cached_result
from s2s_ui.catalog import translate
from s2s_ui.charts import cached_spec, draw
from s2s_ui.explainer import TryCase, before_after, details, explainer, try_this
from s2s_ui.i18n import error_text, lang, t
from s2s_ui.link import linked
from s2s_ui.steps import StepEvent, step_param, step_view
from s2s_ui.widgets import (
    check_badge,
    code_expander,
    md_escape,
    notice_list,
    predict_then_reveal,
    reset_button,
    revealed,
    show_error,
)

QUIZ = "masks_quiz"
ROW_KEYS = [f"masks_{side}_{row}" for row in range(1, MAX_PAIRS + 1) for side in ("src", "tgt")]
INPUT_KEYS = ["masks_rows", *ROW_KEYS, "masks_seed", "masks_hidden", "masks_embed", "masks_row", "masks_pick"]
STEP_PARAM = "masks_pick_sel"
PICTURE_KEYS = (
    "overlay",
    "loss",
    "attention",
    "sentence",
    "rejected",
    "source",
    "target",
    "strip",
    "counted",
    "position",
    "token",
    "masked",
    "unmasked",
    "before",
)
CHART_KEYS = (
    "position",
    "sentence",
    "pad",
    "pad_yes",
    "pad_no",
    "token",
    "id",
    "nll",
    "step",
    "weight",
    "score",
    "share",
    "variant",
    "component",
    "value",
    "state",
    "masked",
    "unmasked",
    "after_pad",
    "true_last",
)
TITLE_KEYS = (
    "grid_source",
    "grid_dec_in",
    "grid_dec_out",
    "grid_ignore",
    "grid_all",
    "heat_masked",
    "heat_unmasked",
    "share_title",
)


def other_language_case() -> TryCase:
    """The other language's example batch: the syllabus's Korean one on the English page, and back."""
    other = "ko" if lang() == "en" else "en"
    params = {}
    for row, (src, tgt) in enumerate(PAIRS_BY_LANG[other][: len(DEFAULT_PAIRS)], start=1):
        params |= {f"masks_src_{row}": src, f"masks_tgt_{row}": tgt}
    return TryCase(f"masks.try_{other}", f"masks.try_{other}_note", params)


def cases() -> list[TryCase]:
    return [
        other_language_case(),
        TryCase("masks.try_single", "masks.try_single_note", {"masks_rows": "1"}),
        TryCase("masks.try_empty", "masks.try_empty_note", {"masks_src_2": "<pad>"}),
    ]


@cached_result(max_entries=256)
def compute(config: MasksConfig) -> MasksResult:
    return compute_masks(config)


@cached_result(max_entries=32)
def empty_demo(S: int) -> EmptySourceDemo:
    return empty_source_demo(S)


# Building Altair specs is the slow part of a rerun, so the finished Vega-Lite dicts are cached (and not
# re-validated here: tests/core/test_masks.py validates every chart against the schema).
@cached_spec(max_entries=256)
def batch_specs(config: MasksConfig, labels: dict[str, str]) -> Any:
    return dict(batch_charts(compute(config), config, labels))


@cached_spec(max_entries=256)
def sentence_specs(config: MasksConfig, b: int, labels: dict[str, str]) -> Any:
    return dict(sentence_charts(compute(config), b, labels))


def chart_labels(row: int = 0) -> dict[str, str]:
    """Translated axis titles and chart titles (part of the cache key, so each language is cached apart)."""
    labels = {k: t(f"masks.chart.{k}") for k in CHART_KEYS} | {k: t(f"masks.{k}") for k in TITLE_KEYS}
    return labels | {"final_chart": t("masks.final_chart", row=row)}


def read_inputs() -> tuple[MasksConfig | None, tuple[Rejected, ...]]:
    """Widgets -> validated config; a bad pair is named under the fields and left out, the others still run."""
    defaults = default_pairs(lang())  # each language's own sentences are its "no parameter" defaults
    n = linked(
        st.number_input,
        t("masks.rows_label"),
        key="masks_rows",
        default=len(DEFAULT_PAIRS),
        min_value=1,
        max_value=MAX_PAIRS,
        step=1,
        help=t("masks.inputs_help"),
    )
    pairs = []
    for row in range(1, int(n) + 1):
        left, right = st.columns(2)
        src = linked(
            left.text_input, t("masks.source_label", row=row), key=f"masks_src_{row}", default=defaults[row - 1][0]
        )
        tgt = linked(
            right.text_input, t("masks.target_label", row=row), key=f"masks_tgt_{row}", default=defaults[row - 1][1]
        )
        pairs.append((src, tgt))
    with st.expander(t("masks.settings")):
        seed = linked(
            st.number_input,
            t("masks.seed_label"),
            key="masks_seed",
            default=DEFAULT_SEED,
            min_value=0,
            max_value=9999,
            step=1,
        )
        c1, c2 = st.columns(2)
        hidden = linked(
            c1.number_input,
            t("masks.hidden_label"),
            key="masks_hidden",
            default=DEFAULT_HIDDEN,
            min_value=MIN_SIZE,
            max_value=MAX_SIZE,
            step=1,
        )
        embed = linked(
            c2.number_input,
            t("masks.embed_label"),
            key="masks_embed",
            default=DEFAULT_EMBED,
            min_value=MIN_SIZE,
            max_value=MAX_SIZE,
            step=1,
        )
        st.caption(t("masks.untrained_note"))
    try_this(cases(), INPUT_KEYS)
    reset_button(INPUT_KEYS)
    rejected: tuple[Rejected, ...] = ()
    try:
        screened = screen_pairs(pairs)
        for err in screened.errors:
            show_error(err)
        if screened.errors and screened.pairs:
            dropped = [r for r in range(1, len(pairs) + 1) if r not in screened.rows]
            st.caption(t("masks.dropped", rows=", ".join(str(r) for r in dropped)))
        # An all-PAD source is drawn in the picture as a rejected row, with the same message.
        rejected = tuple(
            Rejected(row, str(pairs[row - 1][0]), error_text(err))
            for err in screened.errors
            if err.key == "errors.all_pad"
            for row in [int(err.field.rsplit("_", 1)[-1])]
        )
        return parse_config(pairs, seed, hidden, embed, drop_bad=True), rejected
    except InputError as err:
        show_error(err)
        return None, rejected


@cached_spec(max_entries=256)
def picture_spec(
    config: MasksConfig,
    before: MasksConfig | None,
    rejected: tuple[Rejected, ...],
    language: str,
    answered: bool,
    first: int,
) -> Any:
    """The grid with its two mask overlays and the chosen sentence's weights (answered: the counts may show)."""
    result = compute(config)
    labels = {k: translate(language, f"masks.picture.{k}") for k in PICTURE_KEYS}
    B, S, T = len(config.rows), int(result.src_ids.shape[1]), int(result.dec_out.shape[1])
    labels |= {
        "title": translate(language, "masks.picture.title"),
        "subtitle": translate(language, "masks.picture.subtitle" + ("_before" if before is not None else "")),
        "description": translate(language, "masks.picture.description", B=B, S=S, T=T),
        "denominator": translate(
            language, "masks.picture.denominator", n_real=result.n_real, loss=num(result.loss_ignore)
        ),
    }
    step = step_param(STEP_PARAM, B, first, translate(language, "masks.picture.sentence", row="").strip())
    previous = (compute(before), before) if before is not None else None
    return masks_picture(result, config, rejected, labels, step, answered, previous)


def follow_sentence(config: MasksConfig, result: MasksResult, event: StepEvent) -> None:
    """Under the picture, for the chosen sentence: how much weight reaches PAD with and without the mask."""
    b = event.step - 1
    row = config.rows[b]
    if bool(result.src_mask[b].all()):
        st.caption(t("masks.picture.follow_no_pad", row=row))
        return
    masked, unmasked = weight_line(result, b)
    st.markdown(t("masks.picture.follow", row=row, masked=masked, unmasked=unmasked))


def show_picture(config: MasksConfig, result: MasksResult, rejected: tuple[Rejected, ...]) -> None:
    """The main picture: the padded batch with the two masks; the slider picks the sentence whose weights show."""
    most_pad = min(range(len(config.rows)), key=lambda b: len(config.sources[b]))  # the clearest leak
    before = before_after("masks_picture", config)
    step_view(
        "masks_pick",
        lambda first: picture_spec(config, before, rejected, lang(), revealed(QUIZ), first),
        len(config.rows),
        param=STEP_PARAM,
        default=most_pad + 1,
        follow=lambda event: follow_sentence(config, result, event),
        play=False,
    )


def show_batch(result: MasksResult, specs: dict[str, dict]) -> None:
    S, T = result.src_ids.shape[1], result.dec_out.shape[1]
    st.caption(t("masks.batch_caption", S=S, T=T))
    draw(st, specs["source"])
    draw(st, specs["dec_in"])
    st.markdown(
        t(
            "masks.lengths_line",
            src=", ".join(map(str, result.src_lengths.tolist())),
            tgt=", ".join(map(str, result.tgt_lengths.tolist())),
        )
    )


def show_loss(result: MasksResult, specs: dict[str, dict]) -> None:
    with st.container(border=True):
        st.markdown(t("masks.compare_loss"))
    left, right = st.columns(2)
    with left:
        st.metric(t("masks.metric_ignore"), num(result.loss_ignore))
        if revealed(QUIZ):  # the divisor is the question's answer
            st.markdown(
                t(
                    "masks.formula_ignore",
                    sum_real=num(result.sum_real),
                    n_real=result.n_real,
                    loss=num(result.loss_ignore),
                )
            )
        else:
            st.caption(t("masks.formula_hidden"))
        draw(st, specs["loss_ignore"])
    with right:
        st.metric(
            t("masks.metric_all"),
            num(result.loss_all),
            delta=signed(result.loss_all - result.loss_ignore),
            delta_color="off",
        )
        st.markdown(
            t(
                "masks.formula_all",
                sum_real=num(result.sum_real),
                sum_pad=num(result.sum_pad),
                n_total=result.n_total,
                loss=num(result.loss_all),
            )
        )
        draw(st, specs["loss_all"])
    st.caption(t("masks.loss_diff", diff=signed(result.loss_all - result.loss_ignore), lnv=num(result.ln_v)))
    check_badge(t("masks.check_loss"), result.loss_check, tol=1e-9)


def pick_sentence(config: MasksConfig) -> int:
    """The sentence the attention and final-state charts show; returns its 0-based batch index."""
    default = min(range(len(config.rows)), key=lambda b: len(config.sources[b]))  # the most PAD: the clearest leak
    # linked() drops a stale choice (a filtered or removed row) and keeps the raw row number in the link.
    row = linked(
        st.selectbox,
        t("masks.inspect_label"),
        config.rows,
        key="masks_row",
        default=config.rows[default],
        labels={r: t("masks.inspect_option", row=r) for r in config.rows},
        parse=int,
    )
    return config.rows.index(row)


def show_attention(config: MasksConfig, result: MasksResult, chosen: dict[str, int]) -> None:
    with st.container(border=True):
        st.markdown(t("masks.compare_attention"))
    b = chosen["b"] = pick_sentence(config)
    row = config.rows[b]
    specs = sentence_specs(config, b, chart_labels(row))
    st.caption(t("masks.attn_caption", row=row))
    draw(st, specs["masked"])
    draw(st, specs["unmasked"])
    if result.leak_by_row[b] == 0:
        st.info(t("masks.no_pad_source", row=row))
    else:
        st.markdown(
            t("masks.leak_line", masked=num(0.0), unmasked=num(result.leak_by_row[b]), gap=num(result.gap_by_row[b]))
        )
    draw(st, specs["share"])
    check_badge(t("masks.check_attention"), result.attention_check, tol=1e-9)


def show_final(config: MasksConfig, result: MasksResult, chosen: dict[str, int]) -> None:
    b = chosen["b"]
    st.caption(t("masks.final_caption"))
    table = final_state_table(result, config)
    table["gap"] = table["gap"].map(num)
    table.columns = [t(f"masks.col_{c}") for c in ("sentence", "length", "pad_steps", "gap")]
    st.dataframe(table, hide_index=True, width="stretch")
    draw(st, sentence_specs(config, b, chart_labels(config.rows[b]))["final"])
    check_badge(t("masks.check_final"), result.final_check, tol=1e-9)


def show_empty(S: int) -> None:
    demo = empty_demo(S)
    weights = vec(demo.weights)
    st.markdown(
        "\n".join(
            [
                f"- {t('masks.empty_attention', weights=weights)}",
                f"- {t('masks.empty_last', pos=demo.wrapped_to + 1)}",
                f"- {t('masks.empty_pack', error=md_escape(demo.pack_error))}",
            ]
        )
    )
    st.info(t("masks.empty_rule"), icon=":material/filter_alt:")


def show_notice(config: MasksConfig, result: MasksResult) -> None:
    st.info(t("masks.compare_note"), icon=":material/compare_arrows:")
    worst = max(range(len(config.rows)), key=lambda i: result.leak_by_row[i])
    # notice_1 states the loss's divisor, the question's answer: it joins the list once the answer is out.
    first = 1 if revealed(QUIZ) else 2
    notice_list(
        [f"masks.notice_{i}" for i in range(first, 6)],
        n_real=result.n_real,
        n_total=result.n_total,
        leak=num(result.leak_by_row[worst]),
        row=config.rows[worst],
    )


def show_quiz(config: MasksConfig, result: MasksResult) -> None:
    options = [str(n) for n in sorted({result.n_words, result.n_real, result.n_total})]
    predict_then_reveal(
        QUIZ,
        t("masks.quiz_question"),
        options,
        str(result.n_real),
        t(
            "masks.quiz_explain",
            n_real=result.n_real,
            n_words=result.n_words,
            B=len(config.rows),
            n_pad=result.n_pad,
            n_total=result.n_total,
        ),
    )


controls, picture = explainer("masks")
with controls:
    config, rejected = read_inputs()
S = len(DEFAULT_PAIRS[2][0].split())
sections: list[tuple[str, Any]] = []
if config is not None:
    result = compute(config)
    S = int(result.src_ids.shape[1])
    specs = batch_specs(config, chart_labels())
    with picture:
        show_picture(config, result, rejected)
    show_quiz(config, result)
    chosen = {"b": 0}  # the attention tab's sentence picker sets it; the final-state tab draws the same sentence
    sections = [
        ("masks.tab_loss", lambda: show_loss(result, specs)),
        ("masks.tab_attention", lambda: show_attention(config, result, chosen)),
        ("masks.tab_final", lambda: show_final(config, result, chosen)),
        ("masks.tab_batch", lambda: show_batch(result, specs)),
    ]
sections.append(("masks.tab_empty", lambda: show_empty(S)))
if config is not None:
    sections += [
        ("ui.tab_notice", lambda: show_notice(config, result)),
        ("ui.tab_code", lambda: code_expander(script(config), file_name="padding_masks.py")),
    ]
details(sections, key="masks_tabs")
