"""Tidy frames, filled-in formulas and plain-words readings for the GRU page (no streamlit)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
import torch

from s2s_core.fmt import rounded, vec
from s2s_core.gated import frames as gated_frames
from s2s_core.gated.forcing import Force
from s2s_core.gated.frames import THRESHOLD, unit
from s2s_core.gru.compare import BLOCKS, CELLS, Comparison
from s2s_core.gru.compare import STATES as CARRIED
from s2s_core.gru.compute import GATES, GruResult, GruRun

STATES = CARRIED["gru"]  # what a GRU carries from step to step: h alone


def gates_frame(run: GruRun, labels: Sequence[str], forces: tuple[Force, ...] = ()) -> pd.DataFrame:
    """One row per (gate, step, component): r, z (0-1) and the candidate n (-1..1), and whether forced."""
    return gated_frames.gates_frame(run, GATES, labels, forces)


def step_table(run: GruRun, step: int) -> pd.DataFrame:
    """The selected step per component: r, z, n, the old h and the new h."""
    cols = {
        "r": run.gates["r"].value[step],
        "z": run.gates["z"].value[step],
        "n": run.gates["n"].value[step],
        "h_(t-1)": run.h_prev[step],
        "h_t": run.h[step],
    }
    data = {"#": [unit(k) for k in range(run.h.shape[1])]}
    data.update({name: rounded(col) for name, col in cols.items()})
    return pd.DataFrame(data)


def step_bars(run: GruRun, step: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(gate bars, state bars) of one step: r, z per component; n, h_(t-1), h_t per component."""
    H = run.h.shape[1]
    gate_rows = [
        {"gate": g, "component": unit(k), "value": float(run.gates[g].value[step, k])}
        for g in ("r", "z")
        for k in range(H)
    ]
    states = {"n": run.gates["n"].value[step], "h_(t-1)": run.h_prev[step], "h_t": run.h[step]}
    state_rows = [
        {"quantity": q, "component": unit(k), "value": float(v[k])} for q, v in states.items() for k in range(H)
    ]
    return pd.DataFrame(gate_rows), pd.DataFrame(state_rows)


def states_frame(run: GruRun, labels: Sequence[str]) -> pd.DataFrame:
    """h_t at every step (the only state a GRU carries)."""
    return gated_frames.states_frame(run, STATES, labels)


def override_frame(natural: GruRun, forced: GruRun, labels: Sequence[str], names: dict[str, str]) -> pd.DataFrame:
    """h of both runs, one row per (run, step, component)."""
    return gated_frames.override_frame(natural, forced, STATES, labels, names)


def equations(result: GruResult, run: GruRun, step: int) -> list[str]:
    """The step's equations in PyTorch's formulation, numbers filled in."""
    t = step
    r, z, n = (run.gates[g] for g in GATES)
    lines = [f"x_t = {vec(result.x[t])}", f"h_(t-1) = {vec(run.h_prev[t])}"]
    for name, tr in (("r", r), ("z", z)):
        lines.append("")  # a blank line between equations: each wraps over several lines
        lines.append(
            f"{name} = σ((W_i{name}·x_t + b_i{name}) + (W_h{name}·h_(t-1) + b_h{name})) = "
            f"σ({vec(tr.x_part[t])} + {vec(tr.h_part[t])}) = σ({vec(tr.pre[t])}) = "
            f"{vec(tr.value[t])}"
        )
    lines.append("")
    lines.append(
        f"n = tanh((W_in·x_t + b_in) + r⊙(W_hn·h_(t-1) + b_hn)) = tanh({vec(n.x_part[t])} + "
        f"{vec(r.value[t])}⊙{vec(n.h_part[t])}) = tanh({vec(n.pre[t])}) = {vec(n.value[t])}"
    )
    zt = z.value[t]
    lines.append("")
    lines.append(
        f"h_t = (1 − z)⊙n + z⊙h_(t-1) = {vec(1 - zt)}⊙{vec(n.value[t])} + "
        f"{vec(zt)}⊙{vec(run.h_prev[t])} = {vec(run.h[t])}"
    )
    return lines


def reading(run: GruRun, step: int, threshold: float = THRESHOLD) -> dict[str, str]:
    """Components that mostly kept the old h (z > threshold), took the candidate, and let old h into n (r)."""
    z = run.gates["z"].value[step]  # (H,)
    r = run.gates["r"].value[step]  # (H,)
    H = z.shape[0]
    return {
        "kept": ", ".join(unit(k) for k in range(H) if float(z[k]) > threshold),
        "written": ", ".join(unit(k) for k in range(H) if float(z[k]) <= threshold),
        "reset": ", ".join(unit(k) for k in range(H) if float(r[k]) <= threshold),
    }


COLUMNS = ("cell", "blocks", "carries", "params", "formula")  # gru.col_*: the columns of comparison_table


def comparison_table(comp: Comparison, names: dict[str, str]) -> pd.DataFrame:
    """One row per module: blocks, what it carries, the count from the module and by the formula."""
    blocks = {"rnn": "1", "gru": "3 (r, z, n)", "lstm": "4 (i, f, g, o)"}
    return pd.DataFrame(
        {
            names["cell"]: ["nn.RNN", "nn.GRU", "nn.LSTM"],
            names["blocks"]: [blocks[c] for c in CELLS],
            names["carries"]: [", ".join(CARRIED[c]) for c in CELLS],
            names["params"]: [comp.totals[c] for c in CELLS],
            names["formula"]: [
                f"{BLOCKS[c]}·({comp.H}·{comp.E} + {comp.H}·{comp.H} + 2·{comp.H}) = {comp.formula[c]}" for c in CELLS
            ],
        }
    )


def params_frame(comp: Comparison) -> pd.DataFrame:
    """One row per parameter tensor (long format, for the stacked bar chart)."""
    return pd.DataFrame(
        [
            {
                "cell": f"nn.{r.cell.upper()}",
                "name": r.name,
                "shape": " × ".join(str(s) for s in r.shape),
                "numel": r.numel,
            }
            for r in comp.rows
        ]
    )


def mix_parts(run: GruRun, step: int) -> tuple[torch.Tensor, torch.Tensor]:
    """(z⊙h_(t-1), (1 − z)⊙n) at one step, each (H,): h_t is their sum, so the first is what the old state brings."""
    z = run.gates["z"].value[step]  # (H,)
    return z * run.h_prev[step], (1 - z) * run.gates["n"].value[step]  # (H,), (H,)


def old_state_reaches(run: GruRun, tol: float = 1e-12) -> bool:
    """The page's question, graded on a run: does h_(t-1) still reach the last h_t (z⊙h_(t-1) not all zero)?"""
    kept, _ = mix_parts(run, run.h.shape[0] - 1)  # (H,)
    return float(kept.abs().max()) > tol


@dataclass(frozen=True)
class ResetQuiz:
    """The page's question (r = 0 at every step: does h_(t-1) still reach the last h_t?), read from that run.

    kind: "carried" (z⊙h_(t-1) is not zero: yes, through z), "closed" (h_(t-1) is not zero but z⊙h_(t-1) is: no,
    and it is z that keeps nothing, not r), or "empty" (h_(t-1) is all zeros, as h_0 is for a one-word input:
    there is no earlier state to keep whatever r and z do, so the question is not asked).
    """

    kind: str
    step: int  # 0-based: the last step
    kept: torch.Tensor  # (H,) z⊙h_(t-1) at that step
    taken: torch.Tensor  # (H,) (1 − z)⊙n at that step

    @property
    def answer(self) -> str | None:
        """The graded option ("yes" / "no"), None when the question is not asked."""
        return {"carried": "yes", "closed": "no"}.get(self.kind)


def reset_quiz(shut: GruRun, tol: float = 1e-12) -> ResetQuiz:
    """The question's kind, answer and numbers for the run with r shut at every step (gru.compute.shut_config)."""
    step = shut.h.shape[0] - 1
    kept, taken = mix_parts(shut, step)  # (H,), (H,)
    if not bool(shut.h_prev[step].any()):
        kind = "empty"
    else:
        kind = "carried" if old_state_reaches(shut, tol) else "closed"
    return ResetQuiz(kind, step, kept, taken)
