"""The Translation lab's inputs: the Korean sentence and the settings (attention, cell, steps, seed, hidden), each a
field of the page (s2s_core/translation/fields.py) drawn through its registry."""

from __future__ import annotations

import streamlit as st

from s2s_core.fields import Parsed
from s2s_core.grammar import words_by_role
from s2s_core.training import SourceInput, TrainConfig, parse_source
from s2s_core.training.config import CELLS
from s2s_core.training.tasks import KO_EN
from s2s_core.translation import fields
from s2s_core.translation.lab import lab_config
from s2s_ui.i18n import t
from s2s_ui.state import Page


def read_sentence(page: Page) -> Parsed[SourceInput]:
    """The Korean sentence to translate, checked by the core. A sentence with a word the grammar does not know is
    named (with the nearest known words) above the picture, which keeps the last good sentence's map, faded
    (s2s_ui/translation/picture.py); the sections that need the sentence say so."""
    label, note = t("translation.source_label"), t("translation.source_help")
    text = page.input(fields.SOURCE, st.text_input, label=label, help=note)
    word_chips()
    return Parsed.of(lambda: parse_source(KO_EN, text, field=fields.SOURCE.label))


WORD_KEY = "translation_word_"  # + a role: one row of chips per slot of the grammar (no state: a click adds a word)


def word_chips() -> None:
    """Under the sentence box, folded: every word the toy grammar knows (s2s_core/grammar.py), one row of chips per
    slot in the Korean order; a click adds the word to the end of the sentence."""
    with st.expander(t("translation.words_heading"), icon=":material/add_circle:"):
        st.caption(t("translation.words_help"))
        for role, words in words_by_role():
            st.pills(
                t(f"translation.role_{role}"),
                words,
                key=f"{WORD_KEY}{role}",
                on_change=add_word,
                args=(role,),
                selection_mode="single",
            )


def add_word(role: str) -> None:
    """A chip was clicked: its word goes at the end of the sentence (as typed: the core checks it like any text),
    and the chip is released, so the same word can be added again."""
    key = f"{WORD_KEY}{role}"
    word = st.session_state.get(key)
    st.session_state[key] = None
    if not word:
        return
    sentence = f"{str(st.session_state.get(fields.SOURCE.key, '')).strip()} {word}".strip()
    if len(sentence) <= fields.SOURCE.max_chars:  # the box's own cap: a word that does not fit is not added
        st.session_state[fields.SOURCE.key] = sentence


def read_settings(page: Page) -> Parsed[TrainConfig]:
    """Widgets -> a validated ko_en config (the core re-checks every cap: a link can carry any value)."""
    attention = page.input(
        fields.ATTENTION,
        st.selectbox,
        label=t("translation.attention_label"),
        labels={k: t(key) for k, key in fields.ATTENTION_LABELS.items()},
        help=t("translation.attention_help"),
    )
    if attention in fields.ATTENTIONS:  # one line on what the chosen wiring does (a link may carry any value)
        st.caption(t(f"translation.attention_note_{attention}"))
    cell = page.input(
        fields.CELL,
        st.selectbox,
        label=t("translation.cell_label"),
        labels={k: t(f"translation.cell_{k}") for k in CELLS},
        help=t("translation.cell_help"),
    )
    # Steps and seed side by side: the two numbers a learner changes most, kept in the link.
    left, right = st.columns(2)
    steps = page.input(fields.STEPS, left.number_input, label=t("training.steps_label"), step=50)
    seed = page.input(fields.SEED, right.number_input, label=t("training.seed_label"), step=1)
    with st.expander(t("translation.advanced"), icon=":material/tune:"):
        hidden = page.input(fields.HIDDEN, st.number_input, label=t("training.hidden_label"), step=8)
    return Parsed.of(lambda: lab_config(attention=attention, cell=cell, steps=steps, seed=seed, hidden=hidden))
