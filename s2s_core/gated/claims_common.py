"""What the two gated pages' lesson claims share (s2s_core/lstm/claims.py, s2s_core/gru/claims.py).

`read_config` reads a lesson step's link state as `s2s_ui/gated.read_inputs` and `read_override` read the page's
controls: the sequence, the sizes and the seed through the cell's own `parse_config`, then the gate overrides
through the same `parse_forces`. The other helpers compute what both pages show alike: one gate's value in one
component (the picture's gate column, the step tab's filled-in formula), a state held fixed from a step on (a
frozen cell), and the check against PyTorch's own module.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import torch

from s2s_core.fmt import num, sci, vec
from s2s_core.gated.fields import GatedFields, step_or_text
from s2s_core.gated.forcing import parse_forces
from s2s_core.gated.frames import THRESHOLD
from s2s_core.lessons.claims import ClaimResult, LinkState

CHECK_TOL = 1e-9  # the pages' check badge passes at this max |hand - module| (pages/lstm.py, pages/gru.py)


def read_config(state: LinkState, gated: GatedFields, parse_config: Callable[..., Any]) -> Any:
    """The config the page computes on this state: its inputs, and the overrides in effect (none when no gate has
    a step). The page reads the sentence only in sentence mode and the table only in table mode, as here; an
    override's steps are chips of this sequence's steps 1…S, so a linked step outside them is dropped as the
    chips drop it."""
    source = state.value(gated.source)
    sentence = state.value(gated.sentence) if source != "table" else None
    rows = [list(r) for r in state.value(gated.x)] if source == "table" else None
    config = parse_config(source, sentence, rows, state.value(gated.E), state.value(gated.H), state.value(gated.seed))
    S = config.seq.S
    raw = {}
    for override in gated.overrides:
        steps = [s for s in state.value(override.steps, decode=step_or_text) if isinstance(s, int) and 1 <= s <= S]
        raw[override.gate] = (steps, state.value(override.to))
    return replace(config, forces=parse_forces(gated, raw, S))


def shown_run(result: Any) -> Any:
    """The run the picture draws: the forced one while a gate is overridden, else the computed one."""
    return result.forced if result.forced is not None else result.run


def gate_open(result: Any, gate: str, step: int, component: int, above: float = THRESHOLD) -> ClaimResult:
    """Gate `gate` at the 1-based `step` is above `above` in the 1-based `component` (the picture's column of that
    gate, one square per component; the step tab's formula writes the whole vector, which is what `shown` holds).
    values: {value} the component's value, {gate_row} the vector, {step} the step's label."""
    run = shown_run(result)
    row = run.gates[gate].value[step - 1]  # (H,)
    value = float(row[component - 1])
    return ClaimResult(
        value > above,
        {"value": num(value), "gate_row": vec(row), "step": result.labels[step - 1], "component": str(component)},
        shown=(vec(row),),
    )


def held_from(states: torch.Tensor, start: int, tol: float = 1e-12) -> bool:
    """(S, H) states: is every step from the 1-based `start` on equal to the step before it (held fixed)?"""
    if states.shape[0] < start or start < 2:
        return False
    return bool(float((states[start - 1 :] - states[start - 2]).abs().max()) <= tol)


def module_check(result: Any, params: int, shown: tuple[str, ...]) -> ClaimResult:
    """The Check tab: the hand loop equals PyTorch's module (within the badge's tolerance) and the module holds
    `params` parameters. values: {diff} as the badge writes it, {params}, {h_n} (the module's last h)."""
    ok = result.max_abs_diff <= CHECK_TOL and result.n_params == params
    values = {"diff": sci(result.max_abs_diff), "params": str(result.n_params), "h_n": vec(result.torch_h_n)}
    return ClaimResult(ok, values, shown=shown)
