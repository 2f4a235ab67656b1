"""The Training lab's inputs: the settings widgets -> a validated TrainConfig, and the typed source."""

from __future__ import annotations

import streamlit as st

from s2s_core import caps
from s2s_core.errors import InputError
from s2s_core.training import SourceInput, TrainConfig, parse_config, parse_source
from s2s_core.training.compute import (
    MAX_LEN,
    MAX_LR,
    MAX_SECONDS,
    MAX_STEPS,
    MAX_TRAIN_BATCH,
    MAX_TRAIN_EMBED,
    MAX_TRAIN_HIDDEN,
    MIN_LR,
)
from s2s_core.training.config import ATTENTIONS, LAB_TASKS, SCHEDULES
from s2s_core.training.tasks import NUM_MAX_DIGITS, NUM_TASKS
from s2s_core.training.trace import default_source_text, source_family
from s2s_ui.i18n import t
from s2s_ui.link import linked
from s2s_ui.widgets import show_error

DEFAULT = TrainConfig()
NUM_DEFAULT_LENS = (1, 4)  # the number tasks read 1- to 4-digit numbers unless told otherwise


def read_settings() -> TrainConfig | None:
    """Widgets -> validated config (the core re-checks every cap: a URL can carry any value)."""
    # One narrow column (the explainer's controls column): the choices stacked, the two numbers side by side.
    task = linked(
        st.selectbox,
        t("training.task_label"),
        LAB_TASKS,
        key="training_task",
        default=DEFAULT.task,
        labels={k: t(f"training.task_{k}") for k in LAB_TASKS},
        help=t("training.task_help"),
    )
    attention = linked(
        st.selectbox,
        t("training.attention_label"),
        ATTENTIONS,
        key="training_attention",
        default=DEFAULT.attention,
        labels={k: t(f"training.attention_{k}") for k in ATTENTIONS},
        help=t("training.attention_help"),
    )
    tf_ratio = linked(
        st.slider,
        t("training.tf_ratio_label"),
        key="training_tf",
        default=DEFAULT.tf_ratio,
        min_value=0.0,
        max_value=1.0,
        step=0.05,
        help=t("training.tf_ratio_help"),
    )
    schedule = linked(
        st.radio,
        t("training.schedule_label"),
        SCHEDULES,
        key="training_schedule",
        default=DEFAULT.tf_schedule,
        labels={k: t(f"training.schedule_{k}") for k in SCHEDULES},
        horizontal=True,
    )
    left, right = st.columns(2)
    steps = linked(
        left.number_input,
        t("training.steps_label"),
        key="training_steps",
        default=DEFAULT.steps,
        min_value=1,
        max_value=MAX_STEPS,
        step=50,
    )
    seed = linked(
        right.number_input,
        t("training.seed_label"),
        key="training_seed",
        default=DEFAULT.seed,
        min_value=0,
        max_value=caps.MAX_SEED,
        step=1,
    )
    with st.expander(t("training.advanced"), icon=":material/tune:"):
        a, b = st.columns(2)
        hidden = linked(
            a.number_input,
            t("training.hidden_label"),
            key="training_hidden",
            default=DEFAULT.hidden,
            min_value=2,
            max_value=MAX_TRAIN_HIDDEN,
            step=8,
        )
        embed = linked(
            a.number_input,
            t("training.embed_label"),
            key="training_embed",
            default=DEFAULT.embed,
            min_value=2,
            max_value=MAX_TRAIN_EMBED,
            step=8,
        )
        batch = linked(
            b.number_input,
            t("training.batch_label"),
            key="training_batch",
            default=DEFAULT.batch,
            min_value=1,
            max_value=MAX_TRAIN_BATCH,
            step=16,
        )
        lr = linked(
            b.number_input,
            t("training.lr_label"),
            key="training_lr",
            default=DEFAULT.lr,
            min_value=MIN_LR,
            max_value=MAX_LR,
            step=0.001,
            format="%.4f",
        )
        # Number tasks read at most 6 digits, so their lengths are separate widgets with their own defaults.
        if task in NUM_TASKS:
            names, (lo, hi), longest = ("training_num_min", "training_num_max"), NUM_DEFAULT_LENS, NUM_MAX_DIGITS
        else:
            names, (lo, hi), longest = (
                ("training_min_len", "training_max_len"),
                (DEFAULT.min_len, DEFAULT.max_len),
                MAX_LEN,
            )
        min_len = linked(
            a.number_input,
            t("training.min_len_label"),
            key=names[0],
            default=lo,
            min_value=1,
            max_value=longest,
            step=1,
        )
        max_len = linked(
            b.number_input,
            t("training.max_len_label"),
            key=names[1],
            default=hi,
            min_value=1,
            max_value=longest,
            step=1,
        )
        max_seconds = linked(
            st.number_input,
            t("training.max_seconds_label"),
            key="training_max_seconds",
            default=int(DEFAULT.max_seconds),
            min_value=1,
            max_value=int(MAX_SECONDS),
            step=5,
        )
    try:
        return parse_config(
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
    except InputError as err:
        show_error(err)
        return None


def read_source(config: TrainConfig) -> SourceInput | None:
    """The source to decode: digits (or a number, for the number tasks), validated by the core."""
    family = source_family(config.task)
    label = t("training.number_label") if family == "number" else t("training.source_label")
    text = linked(
        st.text_input,
        label,
        key="training_number" if family == "number" else "training_source",
        default=default_source_text(config.task),  # the source every checkpoint map of a run decodes
        help=t("training.source_help"),
        max_chars=200,
    )
    try:
        return parse_source(config.task, text)
    except InputError as err:
        show_error(err)
        return None
