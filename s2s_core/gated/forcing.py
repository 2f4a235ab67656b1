"""Gate overrides shared by the LSTM and GRU pages: force a gate to a fixed value at chosen steps."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import torch

from s2s_core.errors import InputError
from s2s_core.validate import check_float, check_int


@dataclass(frozen=True)
class Force:
    """Gate `gate` (e.g. "f") is replaced by `value` in every component at the 0-based `steps`."""

    gate: str
    steps: tuple[int, ...]
    value: float


def parse_forces(
    ns: str, raw: Mapping[str, tuple[Sequence[object], object]], gates: Sequence[str], S: int
) -> tuple[Force, ...]:
    """{gate: (1-based steps, value)} from the widgets -> Forces; a gate with no steps is not forced.

    Steps beyond the sequence and values outside [0, 1] are rejected: a sigmoid gate lives in (0, 1).
    """
    forces = []
    for gate, (steps, value) in raw.items():
        if gate not in gates:
            raise InputError("errors.bad_choice", f"{ns}.field.force", value=str(gate)[:20], choices=", ".join(gates))
        if not steps:
            continue
        picked = sorted({check_int(s, f"{ns}.field.force", 1, S) - 1 for s in steps})
        forced = check_float(value, f"{ns}.field.force", 0.0, 1.0)
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
