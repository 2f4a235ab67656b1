"""The inputs of the tensor-shapes page, declared once (s2s_core/fields.py): caps, defaults, link keys."""

from __future__ import annotations

from s2s_core import caps
from s2s_core.fields import Field

CELLS: tuple[str, ...] = ("RNN", "LSTM", "GRU")
# The wrong calls the failure tab can make ("none" shows nothing); raw values, as in the link.
KINDS: tuple[str, ...] = ("none", "wrong_e", "wrong_h0", "input_2d", "unsorted")
MAX_QUESTION = 9999
TABS = ("tables", "check", "padding", "packed", "bridge", "failure", "quiz", "notice", "code")

# The defaults are the study note's §8 example: nn.LSTM(4, 6, batch_first=True) on a batch of two 3-token ids.
CELL = Field("shapes_cell", "choice", "LSTM", "shapes.field.cell", options=CELLS)
BATCH_FIRST = Field("shapes_batch_first", "bool", True, "shapes.field.batch_first")
BIDIRECTIONAL = Field("shapes_bidirectional", "bool", False, "shapes.field.bidirectional")
PACKED = Field("shapes_packed", "bool", False, "shapes.field.packed")
B = Field("shapes_B", "int", 2, "shapes.field.B", lo=1, hi=caps.MAX_BATCH)
S = Field("shapes_S", "int", 3, "shapes.field.S", lo=1, hi=caps.MAX_SEQ_LEN)
E = Field("shapes_E", "int", 4, "shapes.field.E", lo=1, hi=caps.MAX_EMBED)
H = Field("shapes_H", "int", 6, "shapes.field.H", lo=1, hi=caps.MAX_HIDDEN)
# "3, 1": one true length per sentence; empty means every sentence has the full length S.
LENGTHS = Field("shapes_lengths", "text", "", "shapes.field.lengths", max_chars=caps.MAX_TEXT_CHARS)
NUM_LAYERS = Field("shapes_num_layers", "int", 1, "shapes.field.num_layers", lo=1, hi=caps.MAX_LAYERS)
PROJ_SIZE = Field("shapes_proj_size", "int", 0, "shapes.field.proj_size", lo=0, hi=caps.MAX_HIDDEN)
SEED = Field("shapes_seed", "int", 42, "shapes.field.seed", lo=0, hi=caps.MAX_SEED)
# The bridge tab's decoder and the failure tab's wrong call: drawn inside their tabs, in the link all the same.
DEC_LAYERS = Field("shapes_dec_layers", "int", 1, "shapes.field.dec_layers", lo=1, hi=caps.MAX_LAYERS)
DEC_HIDDEN = Field("shapes_dec_hidden", "int", 8, "shapes.field.dec_hidden", lo=1, hi=caps.MAX_HIDDEN)
FAILURE = Field("shapes_failure", "choice", "none", "shapes.field.failure", options=KINDS)
# The drill's question: each number is one layer of its own (s2s_core/shapes/quiz.make_question), so a link
# opens the same question in any session; "next question" adds one.
QUESTION = Field("shapes_question", "int", 1, "shapes.field.question", lo=1, hi=MAX_QUESTION)
TAB = Field("shapes_tabs", "tab", TABS[0], "ui.tabs_field", options=TABS)

FIELDS = (
    CELL,
    BATCH_FIRST,
    BIDIRECTIONAL,
    PACKED,
    B,
    S,
    E,
    H,
    LENGTHS,
    NUM_LAYERS,
    PROJ_SIZE,
    SEED,
    DEC_LAYERS,
    DEC_HIDDEN,
    FAILURE,
    QUESTION,
    TAB,
)
FLAGS = {"batch_first": BATCH_FIRST, "bidirectional": BIDIRECTIONAL, "packed": PACKED}
SIZES = {"B": B, "S": S, "E": E, "H": H}
