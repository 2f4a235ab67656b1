"""Attention score functions as plain batched functions: one decoder query vs S encoder states -> (B, S).

Shapes: B batch, S source positions, H_d decoder state size, H_e encoder state size, A attention size.
Each function takes its weights as tensors (nn.Linear's layout: (out, in)), so a caller can pass
the weights of a trained module, and a test can pass the same numbers to a hand-written formula.
"""

from __future__ import annotations

import math

import torch

from s2s_core.errors import InputError


def check_same_size(query: torch.Tensor, keys: torch.Tensor, field: str = "scoring.field.dec_state") -> None:
    """dot and scaled dot compare s and h component by component, so both must have the same length."""
    if query.shape[-1] != keys.shape[-1]:
        raise InputError("scoring.error.dot_sizes", field, dec=int(query.shape[-1]), enc=int(keys.shape[-1]))


def dot_score(query: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
    """Luong dot: score(s, h_j) = sᵀ·h_j.  query (B, H), keys (B, S, H) -> (B, S)."""
    check_same_size(query, keys)
    return torch.bmm(keys, query.unsqueeze(-1)).squeeze(-1)  # (B, S, H) @ (B, H, 1) -> (B, S, 1) -> (B, S)


def scaled_dot_score(query: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
    """Scaled dot (Transformer): sᵀ·h_j / √H, so the scores' spread does not grow with H."""
    return dot_score(query, keys) / math.sqrt(keys.shape[-1])  # (B, S)


def general_score(query: torch.Tensor, keys: torch.Tensor, W: torch.Tensor) -> torch.Tensor:
    """Luong general: sᵀ·W·h_j.  query (B, H_d), keys (B, S, H_e), W (H_d, H_e) -> (B, S)."""
    projected = keys @ W.T  # (B, S, H_e) @ (H_e, H_d) -> (B, S, H_d): W·h_j for every position
    return torch.bmm(projected, query.unsqueeze(-1)).squeeze(-1)  # (B, S, H_d) @ (B, H_d, 1) -> (B, S)


def additive_score(
    query: torch.Tensor, keys: torch.Tensor, W_s: torch.Tensor, W_h: torch.Tensor, v: torch.Tensor
) -> torch.Tensor:
    """Bahdanau additive: vᵀ·tanh(W_s·s + W_h·h_j).  W_s (A, H_d), W_h (A, H_e), v (A,) -> (B, S).

    Both states are moved into the same A-sized space first, which is why H_d and H_e may differ.
    """
    q = query @ W_s.T  # (B, H_d) @ (H_d, A) -> (B, A)
    k = keys @ W_h.T  # (B, S, H_e) @ (H_e, A) -> (B, S, A)
    return torch.tanh(q.unsqueeze(1) + k) @ v  # (B, 1, A) + (B, S, A) -> (B, S, A) @ (A,) -> (B, S)


def concat_score(query: torch.Tensor, keys: torch.Tensor, W_c: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """Luong concat: vᵀ·tanh(W_c·[s; h_j]).  W_c (A, H_d + H_e), v (A,) -> (B, S)."""
    S = keys.shape[1]
    pairs = torch.cat([query.unsqueeze(1).expand(-1, S, -1), keys], dim=-1)  # (B, S, H_d + H_e)
    return torch.tanh(pairs @ W_c.T) @ v  # (B, S, A) @ (A,) -> (B, S)


def masked_softmax(scores: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
    """Softmax over source positions; mask (B, S) or (S,) True = may attend. Masked positions get exactly 0."""
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))  # (B, S): exp(-inf) = 0
    return torch.softmax(scores, dim=-1)  # (B, S)


def weighted_sum(weights: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
    """Context = Σ_j weight_j · value_j.  weights (B, S), values (B, S, H_e) -> (B, H_e)."""
    return torch.bmm(weights.unsqueeze(1), values).squeeze(1)  # (B, 1, S) @ (B, S, H_e) -> (B, H_e)
