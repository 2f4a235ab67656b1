"""The Training lab's inputs: the settings widgets -> a validated TrainConfig, and the typed source, each a field of
the page (s2s_core/training/fields.py) drawn through its registry."""

from __future__ import annotations

import streamlit as st

from s2s_core.fields import Parsed
from s2s_core.training import SourceInput, TrainConfig, fields, parse_config, parse_source
from s2s_core.training.config import ATTENTIONS, SCHEDULES
from s2s_core.training.fields import LAB_TASKS
from s2s_core.training.tasks import FILLERS, NAMES, NAMES_MAX_DIGITS, NAMES_TASK, NUM_TASKS
from s2s_core.training.trace import source_family
from s2s_ui.i18n import t
from s2s_ui.state import Page


def read_settings(page: Page) -> Parsed[TrainConfig]:
    """Widgets -> validated config (the core re-checks every cap: a link can carry any value). A bad value is
    named where the picture would be (the page's guard), and the controls stay usable."""
    # One narrow column (the explainer's controls column): the choices stacked, the two numbers side by side.
    task = page.input(
        fields.TASK,
        st.selectbox,
        label=t("training.task_label"),
        labels={k: t(f"training.task_{k}") for k in LAB_TASKS},
        help=t("training.task_help"),
    )
    attention = page.input(
        fields.ATTENTION,
        st.selectbox,
        label=t("training.attention_label"),
        labels={k: t(f"training.attention_{k}") for k in ATTENTIONS},
        help=t("training.attention_help"),
    )
    tf_ratio = page.input(
        fields.TF_RATIO, st.slider, label=t("training.tf_ratio_label"), step=0.05, help=t("training.tf_ratio_help")
    )
    schedule = page.input(
        fields.SCHEDULE,
        st.radio,
        label=t("training.schedule_label"),
        labels={k: t(f"training.schedule_{k}") for k in SCHEDULES},
        horizontal=True,
    )
    left, right = st.columns(2)
    steps = page.input(fields.STEPS, left.number_input, label=t("training.steps_label"), step=50)
    seed = page.input(fields.SEED, right.number_input, label=t("training.seed_label"), step=1)
    with st.expander(t("training.advanced"), icon=":material/tune:"):
        a, b = st.columns(2)
        hidden = page.input(fields.HIDDEN, a.number_input, label=t("training.hidden_label"), step=8)
        embed = page.input(fields.EMBED, a.number_input, label=t("training.embed_label"), step=8)
        batch = page.input(fields.BATCH, b.number_input, label=t("training.batch_label"), step=16)
        lr = page.input(fields.LR, b.number_input, label=t("training.lr_label"), step=0.001, format="%.4f")
        # Number tasks read at most 6 digits, so their lengths are separate fields with their own defaults.
        shortest, longest = (fields.NUM_MIN, fields.NUM_MAX) if task in NUM_TASKS else (fields.LEN_MIN, fields.LEN_MAX)
        unit = "_tokens" if task == NAMES_TASK else ""  # the names task's lengths count words and digits
        min_len = page.input(shortest, a.number_input, label=t(f"training.min_len_label{unit}"), step=1)
        max_len = page.input(longest, b.number_input, label=t(f"training.max_len_label{unit}"), step=1)
        max_seconds = page.input(
            fields.TIME_LIMIT, st.number_input, label=t("training.max_seconds_label"), step=5.0, format="%g"
        )
    return Parsed.of(
        lambda: parse_config(
            task=task,
            attention=attention,
            embed=embed,
            hidden=hidden,
            steps=steps,
            batch=batch,
            lr=lr,
            tf_ratio=tf_ratio,
            tf_schedule=schedule,
            min_len=min_len,
            max_len=max_len,
            seed=seed,
            max_seconds=max_seconds,
        )
    )


def source_field(config: TrainConfig):
    """The field of the source to decode: digits, a number for the number tasks, a sentence for the names task
    (one link key each)."""
    family = source_family(config.task)
    return {"number": fields.NUMBER, "names": fields.NAMES_SOURCE}.get(family, fields.SOURCE)


def read_source(page: Page, config: TrainConfig) -> Parsed[SourceInput]:
    """The source box at the top of the picture: digits (or a number), validated by the core; a bad one is named
    right under the box, over the last good source's map, faded (s2s_ui/training/lab.py), and the sections that
    need it say so."""
    field = source_field(config)
    if field is fields.NAMES_SOURCE:
        label = t("training.names_label")
        help_text = t("training.names_help", names=", ".join(NAMES), fillers=", ".join(FILLERS), limit=NAMES_MAX_DIGITS)
    else:
        label = t("training.number_label" if field is fields.NUMBER else "training.source_label")
        help_text = t("training.source_help")
    text = page.input(field, st.text_input, label=label, help=help_text)
    return Parsed.of(lambda: parse_source(config.task, text))
