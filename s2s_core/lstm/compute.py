"""The math of the LSTM-gates page: nn.LSTM's own weights split into i, f, g, o and run by hand.

Shapes: S time steps, E input size, H hidden size; batch B = 1. PyTorch stacks the four gates in
weight_ih_l0 (4H, E), weight_hh_l0 (4H, H), bias_ih_l0 and bias_hh_l0 (4H,) in the order i, f, g, o.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import torch
from torch import nn

from s2s_core.gated.blocks import GateWeights, module_weights, seeded_module, split_blocks
from s2s_core.gated.forcing import Force, apply_force, forces_from, parse_forces
from s2s_core.gated.inputs import SequenceSpec, input_vectors, parse_sequence
from s2s_core.lstm.fields import GATED
from s2s_core.own_weights import OwnWeights

GATES = ("i", "f", "g", "o")  # PyTorch's order of the four blocks
SIGMOIDS = ("i", "f", "o")  # the gates proper (0…1); g is the tanh candidate
# "Freeze the cell": keep all of c (f = 1) and write nothing (i = 0) from step FREEZE_FROM on; o stays free,
# which is the page's question (does h still move once c cannot?).
FREEZE = {"i": 0.0, "f": 1.0}
FREEZE_FROM = 2


@dataclass(frozen=True)
class LstmConfig:
    """Everything the page's inputs decide (hashable, so it is a cache key)."""

    seq: SequenceSpec = SequenceSpec()
    H: int = 4
    forces: tuple[Force, ...] = ()
    own: OwnWeights | None = None  # a learner's uploaded weights (s2s_core/own_weights.py) in place of the seeded ones


@dataclass(frozen=True)
class GateTrace:
    """One gate over all steps: the terms inside its activation and its value; row t is step t+1."""

    x_part: torch.Tensor  # (S, H) W_x·x_t
    h_part: torch.Tensor  # (S, H) W_h·h_(t-1)
    pre: torch.Tensor  # (S, H) W_x·x_t + b_x + W_h·h_(t-1) + b_h
    value: torch.Tensor  # (S, H) σ(pre) for i, f, o; tanh(pre) for g; forced where overridden


@dataclass(frozen=True)
class LstmRun:
    """One pass of the hand-written loop."""

    gates: Mapping[str, GateTrace]  # "i", "f", "g", "o"
    h_prev: torch.Tensor  # (S, H) h_(t-1); row 0 is h_0 = 0
    c_prev: torch.Tensor  # (S, H) c_(t-1); row 0 is c_0 = 0
    c: torch.Tensor  # (S, H) c_t = f⊙c_(t-1) + i⊙g
    h: torch.Tensor  # (S, H) h_t = o⊙tanh(c_t)


@dataclass(frozen=True)
class LstmResult:
    """Every intermediate the page shows."""

    x: torch.Tensor  # (S, E) the input vectors
    labels: tuple[str, ...]  # (S,) step labels
    weight_ih: torch.Tensor  # (4H, E) nn.LSTM's weight_ih_l0, as the module holds it
    weight_hh: torch.Tensor  # (4H, H) weight_hh_l0
    weights: Mapping[str, GateWeights]  # the four blocks of those matrices
    run: LstmRun  # the hand loop, no overrides: this is what the check compares
    torch_h_n: torch.Tensor  # (H,) nn.LSTM's final h_n
    torch_c_n: torch.Tensor  # (H,) nn.LSTM's final c_n
    max_abs_diff: float  # max |hand - nn.LSTM| over output, h_n and c_n
    forced: LstmRun | None  # the hand loop with the overrides, None when nothing is forced
    n_params: int  # sum(p.numel()) of the nn.LSTM


def parse_config(
    source: object,
    sentence: object,
    vector_rows: list[list[object]] | None,
    E: object,
    H: object,
    seed: object,
    forces: Mapping[str, tuple[Sequence[object], object]] | None = None,
    own: OwnWeights | None = None,
) -> LstmConfig:
    """Validate raw widget values with the page's fields (s2s_core/lstm/fields.py); the first problem raises
    InputError naming its field."""
    if own is not None:  # the learner's file decides the sizes; the E and H fields do not apply
        if own.kind != "lstm":
            raise ValueError(f"{own.kind} weights on the lstm page")
        E, H = own.E, own.H
    seq = parse_sequence(GATED, source, sentence, vector_rows, E, seed)
    return LstmConfig(seq=seq, H=GATED.H.check(H), forces=parse_forces(GATED, forces or {}, seq.S), own=own)


def frozen_config(config: LstmConfig) -> LstmConfig | None:
    """The page's question's run: the cell frozen (FREEZE) from step FREEZE_FROM on; None when too short."""
    if config.seq.S < FREEZE_FROM:
        return None
    return replace(config, forces=forces_from(FREEZE, config.seq.S, FREEZE_FROM))


def make_lstm(E: int, H: int, seed: int) -> nn.LSTM:
    """nn.LSTM(E, H) in float64 with its default init drawn from a private, seeded generator."""
    return seeded_module(nn.LSTM, E, H, seed)


def lstm_weights(E: int, H: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    """nn.LSTM's seeded (weight_ih_l0, weight_hh_l0) from the sizes alone (the weights table needs no sequence)."""
    return module_weights(nn.LSTM, E, H, seed)


def split_gates(lstm: nn.LSTM) -> dict[str, GateWeights]:
    """Cut the module's stacked (4H, ·) parameters into the i, f, g, o blocks (rows k·H to (k+1)·H)."""
    return split_blocks(lstm, GATES)


def hand_lstm(x: torch.Tensor, w: Mapping[str, GateWeights], forces: tuple[Force, ...] = ()) -> LstmRun:
    """The loop a learner writes by hand, one step at a time, with optional gate overrides."""
    S, H = x.shape[0], w["i"].W_h.shape[0]
    h_t = torch.zeros(H, dtype=torch.float64)  # (H,) h_0 = 0
    c_t = torch.zeros(H, dtype=torch.float64)  # (H,) c_0 = 0
    parts: dict[str, list[list[torch.Tensor]]] = {g: [[], [], [], []] for g in GATES}
    rows: list[tuple[torch.Tensor, ...]] = []
    for t in range(S):
        h_prev, c_prev = h_t, c_t  # (H,), (H,)
        value = {}
        for name in GATES:
            gw = w[name]
            x_part = gw.W_x @ x[t]  # (H, E) @ (E,) -> (H,)
            h_part = gw.W_h @ h_prev  # (H, H) @ (H,) -> (H,)
            pre = x_part + gw.b_x + h_part + gw.b_h  # (H,)
            # 1) Gates squash to (0, 1): a per-component pass-through ratio. The candidate g to (-1, 1).
            act = torch.tanh(pre) if name == "g" else torch.sigmoid(pre)  # (H,)
            # 2) An override replaces the value the rest of the step uses (the experiment on the page).
            value[name] = apply_force(name, t, act, forces)  # (H,)
            for store, v in zip(parts[name], (x_part, h_part, pre, value[name]), strict=True):
                store.append(v)
        i, f, g, o = (value[n] for n in GATES)  # each (H,)
        # 3) The cell keeps f of the old content and writes i of the candidate: addition, not overwrite.
        c_t = f * c_prev + i * g  # (H,)
        # 4) h exposes o of the squashed cell: it is the step's output and the next step's input.
        h_t = o * torch.tanh(c_t)  # (H,)
        rows.append((h_prev, c_prev, c_t, h_t))
    h_prev_s, c_prev_s, c_s, h_s = (torch.stack(col) for col in zip(*rows, strict=True))  # each (S, H)
    traces = {n: GateTrace(*(torch.stack(p) for p in parts[n])) for n in GATES}  # each field (S, H)
    return LstmRun(gates=traces, h_prev=h_prev_s, c_prev=c_prev_s, c=c_s, h=h_s)


def lstm_gates(config: LstmConfig) -> LstmResult:
    """Inputs -> nn.LSTM -> its weights split by gate -> the hand loop -> the check -> the override run."""
    # 1) Input vectors and PyTorch's own module: seeded weights, or the learner's own.
    x = input_vectors(config.seq)  # (S, E)
    lstm = config.own.module if config.own is not None else make_lstm(config.seq.E, config.H, config.seq.seed)
    return explain_lstm(lstm, x, config.seq.labels, config.forces)


def explain_lstm(lstm: nn.LSTM, x: torch.Tensor, labels: Sequence[str], forces: tuple[Force, ...] = ()) -> LstmResult:
    """Any single-layer, one-direction, batch_first float64 nn.LSTM (the page's seeded one, or a learner's own:
    s2s_core/own_weights.py) on x (S, E): its weights split by gate, the hand loop, the check, the override run."""
    # 2) Decompose the module's parameters and run the loop by hand.
    w = split_gates(lstm)
    run = hand_lstm(x, w)
    # 3) The module itself on the same input: the hand loop must match output, h_n and c_n.
    with torch.no_grad():
        out, (h_n, c_n) = lstm(x.unsqueeze(0))  # (1, S, E) -> out (1, S, H), h_n and c_n (1, 1, H)
    out, h_n, c_n = out[0], h_n[0, 0], c_n[0, 0]  # (S, H), (H,), (H,)
    diff = max(
        float((run.h - out).abs().max()), float((run.h[-1] - h_n).abs().max()), float((run.c[-1] - c_n).abs().max())
    )
    # 4) The override experiment: same weights and inputs, some gates forced.
    forced = hand_lstm(x, w, forces) if forces else None
    return LstmResult(
        x=x,
        labels=tuple(labels),
        weight_ih=lstm.weight_ih_l0.detach().clone(),
        weight_hh=lstm.weight_hh_l0.detach().clone(),
        weights=w,
        run=run,
        torch_h_n=h_n,
        torch_c_n=c_n,
        max_abs_diff=diff,
        forced=forced,
        n_params=sum(p.numel() for p in lstm.parameters()),
    )
