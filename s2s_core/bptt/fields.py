"""The inputs of the backprop-through-time page, declared once (s2s_core/fields.py): caps, defaults, link keys."""

from __future__ import annotations

from s2s_core import caps
from s2s_core.fields import Field

CELLS = ("rnn", "lstm", "gru")
MAX_T = caps.MAX_BPTT_STEPS
RHO_RANGE = (0.1, 2.0)  # spectral radius of each H×H block of W_hh; 0 would make every earlier gradient 0
GATE_BIAS_RANGE = (-3.0, 5.0)
MAX_NORM_RANGE = (0.1, 10.0)  # clip_grad_norm_'s threshold: from well under to well over the default gradients
TABS = ("reach", "curves", "truncate", "clip", "tables", "check", "code", "notice")

# Each field is named in a message by its short "bptt.field.*" label; the page draws it with a longer one.
CELL = Field("bptt_cell", "choice", "rnn", "bptt.field.cell", options=CELLS)
T = Field("bptt_T", "int", 30, "bptt.field.T", lo=2, hi=MAX_T)
RHO = Field("bptt_rho", "float", 0.9, "bptt.field.rho", lo=RHO_RANGE[0], hi=RHO_RANGE[1])
LINEAR = Field("bptt_linear", "bool", False, "bptt.linear_label")
GATE = Field("bptt_gate", "float", 1.0, "bptt.field.gate_bias", lo=GATE_BIAS_RANGE[0], hi=GATE_BIAS_RANGE[1])
TRUNCATE = Field("bptt_k", "int", 0, "bptt.field.truncate", lo=0, hi=MAX_T)
SEED = Field("bptt_seed", "int", 0, "bptt.field.seed", lo=0, hi=caps.MAX_SEED)
CLIP = Field("bptt_clip", "float", 1.0, "bptt.field.max_norm", lo=MAX_NORM_RANGE[0], hi=MAX_NORM_RANGE[1])
TAB = Field("bptt_tabs", "tab", TABS[0], "ui.tabs_field", options=TABS)

FIELDS = (CELL, T, RHO, LINEAR, GATE, TRUNCATE, SEED, CLIP, TAB)
