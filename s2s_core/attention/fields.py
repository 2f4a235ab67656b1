"""The inputs of the attention-weighting page, declared once (s2s_core/fields.py): caps, defaults, link keys."""

from __future__ import annotations

from s2s_core.fields import Field

MAX_POSITIONS = 12  # S: source positions
MAX_STEPS = 12  # T: decoder steps
MAX_DIM = 8  # D: components of a source vector

# The worked example every learner checks: three source vectors, two decoder steps, contexts [3.4, 2.2] and [1.8, 1.4].
DEFAULT_SOURCES = ((2.0, 0.0), (0.0, 4.0), (6.0, 2.0))
DEFAULT_WEIGHTS = ((0.2, 0.3, 0.5), (0.6, 0.3, 0.1))
MODES = ("weights", "scores")
# Every source position a link may name ("s1" … "s12", as every table and chart labels them): the PAD choices and
# the picked source; the page narrows them to the sources on screen.
POSITIONS = tuple(f"s{s + 1}" for s in range(MAX_POSITIONS))
TABS = ("steps", "tables", "check", "code", "notice")

MODE = Field("att_mode", "choice", MODES[0], "attention.field.mode", options=MODES)
DIM = Field("att_dim", "int", len(DEFAULT_SOURCES[0]), "attention.dim_label", lo=1, hi=MAX_DIM)
SOURCES = Field("att_src", "table", DEFAULT_SOURCES, "attention.field.sources")
STEPS = Field("att_steps", "table", DEFAULT_WEIGHTS, "attention.field.steps")
PAD = Field("att_pad", "multi", (), "attention.field.pad", options=POSITIONS)
STEP = Field("att_step", "step", 1, "steps.label", lo=1, hi=MAX_STEPS)
# The source clicked in the picture (its arithmetic is written out under it); no pick leaves no parameter.
PICK = Field("att_pick", "pick", None, "attention.field.pick", options=POSITIONS)
TAB = Field("attention_tabs", "tab", TABS[0], "ui.tabs_field", options=TABS)

FIELDS = (MODE, DIM, SOURCES, STEPS, PAD, STEP, PICK, TAB)
