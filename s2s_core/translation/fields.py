"""The Translation lab's inputs, declared once (s2s_core/fields.py): its own link keys, the Training lab's caps.

The lab trains on the Training lab's trainer (task ko_en): a setting's range is the Training lab's cap (read from
s2s_core/training/fields.py, which parse_config checks every value with), its default the lab's own DEFAULT.
"""

from __future__ import annotations

from s2s_core import caps
from s2s_core.fields import Field
from s2s_core.grammar import MAX_WORDS, MIN_WORDS
from s2s_core.training import fields as training
from s2s_core.training.config import CELLS, NOTE_ATTENTION, TrainConfig
from s2s_core.training.tasks import KO_EN

# The lab's defaults (measured by scripts/bench_translation.py, docs/PERFORMANCE.md, on the split by English
# sentence): with Luong attention a GRU passed 90 % exact match on held-out sentences at step 150-180 (about 3 s)
# and ended at 96-99 % after 300 steps (about 6 s) on one thread of a 2-core machine; the 20 s limit leaves room
# for a busy server.
DEFAULT = TrainConfig(
    task=KO_EN,
    attention="luong_general",
    embed=32,
    hidden=64,
    steps=300,
    batch=64,
    lr=0.01,
    tf_ratio=1.0,
    tf_schedule="constant",
    min_len=MIN_WORDS,  # every sentence length the toy grammar makes
    max_len=MAX_WORDS,
    seed=0,
    max_seconds=20.0,
    cell="gru",
)
# The lab's choices (Luong dot adds nothing new here); luong_prev is the syllabus §7's own translator wiring.
ATTENTIONS = ("luong_general", "bahdanau", NOTE_ATTENTION, "none")
# Each choice's name in the catalogs: the Training lab's words, and this lab's for the one only it offers.
ATTENTION_LABELS = {k: f"training.attention_{k}" for k in ATTENTIONS} | {
    NOTE_ATTENTION: f"translation.attention_{NOTE_ATTENTION}"
}
TABS = ("grammar", "alignment", "map", "bottleneck", "cells", "recurrence", "own", "check", "notice", "code")

SOURCE = Field(
    "translation_source",
    "text",
    training.DEFAULT_SOURCES["sentence"],  # the sentence every checkpoint map of a run decodes
    "translation.field.source",
    max_chars=training.MAX_SOURCE_CHARS,
)
ATTENTION = Field("translation_attention", "choice", DEFAULT.attention, "training.field.attention", options=ATTENTIONS)
CELL = Field("translation_cell", "choice", DEFAULT.cell, "training.field.cell", options=CELLS)
STEPS = Field("translation_steps", "int", DEFAULT.steps, "training.field.steps", lo=1, hi=training.MAX_STEPS)
SEED = Field("translation_seed", "int", DEFAULT.seed, "training.field.seed", lo=0, hi=caps.MAX_SEED)
HIDDEN = Field("translation_hidden", "int", DEFAULT.hidden, "training.field.hidden", lo=2, hi=training.MAX_TRAIN_HIDDEN)
# The what-if on the map tab (the Training lab's own, under this page's keys).
WI_STEP = Field("translation_wi_step", "int", 1, "training.field.override_step", lo=1, hi=training.MAX_DECODE)
WI = Field("translation_wi", "table", label="training.field.override")
TAB = Field("translation_tabs", "tab", TABS[0], "ui.tabs_field", options=TABS)

FIELDS = (SOURCE, ATTENTION, CELL, STEPS, SEED, HIDDEN, WI_STEP, WI, TAB)
