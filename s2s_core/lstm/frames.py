"""Tidy frames, filled-in formulas and plain-words readings for the LSTM page (no streamlit)."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import torch

from s2s_core.fmt import rounded, vec
from s2s_core.gated import frames as gated_frames
from s2s_core.gated.forcing import Force
from s2s_core.gated.frames import THRESHOLD, keeps_moving, unit
from s2s_core.lstm.compute import GATES, LstmResult, LstmRun

STATES = ("c", "h")  # what an LSTM carries from step to step


def gates_frame(run: LstmRun, labels: Sequence[str], forces: tuple[Force, ...] = ()) -> pd.DataFrame:
    """One row per (gate, step, component): i, f, o (0-1) and the candidate g (-1..1), and whether forced."""
    return gated_frames.gates_frame(run, GATES, labels, forces)


def step_table(run: LstmRun, step: int) -> pd.DataFrame:
    """The selected step per component, in formula order: gates, candidate, old and new cell, h."""
    cols = {
        "i": run.gates["i"].value[step],
        "f": run.gates["f"].value[step],
        "g": run.gates["g"].value[step],
        "o": run.gates["o"].value[step],
        "c_(t-1)": run.c_prev[step],
        "c_t": run.c[step],
        "h_t": run.h[step],
    }
    H = run.h.shape[1]
    data = {"#": [unit(k) for k in range(H)]}
    data.update({name: rounded(col) for name, col in cols.items()})
    return pd.DataFrame(data)


def step_bars(run: LstmRun, step: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(gate bars, state bars) of one step: i, f, o per component; g, c_(t-1), c_t, h_t per component."""
    H = run.h.shape[1]
    gate_rows = [
        {"gate": g, "component": unit(k), "value": float(run.gates[g].value[step, k])}
        for g in ("i", "f", "o")
        for k in range(H)
    ]
    states = {"g": run.gates["g"].value[step], "c_(t-1)": run.c_prev[step], "c_t": run.c[step], "h_t": run.h[step]}
    state_rows = [
        {"quantity": q, "component": unit(k), "value": float(v[k])} for q, v in states.items() for k in range(H)
    ]
    return pd.DataFrame(gate_rows), pd.DataFrame(state_rows)


def states_frame(run: LstmRun, labels: Sequence[str]) -> pd.DataFrame:
    """c_t and h_t at every step, one row per (state, step, component): the h-vs-c heatmaps."""
    return gated_frames.states_frame(run, STATES, labels)


def override_frame(natural: LstmRun, forced: LstmRun, labels: Sequence[str], names: dict[str, str]) -> pd.DataFrame:
    """c and h of both runs, one row per (run, state, step, component); names translate the two runs."""
    return gated_frames.override_frame(natural, forced, STATES, labels, names)


def equations(result: LstmResult, run: LstmRun, step: int) -> list[str]:
    """The step's equations with the numbers filled in, in the order the cell computes them."""
    t = step
    x_t = result.x[t]  # (E,)
    lines = [f"x_t = {vec(x_t)}", f"h_(t-1) = {vec(run.h_prev[t])}", f"c_(t-1) = {vec(run.c_prev[t])}"]
    for name in GATES:
        lines.append("")  # a blank line between equations: each wraps over several lines
        w = result.weights[name]
        trace = run.gates[name]
        act = "tanh" if name == "g" else "σ"
        lines.append(
            f"{name} = {act}(W_i{name}·x_t + b_i{name} + W_h{name}·h_(t-1) + b_h{name}) = "
            f"{act}({vec(trace.x_part[t])} + {vec(w.b_x)} + {vec(trace.h_part[t])} + {vec(w.b_h)}) = "
            f"{act}({vec(trace.pre[t])}) = {vec(trace.value[t])}"
        )
    i, f, g, o = (run.gates[n].value[t] for n in GATES)
    lines.append("")
    lines.append(
        f"c_t = f⊙c_(t-1) + i⊙g = {vec(f)}⊙{vec(run.c_prev[t])} + {vec(i)}⊙{vec(g)}"
        f" = {vec(f * run.c_prev[t])} + {vec(i * g)} = {vec(run.c[t])}"
    )
    lines.append("")
    lines.append(f"h_t = o⊙tanh(c_t) = {vec(o)}⊙{vec(torch.tanh(run.c[t]))} = {vec(run.h[t])}")
    return lines


def reading(run: LstmRun, step: int, threshold: float = THRESHOLD) -> dict[str, str]:
    """Which components the step kept (f), wrote (i) and exposed (o) by more than `threshold`."""
    out = {}
    for key, gate in (("kept", "f"), ("written", "i"), ("exposed", "o")):
        value = run.gates[gate].value[step]  # (H,)
        out[key] = ", ".join(unit(k) for k in range(value.shape[0]) if float(value[k]) > threshold)
    return out


def h_answer(frozen: LstmRun) -> str:
    """The page's question, graded on the frozen run: "moves" when h still changes after step 1, else "stays"."""
    return "moves" if keeps_moving(frozen.h) else "stays"
