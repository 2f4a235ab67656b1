"""The study note's §8 LSTM example, exactly as written there: the page's defaults reproduce it."""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from s2s_core.shapes.model import seeded


@dataclass(frozen=True)
class SeedExample:
    embedding: tuple[int, ...]  # (B, S, E) = (2, 3, 4)
    outputs: tuple[int, ...]  # (B, S, H) = (2, 3, 6)
    hidden: tuple[int, ...]  # (L·K, B, H) = (1, 2, 6)
    cell: tuple[int, ...]  # (1, 2, 6)
    last_output_equals_hidden: bool  # torch.allclose(outputs[:, -1], hidden[-1])
    outputs_tensor: torch.Tensor  # (2, 3, 6): lets a test compare with the page's default run


@torch.inference_mode()
def seed_example() -> SeedExample:
    """manual_seed(42), Embedding(12, 4), LSTM(4, 6, batch_first=True) on ids [[1, 2, 3], [4, 5, 6]]."""
    embedding, lstm = seeded(42, lambda: (nn.Embedding(12, 4), nn.LSTM(4, 6, batch_first=True)))
    ids = torch.tensor([[1, 2, 3], [4, 5, 6]], dtype=torch.long)  # (B, S) = (2, 3)
    vectors = embedding(ids)  # (2, 3, 4)
    outputs, (hidden, cell) = lstm(vectors)  # (2, 3, 6), (1, 2, 6), (1, 2, 6)
    return SeedExample(
        embedding=tuple(vectors.shape),
        outputs=tuple(outputs.shape),
        hidden=tuple(hidden.shape),
        cell=tuple(cell.shape),
        last_output_equals_hidden=bool(torch.allclose(outputs[:, -1], hidden[-1])),
        outputs_tensor=outputs,
    )
