"""The LSTM cell as the page's main picture: its layout on the shared cell diagram and the values it shows.

The c line runs along the top: c_(t-1) ⊙ f → f⊙c_(t-1), + i⊙g → c_t. The gates sit in the middle row,
h_(t-1) and the step's word feed them along the bottom, and h_t = o⊙tanh(c_t) comes out bottom right.
The products are columns of their own, so the picture writes c_t = f⊙c_(t-1) + i⊙g with the step's numbers.
"""

from __future__ import annotations

from collections.abc import Mapping

import torch

from s2s_core.gated.picture import (
    CARRIED_NODES,
    HALF,
    X_CAND,
    X_IN,
    X_KEEP,
    X_KEPT,
    X_LET,
    X_NEW,
    X_OLD,
    X_RIGHT,
    Block,
    CellPicture,
    Layout,
    Node,
    Wire,
    carried_line,
    feed_wires,
    keep_wire,
    let_in_wires,
    run_picture,
)
from s2s_core.lstm.compute import LstmConfig, LstmResult, LstmRun
from s2s_core.lstm.fields import FORCEABLE

X_OUT = 84  # the ⊙ of o and tanh(c_t), between o's column and tanh(c_t)'s

LAYOUT = Layout(
    blocks=(
        Block("c_prev", "c_(t-1)", X_OLD, 0, state=True),
        Block("fc", "f⊙c_(t-1)", X_KEPT, 0),
        Block("ig", "i⊙g", X_IN, 0),
        Block("c_t", "c_t", X_NEW, 0, state=True),
        Block("f", "f", X_KEEP, 1, gate=True, force="f", align="left"),
        Block("i", "i", X_LET, 1, gate=True, force="i"),
        Block("g", "g", X_CAND, 1),
        Block("o", "o", X_RIGHT, 1, gate=True, force="o"),
        Block("tanh_c", "tanh(c_t)", X_NEW, 1),
        Block("h_prev", "h_(t-1)", X_OLD, 2),
        Block("h_t", "h_t", X_NEW, 2),
    ),
    nodes=(*CARRIED_NODES, Node("⊙", X_OUT, 1)),
    wires=(
        # 1) the c line: carried, only scaled (⊙ f) and added to (+ i⊙g)
        *carried_line(),
        # 2) the gates' outputs into their products (dashed when forced); o⊙tanh(c_t) down into h_t
        keep_wire("f"),
        *let_in_wires("i"),
        Wire(X_NEW, 0, "bottom", X_NEW, 1, "top"),
        Wire(X_RIGHT + HALF, 1, "mid", X_OUT, 1, "mid", force="o"),
        Wire(X_NEW - HALF, 1, "mid", X_OUT, 1, "mid"),
        Wire(X_OUT, 1, "mid", X_OUT, 2, "mid", head=False),  # turns into h_t
        Wire(X_OUT, 2, "mid", X_NEW - HALF, 2, "mid"),
        # 3) h_(t-1) (with x_t) into every gate
        *feed_wires(X_OLD + HALF, (X_KEEP, X_LET, X_CAND, X_RIGHT)),
    ),
    strip=("c", "h"),
    formulas=("c_t = f⊙c_(t-1) + i⊙g", "h_t = o⊙tanh(c_t)"),
)


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
    return run_picture(LAYOUT, picture_values, result, config.forces, FORCEABLE, paths, before)
