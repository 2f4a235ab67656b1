"""Page: Training lab — train a tiny GRU seq2seq live; teacher forcing vs free-running, attention map, bottleneck.

Read the settings -> the shared job that trains them (s2s_core/training/jobs.py; this page only watches it, so
it never blocks in a training loop) -> the picture beside the settings: before training the untrained model's
attention map of the learner's source, while training (or replaying a recorded run) the live curves, after
training the trained model's map; the quiz under it, then accuracy, map details and what-if, bottleneck, check,
notice and code in tabs.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from s2s_ui.explainer import TryCase, details, explainer, try_this
from s2s_ui.i18n import t
from s2s_ui.training.live import QUIZ, trained_model
from s2s_ui.training.sections import (
    show_accuracy,
    show_bottleneck,
    show_check,
    show_map,
    show_picture,
    show_quiz,
    show_untrained,
    show_what_if,
)
from s2s_ui.training.settings import read_settings
from s2s_ui.training.specs import code_for
from s2s_ui.widgets import code_expander, notice_list, reset_button, revealed

INPUT_KEYS = [
    "training_task",
    "training_attention",
    "training_tf",
    "training_schedule",
    "training_steps",
    "training_seed",
    "training_hidden",
    "training_embed",
    "training_batch",
    "training_lr",
    "training_min_len",
    "training_max_len",
    "training_num_min",
    "training_num_max",
    "training_max_seconds",
    "training_source",
    "training_number",
    "training_wi_step",
    "training_wi",
]
CASES = [
    TryCase("training.try_none", "training.try_none_note", {"training_attention": "none"}),
    TryCase("training.try_free", "training.try_free_note", {"training_tf": "0.0"}),
    TryCase("training.try_long", "training.try_long_note", {"training_source": "5281390746"}),
]


def show_map_tab(done: Any, source: Any) -> None:
    """The picture's source decoded step by step, then the what-if override (the source feeds both)."""
    if source is None:  # the field under the picture names what is wrong
        st.info(t("training.fix_source"), icon=":material/edit:")
        return
    base = show_map(done, source)
    if base.weights is not None:
        show_what_if(done, source, base)


def show_notice() -> None:
    # notice_1 says which decoding mode scores lower: the question's answer, listed once it is out.
    first = 1 if revealed(QUIZ) else 2
    notice_list([f"training.notice_{i}" for i in range(first, 6)])


controls, picture = explainer("training")

# 1) Read: the settings, validated by the core (None, with a message under them, when one is bad).
with controls:
    config = read_settings()
    try_this(CASES, INPUT_KEYS)
    reset_button(INPUT_KEYS)

# 2) Compute: the finished job for these settings, or the Train button over the untrained picture / the live
#    progress (or the replay of the recorded run) until there is one.
done = None
holder: dict[str, Any] = {"source": None}  # the picture's typed source, for the map tab and the code tab's script
with picture:
    if config is not None:
        done = trained_model(
            config,
            "training_train",
            t("training.train"),
            t("training.press_train", steps=config.steps, seconds=f"{config.max_seconds:g}"),
            before=lambda: show_untrained(config),
        )
    if done is not None:
        holder["source"] = show_picture(done)

# 3) The question under the picture, then the trained model's details, folded.
sections: list[tuple[str, Any]] = []
if done is not None:
    show_quiz(done)
    sections = [
        ("training.tab_accuracy", lambda: show_accuracy(done)),
        ("training.tab_map", lambda: show_map_tab(done, holder["source"])),
        ("training.tab_bottleneck", lambda: show_bottleneck(done)),
        ("ui.tab_check", lambda: show_check(done)),
    ]
sections.append(("ui.tab_notice", show_notice))
if config is not None:
    sections.append(
        ("ui.tab_code", lambda: code_expander(code_for(config, holder["source"]), file_name="training_lab.py"))
    )
details(sections, key="training_tabs")
