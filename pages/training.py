"""Page: Training lab — train a tiny GRU seq2seq live; teacher forcing vs free-running, attention map, bottleneck.

Read the settings -> the shared job that trains them (s2s_core/training/jobs.py; this page only watches it, so
it never blocks in a training loop) -> draw the trained model: curves, quiz, attention map, what-if, bottleneck.
"""

from __future__ import annotations

import streamlit as st

from s2s_ui.i18n import t
from s2s_ui.training.live import trained_model
from s2s_ui.training.sections import show_bottleneck, show_map, show_quiz, show_training, show_what_if
from s2s_ui.training.settings import read_settings, read_source
from s2s_ui.training.specs import code_for
from s2s_ui.widgets import code_expander, notice_list, page_header

page_header("training")

# 1) Read: the settings, validated by the core (None, with a message, when one is bad).
config = read_settings()

# 2) Compute: the finished job for these settings, or the Train button / live progress until there is one.
done = None
if config is not None:
    done = trained_model(
        config,
        "training_train",
        t("training.train"),
        t("training.press_train", steps=config.steps, seconds=f"{config.max_seconds:g}"),
    )

# 3) Draw what the trained model shows; the source box appears with the map it feeds.
source = None
if done is not None:
    show_training(done)
    show_quiz(done)
    st.subheader(t("training.map_heading"))
    source = read_source(done.result.config)
    if source is not None:
        base = show_map(done, source)
        if base.weights is not None:
            show_what_if(done, source, base)
    show_bottleneck(done)
notice_list([f"training.notice_{i}" for i in range(1, 6)])
if config is not None:
    code_expander(code_for(config, source), file_name="training_lab.py")
