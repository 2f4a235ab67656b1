"""A gated module's stacked parameters: PyTorch's seeded init and the split into one block per gate.

Shapes: E input size, H hidden size, k blocks (4 for nn.LSTM: i, f, g, o; 3 for nn.GRU: r, z, n).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch
from torch import nn

from s2s_core.gated.inputs import init_parameters
from s2s_core.rng import isolated


@dataclass(frozen=True)
class GateWeights:
    """One gate's block of the module's stacked parameters."""

    W_x: torch.Tensor  # (H, E) rows of weight_ih_l0
    W_h: torch.Tensor  # (H, H) rows of weight_hh_l0
    b_x: torch.Tensor  # (H,) part of bias_ih_l0
    b_h: torch.Tensor  # (H,) part of bias_hh_l0


def seeded_module(module: type[nn.Module], E: int, H: int, seed: int) -> nn.Module:
    """module(E, H) (nn.LSTM or nn.GRU) in float64 with its default init drawn from a private, seeded generator."""
    with isolated():  # default init draws from the global generator: keep it out of other sessions' seeded builds
        cell = module(E, H, batch_first=True, dtype=torch.float64)
    params = list(cell.parameters())  # weight_ih_l0, weight_hh_l0, bias_ih_l0, bias_hh_l0
    with torch.no_grad():
        for p, value in zip(params, init_parameters([tuple(p.shape) for p in params], H, seed), strict=True):
            p.copy_(value)
    return cell


def split_blocks(cell: nn.Module, gates: Sequence[str]) -> dict[str, GateWeights]:
    """Cut the module's stacked (k·H, ·) parameters into one block per gate (rows k·H to (k+1)·H), PyTorch's order."""
    k = len(gates)
    W_x = cell.weight_ih_l0.detach().chunk(k, dim=0)  # k x (H, E)
    W_h = cell.weight_hh_l0.detach().chunk(k, dim=0)  # k x (H, H)
    b_x = cell.bias_ih_l0.detach().chunk(k)  # k x (H,)
    b_h = cell.bias_hh_l0.detach().chunk(k)  # k x (H,)
    return {name: GateWeights(W_x[j], W_h[j], b_x[j], b_h[j]) for j, name in enumerate(gates)}


def module_weights(module: type[nn.Module], E: int, H: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    """(weight_ih_l0 (k·H, E), weight_hh_l0 (k·H, H)) of the seeded module: they need only E, H and the seed, so
    the weights table still shows when the sentence or a table cell is bad."""
    cell = seeded_module(module, E, H, seed)
    return cell.weight_ih_l0.detach().clone(), cell.weight_hh_l0.detach().clone()
