"""Page: padding & masks — PAD left out of the loss (ignore_index) vs PAD masked out of attention."""

from __future__ import annotations

import streamlit as st

from s2s_core.fields import Parsed
from s2s_core.masks import MasksConfig, fields, parse_config, screen_pairs
from s2s_core.masks.code import script
from s2s_core.masks.compute import most_pad, quiz_choices
from s2s_core.masks.fields import DEFAULT_PAIRS, PAIRS_BY_LANG
from s2s_core.masks.picture import weight_line
from s2s_ui.explainer import before_after, explainer
from s2s_ui.i18n import error_text, lang, t
from s2s_ui.kept import kept_picture
from s2s_ui.masks import PAGE
from s2s_ui.masks.sections import (
    QUIZ,
    show_attention,
    show_batch,
    show_empty,
    show_final,
    show_loss,
    show_notice,
)
from s2s_ui.masks.specs import STEP_PARAM, compute, picture_spec
from s2s_ui.state import TryCase
from s2s_ui.steps import StepEvent
from s2s_ui.widgets import code_expander, predict_then_reveal, revealed, show_error


def cases() -> list[TryCase]:
    """The other language's example batch (on the English page the Korean one, built on the study note's examples),
    one sentence with nothing to pad, and an all-PAD source."""
    other = "ko" if lang() == "en" else "en"
    batch = {}
    for row, (src_text, tgt_text) in enumerate(PAIRS_BY_LANG[other][: len(DEFAULT_PAIRS)]):
        batch |= {fields.SOURCES[row].key: src_text, fields.TARGETS[row].key: tgt_text}
    return [
        TryCase(f"masks.try_{other}", f"masks.try_{other}_note", batch),
        TryCase("masks.try_single", "masks.try_single_note", {fields.ROWS.key: "1"}),
        TryCase("masks.try_empty", "masks.try_empty_note", {fields.SOURCES[1].key: "<pad>"}),
    ]


def read_inputs() -> tuple[Parsed[MasksConfig], tuple[tuple[int, str], ...]]:
    """The controls column: the sentence pairs, then seed and sizes folded. A bad pair is named under the fields
    and left out, the others still run; an all-PAD source is also drawn in the picture as (row, message)."""
    n = PAGE.input(fields.ROWS, st.number_input, label=t("masks.rows_label"), step=1, help=t("masks.inputs_help"))
    pairs = []
    for row, (src, tgt) in enumerate(zip(fields.SOURCES[:n], fields.TARGETS[:n], strict=True), start=1):
        # Source over target, each the column's width: a sentence shows whole (two side by side were cut).
        pairs.append(
            (
                PAGE.input(src, st.text_input, label=t("masks.source_label", row=row)),
                PAGE.input(tgt, st.text_input, label=t("masks.target_label", row=row)),
            )
        )
    with st.expander(t("masks.settings")):
        seed = PAGE.input(fields.SEED, st.number_input, label=t("masks.seed_label"), step=1)
        c1, c2 = st.columns(2)
        hidden = PAGE.input(fields.HIDDEN, c1.number_input, label=t("masks.hidden_label"), step=1)
        embed = PAGE.input(fields.EMBED, c2.number_input, label=t("masks.embed_label"), step=1)
        st.caption(t("masks.untrained_note"))
    PAGE.buttons(cases())
    screened = screen_pairs(pairs)  # 1..MAX_PAIRS pairs: it names bad pairs, it does not raise
    for err in screened.errors:
        show_error(err)
    if screened.errors and screened.pairs:
        st.caption(t("masks.dropped", rows=", ".join(map(str, screened.dropped))))
    rejected = tuple((row, error_text(err)) for row, err in screened.all_pad())
    return Parsed.of(lambda: parse_config(pairs, seed, hidden, embed, drop_bad=True)), rejected


def follow_sentence(config: MasksConfig, event: StepEvent) -> None:
    """Under the picture, for the chosen sentence: how much weight reaches PAD with and without the mask."""
    b = event.step - 1
    line = weight_line(compute(config), b)
    if line is None:
        st.caption(t("masks.picture.follow_no_pad", row=config.rows[b]))
    else:
        st.markdown(t("masks.picture.follow", row=config.rows[b], masked=line[0], unmasked=line[1]))


def show_picture(config: MasksConfig, rejected: tuple[tuple[int, str], ...]) -> None:
    """The padded batch with the two masks; the slider picks the sentence whose weights show (first the most PAD)."""
    before = before_after("masks_picture", config)
    PAGE.step(
        fields.PICK,
        lambda first: picture_spec(config, before, rejected, lang(), revealed(QUIZ), first),
        len(config.rows),
        param=STEP_PARAM,
        default=most_pad(config) + 1,
        follow=lambda event: follow_sentence(config, event),
        play=False,
    )


def show_quiz(config: MasksConfig) -> None:
    result = compute(config)
    options, answer = quiz_choices(result)
    explain = {"n_words": result.n_words, "B": len(config.rows), "n_pad": result.n_pad, "n_total": result.n_total}
    predict_then_reveal(
        QUIZ, t("masks.quiz_question"), options, answer, t("masks.quiz_explain", n_real=result.n_real, **explain)
    )


controls, picture = explainer("masks")
with controls:
    parsed, rejected = read_inputs()
with picture:
    # A batch that does not run is named once, here, above the last batch that did (faded): s2s_ui/kept.py.
    live = kept_picture(PAGE, lambda: (parsed.need(), rejected), lambda drawn: show_picture(*drawn))
if live is not None:  # the question needs a batch that runs
    show_quiz(live[0])
PAGE.tabs(
    [
        ("masks.tab_loss", lambda: show_loss(parsed.need())),
        ("masks.tab_attention", lambda: show_attention(parsed.need())),
        ("masks.tab_final", lambda: show_final(parsed.need())),
        ("masks.tab_batch", lambda: show_batch(parsed.need())),
        ("masks.tab_empty", lambda: show_empty(parsed)),
        ("ui.tab_notice", lambda: show_notice(parsed.need())),
        ("ui.tab_code", lambda: code_expander(script(parsed.need()), file_name="padding_masks.py")),
    ]
)
