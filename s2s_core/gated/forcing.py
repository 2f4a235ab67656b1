"""Gate overrides shared by the LSTM and GRU pages: force a gate to a fixed value at chosen steps."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import torch

from s2s_core.errors import InputError
from s2s_core.gated.fields import GATE_OPEN, GATE_SHUT, GatedFields
from s2s_core.validate import check_float, check_int


@dataclass(frozen=True)
class Force:
    """Gate `gate` (e.g. "f") is replaced by `value` in every component at the 0-based `steps`."""

    gate: str
    steps: tuple[int, ...]
    value: float


def parse_forces(fields: GatedFields, raw: Mapping[str, tuple[Sequence[object], object]], S: int) -> tuple[Force, ...]:
    """{gate: (1-based steps, value)} from the widgets -> Forces; a gate with no steps is not forced.

    A gate must be one of the page's forceable gates, a step one of this sequence's 1…S, and a value lie
    between shut and open (a sigmoid gate lives in (0, 1); the page offers the two ends, a script any mix).
    """
    gates = fields.forceable
    forces = []
    for gate, (steps, value) in raw.items():
        if gate not in gates:
            label = fields.overrides[0].steps.label
            raise InputError("errors.bad_choice", label, value=str(gate)[:20], choices=", ".join(gates))
        override = fields.override(gate)
        if not steps:
            continue
        picked = sorted({check_int(s, override.steps.label, 1, S) - 1 for s in steps})
        forced = check_float(value, override.to.label, GATE_SHUT, GATE_OPEN)
        forces.append(Force(gate=gate, steps=tuple(picked), value=forced))
    return tuple(sorted(forces, key=lambda f: gates.index(f.gate)))


def forces_from(settings: Mapping[str, float], S: int, start: int = 1) -> tuple[Force, ...]:
    """Each gate of `settings` (in its order) forced to its value at the 1-based steps start…S; () when none."""
    steps = tuple(range(start - 1, S))
    return tuple(Force(gate, steps, float(value)) for gate, value in settings.items()) if steps else ()


def apply_force(gate: str, t: int, value: torch.Tensor, forces: tuple[Force, ...]) -> torch.Tensor:
    """The gate's value at step t after any override (a new tensor; the natural value is kept apart)."""
    for force in forces:
        if force.gate == gate and t in force.steps:
            return torch.full_like(value, force.value)  # (H,)
    return value  # (H,)


def forced_mask(gate: str, S: int, forces: tuple[Force, ...]) -> tuple[bool, ...]:
    """(S,) True at the steps where `gate` is overridden."""
    steps = {t for f in forces if f.gate == gate for t in f.steps}
    return tuple(t in steps for t in range(S))
