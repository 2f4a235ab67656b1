"""Frames and readings both gated-cell pages build the same way: gates, states and overrides in long format,
the weight table, the first step two runs part. Numbers are written with s2s_core.fmt.

A run is an LstmRun or a GruRun: `gates[name].value` (S, H) per gate, `h` (S, H), and `c` (S, H) for an LSTM.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import torch

from s2s_core.fmt import rounded
from s2s_core.gated.forcing import Force, forced_mask

THRESHOLD = 0.5  # a gate "mostly open" above this: the plain-words reading's cut-off


def unit(k: int) -> str:
    """0-based component -> '1', '2', … (the same label in every chart and table)."""
    return str(k + 1)


def gates_frame(run, gates: Sequence[str], labels: Sequence[str], forces: tuple[Force, ...] = ()) -> pd.DataFrame:
    """One row per (gate, step, component): value, and whether an override set it."""
    S, H = run.h.shape
    rows = []
    for name in gates:
        mask = forced_mask(name, S, forces)
        value = run.gates[name].value  # (S, H)
        for t in range(S):
            for k in range(H):
                rows.append(
                    {
                        "gate": name,
                        "step": labels[t],
                        "t": t + 1,
                        "component": unit(k),
                        "value": float(value[t, k]),
                        "forced": mask[t],
                    }
                )
    return pd.DataFrame(rows)


def states_frame(run, states: Sequence[str], labels: Sequence[str]) -> pd.DataFrame:
    """The carried states (c and h, or h alone) at every step, one row per (state, step, component)."""
    S, H = run.h.shape
    return pd.DataFrame(
        [
            {
                "state": name,
                "step": labels[t],
                "t": t + 1,
                "component": unit(k),
                "value": float(getattr(run, name)[t, k]),
            }
            for name in states
            for t in range(S)
            for k in range(H)
        ]
    )


def override_frame(
    natural, forced, states: Sequence[str], labels: Sequence[str], names: dict[str, str]
) -> pd.DataFrame:
    """The states of both runs, one row per (run, state, step, component); names translate the two runs."""
    S, H = natural.h.shape
    return pd.DataFrame(
        [
            {
                "run": names[key],
                "state": state,
                "step": labels[t],
                "t": t + 1,
                "component": unit(k),
                "value": float(getattr(run, state)[t, k]),
            }
            for key, run in (("natural", natural), ("forced", forced))
            for state in states
            for t in range(S)
            for k in range(H)
        ]
    )


def largest_states(run) -> dict[str, float]:
    """max |c| and max |h| over all steps and components (the h-vs-c section compares them)."""
    out = {"max_h": float(run.h.abs().max())}
    if hasattr(run, "c"):
        out["max_c"] = float(run.c.abs().max())
    return out


def gate_range(run, gates: Sequence[str]) -> tuple[float, float]:
    """The smallest and the largest value of the sigmoid gates `gates` over every step and component (the caption
    under the picture says where these untrained gates lie, rather than assuming "around 0.5")."""
    values = torch.cat([run.gates[g].value.flatten() for g in gates])  # (len(gates)·S·H,)
    return float(values.min()), float(values.max())


def weight_rows(weight_ih: torch.Tensor, gates: Sequence[str], block_name: str) -> pd.DataFrame:
    """weight_ih_l0 (k·H, E) as a table whose first column names each row's block (i, f, g, o or r, z, n)."""
    H = weight_ih.shape[0] // len(gates)
    data = {block_name: [f"{gates[r // H]}{r % H + 1}" for r in range(weight_ih.shape[0])]}
    for e in range(weight_ih.shape[1]):
        data[f"x{e + 1}"] = rounded(weight_ih[:, e])
    return pd.DataFrame(data)


def keeps_moving(states: torch.Tensor, tol: float = 1e-12) -> bool:
    """(S, H) states: does any later step differ from the first one? (Does h move once c is frozen?)"""
    return bool(states.shape[0] > 1 and float((states[1:] - states[0]).abs().max()) > tol)


def first_difference(natural, forced, tol: float = 1e-12) -> int | None:
    """0-based first step where h (or c, when the run has one) differs between two runs; None if never."""
    states = [s for s in ("c", "h") if hasattr(natural, s)]
    for t in range(natural.h.shape[0]):
        if any(float((getattr(natural, s)[t] - getattr(forced, s)[t]).abs().max()) > tol for s in states):
            return t
    return None
