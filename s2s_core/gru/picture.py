"""The GRU cell as the page's main picture: the shared cell diagram (s2s_core/gated/picture.py), no cell line.

h itself runs along the top: h_(t-1) ⊙ z → z⊙h_(t-1), + (1−z)⊙n → h_t. The gates z and r and the candidate n
sit in the middle row (r enters n: it scales how much of the old state the candidate sees), and h_(t-1) with
the step's word feeds them along the bottom. The products are columns of their own, so the picture writes
h_t = z⊙h_(t-1) + (1−z)⊙n with the step's numbers.
"""

from __future__ import annotations

from collections.abc import Mapping

import torch

from s2s_core.gated.forcing import forced_mask
from s2s_core.gated.picture import WIRE, Block, CellPicture, Layout, Node, Wire, cell_picture
from s2s_core.gru.compute import FORCEABLE, GruConfig, GruResult, GruRun

LAYOUT = Layout(
    blocks=(
        Block("h_prev", "h_(t-1)", 6, 0, state=True),
        Block("zh", "z⊙h_(t-1)", 33, 0),
        Block("zn", "(1−z)⊙n", 53, 0),
        Block("h_t", "h_t", 91, 0, state=True),
        Block("z", "z", 20, 1, gate=True, force="z", align="left"),
        Block("one_z", "1−z", 46, 1, gate=True, force="z"),
        Block("n", "n", 61, 1),
        Block("r", "r", 77, 1, gate=True, force="r"),
    ),
    nodes=(Node("⊙", 20, 0), Node("+", 43, 0), Node("=", 72, 0), Node("⊙", 53.5, 1), Node("1−", 33, 1)),
    wires=(
        # 1) h along the top: z of the old state stays, (1 − z) of the candidate comes in
        Wire(11, 0, "mid", 28, 0, "mid", carried=True),
        Wire(38, 0, "mid", 48, 0, "mid", carried=True),
        Wire(58, 0, "mid", 86, 0, "mid", carried=True),
        # 2) the gates into their products (dashed when forced); r goes into the candidate n
        Wire(20, 1, "top", 20, 0, "mid", force="z"),
        Wire(25, 1, "mid", 41, 1, "mid", force="z"),
        Wire(51, 1, "mid", 53.5, 1, "mid", force="z"),
        Wire(56, 1, "mid", 53.5, 1, "mid"),
        Wire(53.5, 1, "mid", 53, 0, "bottom"),
        Wire(72, 1, "mid", 66, 1, "mid", force="r"),
        # 3) h_(t-1) (with x_t) into z, n and r
        Wire(6, 0, "bottom", 6, 2, "mid"),
        Wire(6, 2, "mid", 77, 2, "mid"),
        Wire(20, 2, "mid", 20, 1, "bottom"),
        Wire(61, 2, "mid", 61, 1, "bottom"),
        Wire(77, 2, "mid", 77, 1, "bottom"),
    ),
    strip=("h",),
    formulas=("h_t = z⊙h_(t-1) + (1−z)⊙n", "n = tanh(W_in·x_t + b_in + r⊙(W_hn·h_(t-1) + b_hn))"),
    carried_colour=WIRE,  # teal is the LSTM's cell state; a GRU carries h alone (drawn in the text colour)
)


def shown_run(result: GruResult) -> GruRun:
    """The run the picture shows: the forced one once a gate is overridden."""
    return result.forced if result.forced is not None else result.run


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
    run = shown_run(result)
    S = run.h.shape[0]
    forced = {g: forced_mask(g, S, config.forces) for g in FORCEABLE}
    old = picture_values(shown_run(before)) if before is not None else None
    return cell_picture(LAYOUT, picture_values(run), forced, result.labels, paths, old)
