"""The seed note's §8 script, checked fact by fact: LSTM shapes, last output == hidden, attention contexts."""

from __future__ import annotations

import torch
from torch import nn

from s2s_core.attention import AttentionConfig, attention_weighting


def test_seed_lstm_shapes_and_last_output():
    torch.manual_seed(42)
    ids = torch.tensor([[1, 2, 3], [4, 5, 6]], dtype=torch.long)  # (B, S) = (2, 3)
    vectors = nn.Embedding(12, 4)(ids)  # (B, S, E) = (2, 3, 4)
    outputs, (hidden, cell) = nn.LSTM(4, 6, batch_first=True)(vectors)
    assert tuple(vectors.shape) == (2, 3, 4)
    assert tuple(outputs.shape) == (2, 3, 6)  # (B, S, H)
    assert tuple(hidden.shape) == (1, 2, 6) and tuple(cell.shape) == (1, 2, 6)  # (L*K, B, H)
    assert torch.allclose(outputs[:, -1], hidden[-1])


def test_seed_attention_contexts():
    result = attention_weighting(AttentionConfig())
    assert [[round(x, 4) for x in row] for row in result.contexts.tolist()] == [[3.4, 2.2], [1.8, 1.4]]
    assert [round(x, 4) for x in result.weight_sums.tolist()] == [1.0, 1.0]
