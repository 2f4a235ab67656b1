"""The math of the GRU page: nn.GRU's own weights split into r, z, n and run by hand.

Shapes: S time steps, E input size, H hidden size; batch B = 1. PyTorch stacks the three blocks in
weight_ih_l0 (3H, E), weight_hh_l0 (3H, H), bias_ih_l0 and bias_hh_l0 (3H,) in the order r, z, n.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import torch
from torch import nn

from s2s_core.gated.blocks import GateWeights, module_weights, seeded_module, split_blocks
from s2s_core.gated.forcing import Force, apply_force, forces_from, parse_forces
from s2s_core.gated.inputs import SequenceSpec, input_vectors, parse_sequence
from s2s_core.gru.fields import GATED
from s2s_core.own_weights import OwnWeights

GATES = ("r", "z", "n")  # PyTorch's order of the three blocks
SIGMOIDS = ("r", "z")  # the gates proper (0…1); n is the tanh candidate
# The page's question: with the reset gate shut at every step (r = 0, the candidate ignores h_(t-1)), does
# the last h still depend on the old state? It does, through z.
RESET_SHUT = {"r": 0.0}
# "Freeze h": z = 1 copies h_(t-1) unchanged, from step FREEZE_FROM on; r stays free.
FREEZE = {"z": 1.0}
FREEZE_FROM = 2


@dataclass(frozen=True)
class GruConfig:
    """Everything the page's inputs decide (hashable, so it is a cache key)."""

    seq: SequenceSpec = SequenceSpec()
    H: int = 4
    forces: tuple[Force, ...] = ()
    own: OwnWeights | None = None  # a learner's uploaded weights (s2s_core/own_weights.py) in place of the seeded ones


@dataclass(frozen=True)
class GruTrace:
    """One block over all steps; row t is step t+1."""

    x_part: torch.Tensor  # (S, H) W_x·x_t + b_x
    h_part: torch.Tensor  # (S, H) W_h·h_(t-1) + b_h
    pre: torch.Tensor  # (S, H) r, z: x_part + h_part;  n: x_part + r⊙h_part
    value: torch.Tensor  # (S, H) σ(pre) for r, z; tanh(pre) for n; forced where overridden


@dataclass(frozen=True)
class GruRun:
    """One pass of the hand-written loop. No cell state: h is the only thing carried."""

    gates: Mapping[str, GruTrace]  # "r", "z", "n"
    h_prev: torch.Tensor  # (S, H) h_(t-1); row 0 is h_0 = 0
    h: torch.Tensor  # (S, H) h_t = (1 − z)⊙n + z⊙h_(t-1)


@dataclass(frozen=True)
class GruResult:
    """Every intermediate the page shows."""

    x: torch.Tensor  # (S, E)
    labels: tuple[str, ...]  # (S,)
    weight_ih: torch.Tensor  # (3H, E) nn.GRU's weight_ih_l0
    weight_hh: torch.Tensor  # (3H, H) weight_hh_l0
    weights: Mapping[str, GateWeights]  # the r, z, n blocks
    run: GruRun  # the hand loop without overrides: what the check compares
    torch_h_n: torch.Tensor  # (H,) nn.GRU's final h_n
    max_abs_diff: float  # max |hand - nn.GRU| over output and h_n
    forced: GruRun | None  # the hand loop with the overrides
    n_params: int  # sum(p.numel()) of the nn.GRU


def parse_config(
    source: object,
    sentence: object,
    vector_rows: list[list[object]] | None,
    E: object,
    H: object,
    seed: object,
    forces: Mapping[str, tuple[Sequence[object], object]] | None = None,
    own: OwnWeights | None = None,
) -> GruConfig:
    """Validate raw widget values with the page's fields (s2s_core/gru/fields.py); the first problem raises
    InputError naming its field."""
    if own is not None:  # the learner's file decides the sizes; the E and H fields do not apply
        if own.kind != "gru":
            raise ValueError(f"{own.kind} weights on the gru page")
        E, H = own.E, own.H
    seq = parse_sequence(GATED, source, sentence, vector_rows, E, seed)
    return GruConfig(seq=seq, H=GATED.H.check(H), forces=parse_forces(GATED, forces or {}, seq.S), own=own)


def shut_config(config: GruConfig) -> GruConfig:
    """The page's question's run: the reset gate shut (RESET_SHUT) at every step."""
    return replace(config, forces=forces_from(RESET_SHUT, config.seq.S))


def make_gru(E: int, H: int, seed: int) -> nn.GRU:
    """nn.GRU(E, H) in float64 with its default init drawn from a private, seeded generator."""
    return seeded_module(nn.GRU, E, H, seed)


def gru_weights(E: int, H: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    """nn.GRU's seeded (weight_ih_l0, weight_hh_l0) from the sizes alone (the weights table needs no sequence)."""
    return module_weights(nn.GRU, E, H, seed)


def split_gates(gru: nn.GRU) -> dict[str, GateWeights]:
    """Cut the module's stacked (3H, ·) parameters into the r, z, n blocks."""
    return split_blocks(gru, GATES)


def hand_gru(x: torch.Tensor, w: Mapping[str, GateWeights], forces: tuple[Force, ...] = ()) -> GruRun:
    """PyTorch's GRU formulation written out step by step, with optional gate overrides."""
    S, H = x.shape[0], w["r"].W_h.shape[0]
    h_t = torch.zeros(H, dtype=torch.float64)  # (H,) h_0 = 0
    parts: dict[str, list[list[torch.Tensor]]] = {g: [[], [], [], []] for g in GATES}
    h_prev_rows, h_rows = [], []
    for t in range(S):
        h_prev = h_t  # (H,)
        x_part = {n: w[n].W_x @ x[t] + w[n].b_x for n in GATES}  # each (H, E) @ (E,) -> (H,)
        h_part = {n: w[n].W_h @ h_prev + w[n].b_h for n in GATES}  # each (H, H) @ (H,) -> (H,)
        # 1) Reset and update gates: per-component ratios in (0, 1).
        r_pre = x_part["r"] + h_part["r"]  # (H,)
        r = apply_force("r", t, torch.sigmoid(r_pre), forces)  # (H,)
        z_pre = x_part["z"] + h_part["z"]  # (H,)
        z = apply_force("z", t, torch.sigmoid(z_pre), forces)  # (H,)
        # 2) The candidate: r scales how much of the old state (with its bias) enters it.
        n_pre = x_part["n"] + r * h_part["n"]  # (H,)
        n = torch.tanh(n_pre)  # (H,)
        # 3) z mixes: z of the old state stays, (1 − z) of the candidate comes in. No separate cell.
        h_t = (1 - z) * n + z * h_prev  # (H,)
        for name, pre, val in (("r", r_pre, r), ("z", z_pre, z), ("n", n_pre, n)):
            for store, v in zip(parts[name], (x_part[name], h_part[name], pre, val), strict=True):
                store.append(v)
        h_prev_rows.append(h_prev)
        h_rows.append(h_t)
    traces = {n: GruTrace(*(torch.stack(p) for p in parts[n])) for n in GATES}  # each field (S, H)
    return GruRun(gates=traces, h_prev=torch.stack(h_prev_rows), h=torch.stack(h_rows))  # (S, H), (S, H)


def gru_gates(config: GruConfig) -> GruResult:
    """Inputs -> nn.GRU -> its weights split by block -> the hand loop -> the check -> the override run."""
    # 1) Input vectors and PyTorch's own module: seeded weights, or the learner's own.
    x = input_vectors(config.seq)  # (S, E)
    gru = config.own.module if config.own is not None else make_gru(config.seq.E, config.H, config.seq.seed)
    return explain_gru(gru, x, config.seq.labels, config.forces)


def explain_gru(gru: nn.GRU, x: torch.Tensor, labels: Sequence[str], forces: tuple[Force, ...] = ()) -> GruResult:
    """Any single-layer, one-direction, batch_first float64 nn.GRU (the page's seeded one, or a learner's own:
    s2s_core/own_weights.py) on x (S, E): its weights split by block, the hand loop, the check, the override run."""
    # 2) Decompose and run by hand.
    w = split_gates(gru)
    run = hand_gru(x, w)
    # 3) The module on the same input.
    with torch.no_grad():
        out, h_n = gru(x.unsqueeze(0))  # (1, S, E) -> out (1, S, H), h_n (1, 1, H)
    out, h_n = out[0], h_n[0, 0]  # (S, H), (H,)
    diff = max(float((run.h - out).abs().max()), float((run.h[-1] - h_n).abs().max()))
    # 4) The override experiment.
    forced = hand_gru(x, w, forces) if forces else None
    return GruResult(
        x=x,
        labels=tuple(labels),
        weight_ih=gru.weight_ih_l0.detach().clone(),
        weight_hh=gru.weight_hh_l0.detach().clone(),
        weights=w,
        run=run,
        torch_h_n=h_n,
        max_abs_diff=diff,
        forced=forced,
        n_params=sum(p.numel() for p in gru.parameters()),
    )
