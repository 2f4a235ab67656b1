"""One step of each recurrent cell, written with PyTorch's own equations and gate names (i, f, g, o / r, z, n).

Shapes: B batch (1 on the page), E input size, H hidden size. Weights follow nn.RNN / nn.LSTM / nn.GRU:
W_ih (G·H, E), W_hh (G·H, H), b_ih and b_hh (G·H,), with G = 1, 4, 3 gate blocks.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

GATES = {"rnn": 1, "lstm": 4, "gru": 3}  # blocks stacked in W_ih / W_hh, in PyTorch's order
GATE_NAMES = {"rnn": ("h",), "lstm": ("i", "f", "g", "o"), "gru": ("r", "z", "n")}  # what each block feeds


@dataclass(frozen=True)
class CellWeights:
    W_ih: torch.Tensor  # (G·H, E)
    W_hh: torch.Tensor  # (G·H, H)
    b_ih: torch.Tensor  # (G·H,)
    b_hh: torch.Tensor  # (G·H,)

    def params(self) -> list[torch.Tensor]:
        return [self.W_ih, self.W_hh, self.b_ih, self.b_hh]


def rnn_step(x: torch.Tensor, h: torch.Tensor, w: CellWeights, linear: bool = False) -> torch.Tensor:
    """h' = tanh(W_ih x + b_ih + W_hh h + b_hh); linear=True drops the tanh (to see pure ρ^k)."""
    pre = x @ w.W_ih.T + w.b_ih + h @ w.W_hh.T + w.b_hh  # (B, E) @ (E, H) + (B, H) @ (H, H) -> (B, H)
    return pre if linear else torch.tanh(pre)  # (B, H)


def lstm_step(
    x: torch.Tensor, h: torch.Tensor, cell: torch.Tensor, w: CellWeights
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """nn.LSTM's step -> (h, cell, f). ∂cell_t/∂cell_(t-1) = f: the forget gate decides how far gradient travels."""
    gates = x @ w.W_ih.T + w.b_ih + h @ w.W_hh.T + w.b_hh  # (B, 4H)
    i, f, g, o = gates.chunk(4, dim=-1)  # each (B, H), PyTorch's order
    i, f, g, o = torch.sigmoid(i), torch.sigmoid(f), torch.tanh(g), torch.sigmoid(o)
    cell = f * cell + i * g  # (B, H)
    h = o * torch.tanh(cell)  # (B, H)
    return h, cell, f


def gru_step(x: torch.Tensor, h: torch.Tensor, w: CellWeights) -> tuple[torch.Tensor, torch.Tensor]:
    """nn.GRU's step -> (h, z). h' = (1 - z)·n + z·h: z near 1 passes h (and its gradient) through unchanged."""
    gi = x @ w.W_ih.T + w.b_ih  # (B, 3H)
    gh = h @ w.W_hh.T + w.b_hh  # (B, 3H)
    i_r, i_z, i_n = gi.chunk(3, dim=-1)  # each (B, H)
    h_r, h_z, h_n = gh.chunk(3, dim=-1)  # each (B, H)
    r = torch.sigmoid(i_r + h_r)  # (B, H)
    z = torch.sigmoid(i_z + h_z)  # (B, H)
    n = torch.tanh(i_n + r * h_n)  # (B, H): the reset gate scales only the recurrent part
    return (1 - z) * n + z * h, z  # (B, H), (B, H)
