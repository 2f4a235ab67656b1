"""The inputs both gated-cell pages (LSTM, GRU) read, declared once and built per page (s2s_core/fields.py).

`gated_fields("lstm", {"i": 0, "f": 1, "o": 0}, TABS)` gives one page's fields: the input sequence (a sentence
through a seeded embedding, or typed vectors), the sizes and the seed, the picture's step, the step the
step-by-step tab inspects, for each forceable gate the steps it is forced at and the value it is forced to, and
the open tab. Keys are "<ns>_<name>" (lstm_E, gru_force_z_to): the names links have always carried.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from s2s_core import caps
from s2s_core.fields import Field

SOURCES: tuple[str, ...] = ("sentence", "table")
MAX_E = 8  # E: every component of x_t stays readable in the filled-in formulas
MAX_H = 8  # H: four gates x H components still fit one screen
MAX_S = 12  # S: steps in the heatmaps
# Examples in the learner's language, both 4 steps (so a prepared "try this" link fits either): the note's
# sentence, one word longer, and its English counterpart. The Korean one stays a "try this" case in English.
DEFAULT_SENTENCES = {"ko": "나는 도서관에서 책을 읽는다", "en": "I read a book"}
DEFAULT_SENTENCE = DEFAULT_SENTENCES["ko"]  # the configs' default (the core has no language)
DEFAULT_E = 3
DEFAULT_H = 4
DEFAULT_SEED = 0
# Typed vectors (S=4, E=3): the first step writes, the middle two are quiet, the last is loud.
DEFAULT_VECTORS: tuple[tuple[float, ...], ...] = ((1.0, 0.0, -1.0), (0.0, 0.5, 0.0), (0.0, 0.0, 0.5), (2.0, -1.0, 1.0))
DEFAULT_STEP = 2  # the picture and the step tab open on step 2: step 1 starts from zero states and shows less
# A gate lives between shut (0) and open (1): the two values an override offers, and the core's range for one.
GATE_SHUT, GATE_OPEN = 0, 1
STEPS = tuple(range(1, MAX_S + 1))  # every step a sequence can have (a page narrows it to its sequence's)


@dataclass(frozen=True)
class Override:
    """One forceable gate's two fields: the 1-based steps it is forced at, and the value it is forced to."""

    gate: str
    steps: Field
    to: Field


@dataclass(frozen=True)
class GatedFields:
    """One gated page's fields, by role (the page's registry holds `all`)."""

    source: Field
    sentence: Field
    x: Field
    E: Field
    H: Field
    seed: Field
    step: Field
    inspect: Field
    overrides: tuple[Override, ...]
    tab: Field

    @property
    def all(self) -> tuple[Field, ...]:
        forces = tuple(f for o in self.overrides for f in (o.steps, o.to))
        inputs = (self.source, self.sentence, self.x, self.E, self.H, self.seed)
        return (*inputs, self.step, self.inspect, *forces, self.tab)

    @property
    def forceable(self) -> tuple[str, ...]:
        return tuple(o.gate for o in self.overrides)

    def override(self, gate: str) -> Override:
        return next(o for o in self.overrides if o.gate == gate)


def gated_fields(ns: str, force_defaults: Mapping[str, int], tabs: tuple[str, ...]) -> GatedFields:
    """The fields of the gated page `ns`: `force_defaults` gives each forceable gate (in the page's order) the
    value its override starts at; `tabs` are the page's tab ids, in order."""

    def override(gate: str, value: int) -> Override:
        steps = Field(f"{ns}_force_{gate}", "multi", (), f"{ns}.field.force", options=STEPS)
        to = Field(f"{ns}_force_{gate}_to", "choice", value, f"{ns}.field.force", options=(GATE_SHUT, GATE_OPEN))
        return Override(gate, steps, to)

    return GatedFields(
        source=Field(f"{ns}_source", "choice", "sentence", f"{ns}.field.source", options=SOURCES),
        sentence=Field(
            f"{ns}_sentence", "text", DEFAULT_SENTENCE, f"{ns}.field.sentence", by_lang=tuple(DEFAULT_SENTENCES.items())
        ),
        x=Field(f"{ns}_x", "table", DEFAULT_VECTORS, f"{ns}.field.vectors"),
        E=Field(f"{ns}_E", "int", DEFAULT_E, f"{ns}.field.E", lo=1, hi=MAX_E),
        H=Field(f"{ns}_H", "int", DEFAULT_H, f"{ns}.field.H", lo=1, hi=MAX_H),
        seed=Field(f"{ns}_seed", "int", DEFAULT_SEED, f"{ns}.field.seed", lo=0, hi=caps.MAX_SEED),
        step=Field(f"{ns}_step", "step", DEFAULT_STEP, "steps.label", lo=1, hi=MAX_S),
        # its own key: "<ns>_step" is the picture's slider, this the step-by-step tab's picker
        inspect=Field(f"{ns}_inspect", "choice", DEFAULT_STEP, f"{ns}.step_pick", options=STEPS),
        overrides=tuple(override(gate, value) for gate, value in force_defaults.items()),
        tab=Field(f"{ns}_tabs", "tab", tabs[0], "ui.tabs_field", options=tabs),
    )


def step_or_text(raw: str) -> int | str:
    """A link's step in a list of steps: its number, or the text itself, so a part that is no step of this
    sequence ("9", "x") is named and dropped while the other steps are kept."""
    try:
        return int(raw)
    except ValueError:
        return raw
