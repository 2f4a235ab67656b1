"""Seeded construction of the embedding + recurrent layer, identical to the generated script.

Shapes: B batch, S steps, E embedding, H hidden, P proj_size, L num_layers, K num_directions.
"""

from __future__ import annotations

from typing import Literal

import torch
from torch import nn

from s2s_core.rng import seeded  # manual_seed without touching other sessions' streams

Cell = Literal["RNN", "LSTM", "GRU"]
VOCAB_SIZE = 12  # the study note's nn.Embedding(12, 4): ids 1..11 are tokens, 0 is PAD


def make_layer(
    cell: str,
    E: int,
    H: int,
    *,
    num_layers: int = 1,
    bidirectional: bool = False,
    batch_first: bool = True,
    proj_size: int = 0,
) -> nn.RNNBase:
    """nn.RNN / nn.LSTM / nn.GRU; proj_size is passed only to LSTM (the others reject it)."""
    cls = {"RNN": nn.RNN, "LSTM": nn.LSTM, "GRU": nn.GRU}[cell]
    extra = {"proj_size": proj_size} if cell == "LSTM" and proj_size > 0 else {}
    return cls(E, H, num_layers=num_layers, batch_first=batch_first, bidirectional=bidirectional, **extra)


def seeded_modules(
    seed: int, cell: str, E: int, H: int, *, num_layers: int, bidirectional: bool, batch_first: bool, proj_size: int
) -> tuple[nn.Embedding, nn.RNNBase]:
    """manual_seed(seed) -> Embedding(12, E, padding_idx=0) -> the recurrent layer, in that order.

    padding_idx=0 zeroes the PAD row after the same random draw, so the weights equal the
    study note's un-padded nn.Embedding(12, 4) for every real token.
    """

    def build() -> tuple[nn.Embedding, nn.RNNBase]:
        embedding = nn.Embedding(VOCAB_SIZE, E, padding_idx=0)
        layer = make_layer(
            cell, E, H, num_layers=num_layers, bidirectional=bidirectional, batch_first=batch_first, proj_size=proj_size
        )
        return embedding.eval(), layer.eval()

    return seeded(seed, build)


def token_ids(B: int, S: int, lengths: tuple[int, ...]) -> torch.Tensor:
    """ids[b, s] = 1, 2, 3, ... row by row (cycling through 1..11), PAD (0) after each true length."""
    ids = torch.zeros(B, S, dtype=torch.long)  # (B, S)
    for b in range(B):
        for s in range(lengths[b]):
            ids[b, s] = 1 + (b * S + s) % (VOCAB_SIZE - 1)
    return ids


def run_layer(layer: nn.RNNBase, x, hx=None):
    """One forward call returning (output, h_n, c_n or None) for any cell type."""
    output, state = layer(x) if hx is None else layer(x, hx)
    if isinstance(state, tuple):
        return output, state[0], state[1]
    return output, state, None
