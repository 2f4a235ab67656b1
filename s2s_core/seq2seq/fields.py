"""The inputs of the encoder–decoder page, declared once (s2s_core/fields.py): caps, defaults, link keys."""

from __future__ import annotations

from s2s_core import caps
from s2s_core.fields import Field

CELLS = ("lstm", "gru")
BRIDGES = ("none", "linear")
MAX_SOURCE_TOKENS = 12  # S typed by the learner (the per-step tables stay readable)
MAX_STEPS = 10  # T
MAX_TOP_K = 8
MAX_WORD_CHARS = 30
# The opening sentence in the learner's language: the syllabus's Korean example, and the same sentence in
# English; the replacement word is the bottleneck's swap for the first word. Each language's own default
# leaves no parameter in the link, and an untouched default follows a language switch.
DEFAULT_SOURCE = {"ko": "나는 책을 읽는다", "en": "I read a book"}
DEFAULT_REPLACEMENT = {"ko": "그는", "en": "She"}
TABS = ("encoder", "handoff", "steps", "bottleneck", "check", "notice", "code")

SOURCE = Field("seq2seq_source", "text", label="seq2seq.field.source", by_lang=tuple(DEFAULT_SOURCE.items()))
CELL = Field("seq2seq_cell", "choice", "lstm", "seq2seq.field.cell", options=CELLS)
SEED = Field("seq2seq_seed", "int", 0, "seq2seq.field.seed", lo=0, hi=caps.MAX_SEED)
EMBED = Field("seq2seq_embed", "int", 4, "seq2seq.field.embed", lo=1, hi=caps.MAX_EMBED)
ENC_HIDDEN = Field("seq2seq_enc_hidden", "int", 6, "seq2seq.field.enc_hidden", lo=1, hi=caps.MAX_HIDDEN)
ENC_LAYERS = Field("seq2seq_enc_layers", "int", 1, "seq2seq.field.enc_layers", lo=1, hi=caps.MAX_LAYERS)
BIDIRECTIONAL = Field("seq2seq_bidir", "bool", False, "seq2seq.field.bidirectional")
DEC_HIDDEN = Field("seq2seq_dec_hidden", "int", 6, "seq2seq.field.dec_hidden", lo=1, hi=caps.MAX_HIDDEN)
DEC_LAYERS = Field("seq2seq_dec_layers", "int", 1, "seq2seq.field.dec_layers", lo=1, hi=caps.MAX_LAYERS)
BRIDGE = Field("seq2seq_bridge", "choice", "none", "seq2seq.field.bridge", options=BRIDGES)
STEPS = Field("seq2seq_steps", "int", 5, "seq2seq.field.steps", lo=1, hi=MAX_STEPS)
TOP_K = Field("seq2seq_top_k", "int", 3, "seq2seq.field.top_k", lo=1, hi=MAX_TOP_K)
REPLACEMENT = Field(
    "seq2seq_replacement",
    "text",
    label="seq2seq.field.replacement",
    max_chars=MAX_WORD_CHARS,
    by_lang=tuple(DEFAULT_REPLACEMENT.items()),
)
STEP = Field("seq2seq_step", "step", 1, "steps.label", lo=1, hi=MAX_STEPS)  # the decoder step the picture shows
TAB = Field("seq2seq_tabs", "tab", TABS[0], "ui.tabs_field", options=TABS)

FIELDS = (
    SOURCE,
    CELL,
    SEED,
    EMBED,
    ENC_HIDDEN,
    ENC_LAYERS,
    BIDIRECTIONAL,
    DEC_HIDDEN,
    DEC_LAYERS,
    BRIDGE,
    STEPS,
    TOP_K,
    REPLACEMENT,
    STEP,
    TAB,
)
