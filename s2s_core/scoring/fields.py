"""The inputs of the Bahdanau-vs-Luong page, declared once (s2s_core/fields.py): caps, defaults, link keys."""

from __future__ import annotations

from s2s_core import caps
from s2s_core.fields import Field

SCORERS = ("additive", "dot", "general", "concat", "scaled_dot")  # the score functions, in the page's order
WINDOWS = ("global", "local_m", "local_p")
QUERY_FROM = ("previous", "current")
CONTEXT_INTO = ("input", "output")
SOURCES = ("table", "encoder")  # where the states come from: typed, or read off an encoder
MAX_POSITIONS = 12  # S
MAX_SIZE = 8  # H_d and H_e
MAX_ATTN = 8  # A
MAX_HALF_WIDTH = 6  # D
MAX_SCALE = 10.0  # weight scale: untrained weights in PyTorch's default range give nearly flat scores

# The attention page's source vectors (its worked example) plus two more, so a local window leaves some out.
DEFAULT_ENC = ((2.0, 0.0), (0.0, 4.0), (6.0, 2.0), (1.0, 1.0), (3.0, -1.0))
DEFAULT_DEC = (0.3, 0.2)
# The sentence the encoder reads when the states come from it, in the learner's language; the syllabus's Korean
# one is the other language's "try this" case. Each language's own leaves no parameter in the link.
DEFAULT_SENTENCES = {"ko": "나는 책을 읽는다", "en": "i read a book"}
TABS = ("compare", "focus", "window", "flow", "notice", "code")

FROM = Field("scoring_from", "choice", SOURCES[0], "scoring.from_label", options=SOURCES)
DEC = Field("scoring_dec", "text", ", ".join(f"{x:g}" for x in DEFAULT_DEC), "scoring.field.dec_state")
H_E = Field("scoring_he", "int", len(DEFAULT_ENC[0]), "scoring.he_label", lo=1, hi=MAX_SIZE)
ENC = Field("scoring_enc", "table", DEFAULT_ENC, "scoring.field.enc_states")
SENTENCE = Field("scoring_sentence", "text", label="scoring.field.sentence", by_lang=tuple(DEFAULT_SENTENCES.items()))
ATTN = Field("scoring_attn", "int", 3, "scoring.field.attn_size", lo=1, hi=MAX_ATTN)
SEED = Field("scoring_seed", "int", 0, "scoring.field.seed", lo=0, hi=caps.MAX_SEED)
SCALE = Field("scoring_scale", "float", 2.0, "scoring.field.scale", lo=0.1, hi=MAX_SCALE)
FOCUS = Field("scoring_focus", "choice", SCORERS[0], "scoring.field.focus", options=SCORERS)  # the picture's function
# Off: the picture follows one function (scores -> softmax -> weights); on: every function side by side above it.
COMPARE = Field("scoring_compare", "bool", False, "scoring.field.compare")
WINDOW = Field("scoring_window", "choice", WINDOWS[0], "scoring.field.window", options=WINDOWS)
# t, the decoder step local-m centres its window on: any step is a valid window (p_t = t is clipped to S).
STEP = Field("scoring_step", "int", 3, "scoring.field.step", lo=1, hi=caps.MAX_SEQ_LEN)
HALF_WIDTH = Field("scoring_D", "int", 1, "scoring.field.half_width", lo=1, hi=MAX_HALF_WIDTH)
QUERY = Field("scoring_query", "choice", QUERY_FROM[0], "scoring.field.query_from", options=QUERY_FROM)
INTO = Field("scoring_into", "choice", CONTEXT_INTO[0], "scoring.field.context_into", options=CONTEXT_INTO)
POSITION = Field("scoring_pos", "step", 1, "scoring.chart.position", lo=1, hi=MAX_POSITIONS)  # picture 2's slider
TAB = Field("scoring_tabs", "tab", TABS[0], "ui.tabs_field", options=TABS)

FIELDS = (
    *(FROM, DEC, H_E, ENC, SENTENCE, ATTN, SEED, SCALE, FOCUS, COMPARE),
    *(WINDOW, STEP, HALF_WIDTH, QUERY, INTO, POSITION, TAB),
)
