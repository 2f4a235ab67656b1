"""The GRU cell as the page's main picture: the shared cell diagram (s2s_core/gated/picture.py), no cell line.

h itself runs along the top: h_(t-1) ⊙ z → z⊙h_(t-1), + (1−z)⊙n → h_t. The gates z and r and the candidate n
sit in the middle row (r enters n: it scales how much of the old state the candidate sees), and h_(t-1) with
the step's word feeds them along the bottom. The products are columns of their own, so the picture writes
h_t = z⊙h_(t-1) + (1−z)⊙n with the step's numbers.
"""

from __future__ import annotations

from collections.abc import Mapping

import torch

from s2s_core.gated.picture import (
    CARRIED_NODES,
    HALF,
    WIRE,
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
from s2s_core.gru.compute import GruConfig, GruResult, GruRun
from s2s_core.gru.fields import FORCEABLE

LAYOUT = Layout(
    blocks=(
        Block("h_prev", "h_(t-1)", X_OLD, 0, state=True),
        Block("zh", "z⊙h_(t-1)", X_KEPT, 0),
        Block("zn", "(1−z)⊙n", X_IN, 0),
        Block("h_t", "h_t", X_NEW, 0, state=True),
        Block("z", "z", X_KEEP, 1, gate=True, force="z", align="left"),
        Block("one_z", "1−z", X_LET, 1, gate=True, force="z"),
        Block("n", "n", X_CAND, 1),
        Block("r", "r", X_RIGHT, 1, gate=True, force="r"),
    ),
    nodes=(*CARRIED_NODES, Node("1−", X_KEPT, 1)),  # 1− between z and 1−z (under the kept column)
    wires=(
        # 1) h along the top: z of the old state stays, (1 − z) of the candidate comes in
        *carried_line(),
        # 2) the gates into their products (dashed when forced): z through the 1− node into 1−z; r into n
        keep_wire("z"),
        Wire(X_KEEP + HALF, 1, "mid", X_LET - HALF, 1, "mid", force="z"),
        *let_in_wires("z"),
        Wire(X_RIGHT - HALF, 1, "mid", X_CAND + HALF, 1, "mid", force="r"),
        # 3) h_(t-1) (with x_t) down from its column, then into z, n and r
        Wire(X_OLD, 0, "bottom", X_OLD, 2, "mid", head=False),  # joins the feeding line
        *feed_wires(X_OLD, (X_KEEP, X_CAND, X_RIGHT)),
    ),
    strip=("h",),
    formulas=("h_t = z⊙h_(t-1) + (1−z)⊙n", "n = tanh(W_in·x_t + b_in + r⊙(W_hn·h_(t-1) + b_hn))"),
    carried_colour=WIRE,  # teal is the LSTM's cell state; a GRU carries h alone (drawn in the text colour)
)


def picture_values(run: GruRun) -> dict[str, torch.Tensor]:
    """Every column's (S, H) values, and the strip's state, from one run (natural or forced)."""
    r, z, n = (run.gates[g].value for g in ("r", "z", "n"))  # each (S, H)
    return {
        "h_prev": run.h_prev,
        "zh": z * run.h_prev,  # (S, H) what the update gate keeps of the old state
        "zn": (1 - z) * n,  # (S, H) what comes in from the candidate
        "h_t": run.h,
        "z": z,
        "one_z": 1 - z,  # (S, H)
        "n": n,
        "r": r,
        "h": run.h,
    }


def picture_data(
    result: GruResult, config: GruConfig, paths: Mapping[str, str], before: GruResult | None = None
) -> CellPicture:
    """The picture's frames: the shown run at every step, forced gates marked, the previous input's h."""
    return run_picture(LAYOUT, picture_values, result, config.forces, FORCEABLE, paths, before)
