"""The inputs of the GRU page, declared once: the gated pages' fields (s2s_core/gated/fields.py) for "gru"."""

from __future__ import annotations

from s2s_core.gated.fields import gated_fields

# The sigmoid gates and the value each override starts at: z = 1 is "freeze h", r = 0 "ignore the old state in
# the candidate".
FORCE_DEFAULTS = {"r": 0, "z": 1}
FORCEABLE = tuple(FORCE_DEFAULTS)
TABS = ("override", "steps", "gates", "compare", "tables", "check", "code", "notice")

GATED = gated_fields("gru", FORCE_DEFAULTS, TABS)
FIELDS = GATED.all
