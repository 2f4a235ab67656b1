"""The LSTM cell as the page's main picture: its layout on the shared cell diagram and the values it shows.

The c line runs along the top: c_(t-1) ⊙ f → f⊙c_(t-1), + i⊙g → c_t. The gates sit in the middle row,
h_(t-1) and the step's word feed them along the bottom, and h_t = o⊙tanh(c_t) comes out bottom right.
The products are columns of their own, so the picture writes c_t = f⊙c_(t-1) + i⊙g with the step's numbers.
"""

from __future__ import annotations

from collections.abc import Mapping

import torch

from s2s_core.gated.forcing import forced_mask
from s2s_core.gated.picture import Block, CellPicture, Layout, Node, Wire, cell_picture
from s2s_core.lstm.compute import FORCEABLE, LstmConfig, LstmResult, LstmRun

LAYOUT = Layout(
    blocks=(
        Block("c_prev", "c_(t-1)", 6, 0, state=True),
        Block("fc", "f⊙c_(t-1)", 33, 0),
        Block("ig", "i⊙g", 53, 0),
        Block("c_t", "c_t", 91, 0, state=True),
        Block("f", "f", 20, 1, gate=True, force="f", align="left"),
        Block("i", "i", 46, 1, gate=True, force="i"),
        Block("g", "g", 61, 1),
        Block("o", "o", 77, 1, gate=True, force="o"),
        Block("tanh_c", "tanh(c_t)", 91, 1),
        Block("h_prev", "h_(t-1)", 6, 2),
        Block("h_t", "h_t", 91, 2),
    ),
    nodes=(Node("⊙", 20, 0), Node("+", 43, 0), Node("=", 72, 0), Node("⊙", 53.5, 1), Node("⊙", 84, 1)),
    wires=(
        # 1) the c line: carried, only scaled (⊙ f) and added to (+ i⊙g)
        Wire(11, 0, "mid", 28, 0, "mid", carried=True),
        Wire(38, 0, "mid", 48, 0, "mid", carried=True),
        Wire(58, 0, "mid", 86, 0, "mid", carried=True),
        # 2) the gates' outputs into their products (dashed when forced)
        Wire(20, 1, "top", 20, 0, "mid", force="f"),
        Wire(51, 1, "mid", 53.5, 1, "mid", force="i"),
        Wire(56, 1, "mid", 53.5, 1, "mid"),
        Wire(53.5, 1, "mid", 53, 0, "bottom"),
        Wire(91, 0, "bottom", 91, 1, "top"),
        Wire(82, 1, "mid", 84, 1, "mid", force="o"),
        Wire(86, 1, "mid", 84, 1, "mid"),
        Wire(84, 1, "mid", 84, 2, "mid"),
        Wire(84, 2, "mid", 86, 2, "mid"),
        # 3) h_(t-1) (with x_t) into every gate
        Wire(11, 2, "mid", 77, 2, "mid"),
        Wire(20, 2, "mid", 20, 1, "bottom"),
        Wire(46, 2, "mid", 46, 1, "bottom"),
        Wire(61, 2, "mid", 61, 1, "bottom"),
        Wire(77, 2, "mid", 77, 1, "bottom"),
    ),
    strip=("c", "h"),
    formulas=("c_t = f⊙c_(t-1) + i⊙g", "h_t = o⊙tanh(c_t)"),
)


def shown_run(result: LstmResult) -> LstmRun:
    """The run the picture shows: the forced one once a gate is overridden (the experiment, where the eye is)."""
    return result.forced if result.forced is not None else result.run


def picture_values(run: LstmRun) -> dict[str, torch.Tensor]:
    """Every column's (S, H) values, and the strip's states, from one run (natural or forced)."""
    f, i, g, o = (run.gates[n].value for n in ("f", "i", "g", "o"))  # each (S, H)
    return {
        "c_prev": run.c_prev,
        "fc": f * run.c_prev,  # (S, H) what the forget gate keeps
        "ig": i * g,  # (S, H) what the input gate writes
        "c_t": run.c,
        "f": f,
        "i": i,
        "g": g,
        "o": o,
        "tanh_c": torch.tanh(run.c),  # (S, H)
        "h_prev": run.h_prev,
        "h_t": run.h,
        "c": run.c,
        "h": run.h,
    }


def picture_data(
    result: LstmResult,
    config: LstmConfig,
    paths: Mapping[str, str],
    before: LstmResult | None = None,
) -> CellPicture:
    """The picture's frames: the shown run at every step, forced gates marked, the previous input's states."""
    run = shown_run(result)
    S = run.h.shape[0]
    forced = {g: forced_mask(g, S, config.forces) for g in FORCEABLE}
    old = picture_values(shown_run(before)) if before is not None else None
    return cell_picture(LAYOUT, picture_values(run), forced, result.labels, paths, old)
