"""The inputs of the encoder–decoder page, declared once (s2s_core/fields.py): caps, defaults, link keys."""

from __future__ import annotations

from s2s_core import caps
from s2s_core.fields import Field

MODELS = ("trained", "untrained")  # the Translation lab's default, trained; or a tiny seeded one, untrained
CELLS = ("lstm", "gru")
BRIDGES = ("none", "linear")
MAX_SOURCE_TOKENS = 12  # S typed by the learner (the per-step tables stay readable)
MAX_STEPS = 16  # T: the toy grammar's longest English sentence (13 words) and <eos> fit
MAX_TOP_K = 8
MAX_WORD_CHARS = 30
# The opening sentence, in both languages: the syllabus's Korean example, a sentence of the toy grammar
# (s2s_core/grammar.py), so the trained Korean -> English model translates it (an English page translates from
# Korean too, the lab's direction); the replacement word is the bottleneck's swap for the first word, a word the
# trained model knows.
DEFAULT_SOURCE = "나는 책을 읽는다"
DEFAULT_REPLACEMENT = "그는"
# Decoding runs until <eos> or T steps: the trained model stops by itself (T = the cap leaves room for the longest
# sentence); the untrained one seldom chooses <eos>, so its default T is short.
DEFAULT_STEPS = {"trained": MAX_STEPS, "untrained": 5}
TABS = ("encoder", "handoff", "steps", "bottleneck", "check", "notice", "code")

MODEL = Field("seq2seq_model", "choice", MODELS[0], "seq2seq.field.model", options=MODELS)
SOURCE = Field("seq2seq_source", "text", DEFAULT_SOURCE, "seq2seq.field.source")
CELL = Field("seq2seq_cell", "choice", "lstm", "seq2seq.field.cell", options=CELLS)
SEED = Field("seq2seq_seed", "int", 0, "seq2seq.field.seed", lo=0, hi=caps.MAX_SEED)
EMBED = Field("seq2seq_embed", "int", 4, "seq2seq.field.embed", lo=1, hi=caps.MAX_EMBED)
ENC_HIDDEN = Field("seq2seq_enc_hidden", "int", 6, "seq2seq.field.enc_hidden", lo=1, hi=caps.MAX_HIDDEN)
ENC_LAYERS = Field("seq2seq_enc_layers", "int", 1, "seq2seq.field.enc_layers", lo=1, hi=caps.MAX_LAYERS)
BIDIRECTIONAL = Field("seq2seq_bidir", "bool", False, "seq2seq.field.bidirectional")
DEC_HIDDEN = Field("seq2seq_dec_hidden", "int", 6, "seq2seq.field.dec_hidden", lo=1, hi=caps.MAX_HIDDEN)
DEC_LAYERS = Field("seq2seq_dec_layers", "int", 1, "seq2seq.field.dec_layers", lo=1, hi=caps.MAX_LAYERS)
BRIDGE = Field("seq2seq_bridge", "choice", "none", "seq2seq.field.bridge", options=BRIDGES)
STEPS = Field("seq2seq_steps", "int", DEFAULT_STEPS["trained"], "seq2seq.field.steps", lo=1, hi=MAX_STEPS)
TOP_K = Field("seq2seq_top_k", "int", 3, "seq2seq.field.top_k", lo=1, hi=MAX_TOP_K)
REPLACEMENT = Field(
    "seq2seq_replacement", "text", DEFAULT_REPLACEMENT, "seq2seq.field.replacement", max_chars=MAX_WORD_CHARS
)
STEP = Field("seq2seq_step", "step", 1, "steps.label", lo=1, hi=MAX_STEPS)  # the decoder step the picture shows
TAB = Field("seq2seq_tabs", "tab", TABS[0], "ui.tabs_field", options=TABS)

FIELDS = (
    SOURCE,
    MODEL,
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
