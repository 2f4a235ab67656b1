"""The Translation lab's inputs: the Korean sentence and the settings (attention, cell, steps, seed, hidden)."""

from __future__ import annotations

import streamlit as st

from s2s_core import caps
from s2s_core.errors import InputError
from s2s_core.training import SourceInput, TrainConfig, parse_source
from s2s_core.training.compute import MAX_STEPS, MAX_TRAIN_HIDDEN
from s2s_core.training.config import CELLS
from s2s_core.training.tasks import KO_EN
from s2s_core.training.trace import default_source_text
from s2s_core.translation.lab import DEFAULT, lab_config
from s2s_ui.i18n import t
from s2s_ui.link import linked
from s2s_ui.widgets import show_error

ATTENTIONS = ("luong_general", "bahdanau", "none")  # the lab's choices (Luong dot adds nothing new here)
SOURCE_FIELD = "translation.field.source"


def read_sentence() -> SourceInput | None:
    """The Korean sentence to translate; unknown words are named with the nearest known ones (by the core)."""
    text = linked(
        st.text_input,
        t("translation.source_label"),
        key="translation_source",
        default=default_source_text(KO_EN),  # the sentence every checkpoint map of a run decodes
        help=t("translation.source_help"),
        max_chars=200,
    )
    try:
        return parse_source(KO_EN, text, field=SOURCE_FIELD)
    except InputError as err:
        show_error(err)
        return None


def read_settings() -> TrainConfig | None:
    """Widgets -> a validated ko_en config (the core re-checks every cap: a URL can carry any value)."""
    attention = linked(
        st.selectbox,
        t("translation.attention_label"),
        ATTENTIONS,
        key="translation_attention",
        default=DEFAULT.attention,
        labels={k: t(f"training.attention_{k}") for k in ATTENTIONS},
        help=t("translation.attention_help"),
    )
    cell = linked(
        st.selectbox,
        t("translation.cell_label"),
        CELLS,
        key="translation_cell",
        default=DEFAULT.cell,
        labels={k: t(f"translation.cell_{k}") for k in CELLS},
        help=t("translation.cell_help"),
    )
    # Steps and seed side by side: the two numbers a learner changes most, kept in the link.
    left, right = st.columns(2)
    steps = linked(
        left.number_input, t("training.steps_label"), key="translation_steps", default=DEFAULT.steps, step=50,
        min_value=1, max_value=MAX_STEPS,
    )  # fmt: skip
    seed = linked(
        right.number_input, t("training.seed_label"), key="translation_seed", default=DEFAULT.seed, step=1,
        min_value=0, max_value=caps.MAX_SEED,
    )  # fmt: skip
    with st.expander(t("translation.advanced"), icon=":material/tune:"):
        hidden = linked(
            st.number_input,
            t("training.hidden_label"),
            key="translation_hidden",
            default=DEFAULT.hidden,
            min_value=2,
            max_value=MAX_TRAIN_HIDDEN,
            step=8,
        )
    try:
        return lab_config(attention=attention, cell=cell, steps=steps, seed=seed, hidden=hidden)
    except InputError as err:
        show_error(err)
        return None
