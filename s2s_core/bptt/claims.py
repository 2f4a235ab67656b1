"""The backprop-through-time page's claims for lessons (s2s_core/lessons/claims.py): computed on a step's link state.

`config_of` reads a state as the page reads its controls (pages/bptt.py `read_inputs`): cell, T, ρ, the linear
switch, the keep gate's bias, truncation and the seed through `parse_config`, and max_norm through
`parse_max_norm`. The numbers are quoted as the picture writes them (s2s_core/bptt/picture.py: `short` at the
milestone steps h_1 … h_T and on the two clipping bars).
"""

from __future__ import annotations

import math
from functools import lru_cache

from s2s_core.bptt import fields
from s2s_core.bptt.compute import (
    BpttConfig,
    BpttResult,
    backprop_through_time,
    band,
    clip,
    parse_config,
    parse_max_norm,
)
from s2s_core.bptt.frames import CELL_NAMES
from s2s_core.fmt import num, sci, short
from s2s_core.lessons.claims import ClaimResult, LinkState, claim

COS_TOL = 1e-9  # clipping multiplies every gradient by one factor: the direction is the same to float rounding


def config_of(state: LinkState) -> tuple[BpttConfig, float]:
    config = parse_config(
        state.value(fields.T),
        state.value(fields.RHO),
        state.value(fields.CELL, decode=str.lower),  # an older link named the cell as shown ("LSTM"), as the page reads
        state.value(fields.LINEAR),
        state.value(fields.GATE),
        state.value(fields.TRUNCATE),
        state.value(fields.SEED),
    )
    return config, parse_max_norm(state.value(fields.CLIP))


@lru_cache(maxsize=16)
def _result(config: BpttConfig) -> BpttResult:
    """One autograd run of the three cells per config (about a second): a lesson's claims and its question read
    the same state several times. The result is only read, never changed."""
    return backprop_through_time(config)


@claim("bptt:reach")
def reach(state: LinkState, band_is: str) -> ClaimResult:
    """How the chosen cell's gradient at the first step compares with the last step's: ‖∂L/∂h_1‖ / ‖∂L/∂h_T‖ is
    in `band_is` ("vanish" below 1/100, "explode" above 100, else "same"); the answer is the live band."""
    config, _ = config_of(state)
    grad = _result(config).by_cell(config.cell)
    k = config.T - 1  # steps back from h_T to h_1
    ratio = grad.ratio(k, full=False)
    got = band(ratio)
    values = {
        "cell": CELL_NAMES[config.cell],
        "T": str(config.T),
        "rho": f"{config.rho:g}",
        "first": short(grad.norms[k]),
        "last": short(grad.norms[0]),
        "ratio": sci(ratio),
        "per_step": num(grad.per_step(k)),
    }
    return ClaimResult(got == band_is, values, shown=(values["first"], values["last"]), answer=got)


@claim("bptt:clip")
def clipping(state: LinkState, active: bool) -> ClaimResult:
    """clip_grad_norm_ on the chosen cell rescales its parameter gradients (`active`: their total norm was over
    max_norm) by one factor: the direction (cosine 1) and a far step's share of ∂L/∂W_hh are unchanged."""
    config, max_norm = config_of(state)
    clipped = clip(_result(config).by_cell(config.cell), max_norm)
    same_share = math.isclose(clipped.far_before, clipped.far_after, rel_tol=1e-9, abs_tol=0.0)
    holds = (clipped.scale < 1) == active and abs(clipped.cosine - 1) <= COS_TOL and same_share
    values = {
        "cell": CELL_NAMES[config.cell],
        "max_norm": f"{max_norm:g}",
        "before": short(clipped.total_before),
        "after": short(clipped.total_after),
        "scale": num(clipped.scale),
        "t": str(config.T - clipped.far_back),
        "far_before": sci(clipped.far_before),
        "far_after": sci(clipped.far_after),
    }
    return ClaimResult(holds, values, shown=(values["before"], values["after"]))
