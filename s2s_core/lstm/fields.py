"""The inputs of the LSTM-gates page, declared once: the gated pages' fields (s2s_core/gated/fields.py) for "lstm"."""

from __future__ import annotations

from s2s_core.gated.fields import gated_fields

# The sigmoid gates (each a 0-1 pass-through ratio) and the value each override starts at: f = 1 with i = 0 is
# "freeze the cell", so that experiment is one choice of steps away.
FORCE_DEFAULTS = {"i": 0, "f": 1, "o": 0}
FORCEABLE = tuple(FORCE_DEFAULTS)
TABS = ("override", "steps", "gates", "tables", "check", "code", "notice")

GATED = gated_fields("lstm", FORCE_DEFAULTS, TABS)
FIELDS = GATED.all
