"""The inputs of the RNN-unrolling page, declared once (s2s_core/fields.py): caps, defaults, link keys."""

from __future__ import annotations

from s2s_core import caps
from s2s_core.fields import Field

MAX_E = 8  # E: small, so every number of x_t fits on screen
MAX_H = 8  # H: small, so the filled-in formula stays readable
MAX_S = 12  # S: tokens in the sentence (the step slider and the heatmap stay legible)
DEFAULT_E = 3
DEFAULT_H = 4
DEFAULT_SEED = 0
# Examples in the learner's language: the note's sentence and its English counterpart (the Korean one stays a
# "try this" case on the English page). Each language's own default leaves no parameter in the link.
DEFAULT_SENTENCES = {"ko": "나는 책을 읽는다", "en": "I read a book"}
TABS = ("tables", "check", "code", "notice")

SENTENCE = Field(
    "rnn_sentence",
    "text",
    label="rnn.field.sentence",
    by_lang=tuple(DEFAULT_SENTENCES.items()),
    aliases=("rnn_sentence_ko", "rnn_sentence_en"),  # links made when each language kept its own parameter
)
E = Field("rnn_E", "int", DEFAULT_E, "rnn.field.E", lo=1, hi=MAX_E)
H = Field("rnn_H", "int", DEFAULT_H, "rnn.field.H", lo=1, hi=MAX_H)
SEED = Field("rnn_seed", "int", DEFAULT_SEED, "rnn.field.seed", lo=0, hi=caps.MAX_SEED)
EDIT = Field("rnn_edit", "bool", False, "rnn.edit_label")
# One table per shape (member "HxE"): a new H or E starts from that shape's seeded weights and its own link value.
W_X = Field("rnn_w_x", "table", label="rnn.field.W_x", family=True)
W_H = Field("rnn_w_h", "table", label="rnn.field.W_h", family=True)
B = Field("rnn_b", "table", label="rnn.field.b", family=True)
STEP = Field("rnn_step", "step", 1, "steps.label", lo=1, hi=MAX_S)
TAB = Field("rnn_tabs", "tab", TABS[0], "ui.tabs_field", options=TABS)

FIELDS = (SENTENCE, E, H, SEED, EDIT, W_X, W_H, B, STEP, TAB)
TABLES = {"W_x": W_X, "W_h": W_H, "b": B}
