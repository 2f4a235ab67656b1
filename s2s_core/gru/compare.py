"""LSTM vs GRU (vs a plain RNN) at the learner's sizes: parameter counts read off the real modules."""

from __future__ import annotations

from dataclasses import dataclass

from torch import nn

CELLS = ("rnn", "gru", "lstm")
BLOCKS = {"rnn": 1, "gru": 3, "lstm": 4}  # weight blocks stacked in each module's (k·H, ·) parameters
STATES = {"rnn": ("h",), "gru": ("h",), "lstm": ("h", "c")}  # what each carries from step to step


@dataclass(frozen=True)
class ParamRow:
    """One parameter tensor of one module."""

    cell: str
    name: str  # e.g. "weight_ih_l0"
    shape: tuple[int, ...]
    numel: int


@dataclass(frozen=True)
class Comparison:
    """Counts for nn.RNN, nn.GRU and nn.LSTM with the same E and H."""

    E: int
    H: int
    rows: tuple[ParamRow, ...]
    totals: dict[str, int]  # cell -> sum(p.numel()) of the module
    formula: dict[str, int]  # cell -> k·(H·E + H·H + 2·H), the same number by the formula


def _module(cell: str, E: int, H: int) -> nn.Module:
    # The meta device allocates no memory and draws no random numbers: only the shapes are needed.
    return {"rnn": nn.RNN, "gru": nn.GRU, "lstm": nn.LSTM}[cell](E, H, device="meta")


def compare(E: int, H: int) -> Comparison:
    """Build each module and count what it holds."""
    rows: list[ParamRow] = []
    totals: dict[str, int] = {}
    for cell in CELLS:
        module = _module(cell, E, H)
        for name, p in module.named_parameters():
            rows.append(ParamRow(cell, name, tuple(p.shape), p.numel()))
        totals[cell] = sum(p.numel() for p in module.parameters())
    # Each block has an input matrix (H, E), a recurrent matrix (H, H) and two bias vectors (H,).
    formula = {cell: BLOCKS[cell] * (H * E + H * H + 2 * H) for cell in CELLS}
    return Comparison(E=E, H=H, rows=tuple(rows), totals=totals, formula=formula)
