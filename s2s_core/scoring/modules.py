"""The score functions as idiomatic PyTorch modules (nn.Linear projections, batched bmm).

These classes are also copied verbatim into the page's code expander (inspect.getsource), so the
script the learner runs is the code that computed the page. Keep them self-contained: torch, nn, math.
Shapes: B batch, S source positions, H_d decoder size, H_e encoder size, A attention size.
"""

from __future__ import annotations

import math

import torch
from torch import nn


def init_uniform(module: nn.Module, seed: int, scale: float = 1.0) -> nn.Module:
    """PyTorch's default range uniform(-1/√fan_in, 1/√fan_in) times scale, from a private generator.

    A private generator (not torch.manual_seed) keeps the weights reproducible even when several
    learners compute at once in one server process.
    """
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in module.parameters():
            bound = scale / math.sqrt(p.shape[-1])
            p.copy_(torch.rand(p.shape, generator=gen, dtype=torch.float64) * 2 * bound - bound)
    return module.double()


class DotScore(nn.Module):
    """sᵀ·h_j: no weights; the keys are the encoder states themselves."""

    def keys(self, enc: torch.Tensor) -> torch.Tensor:
        return enc  # (B, S, H_e): the same tensor as the values

    def query(self, s: torch.Tensor) -> torch.Tensor:
        return s  # (B, H_d)

    def forward(self, s: torch.Tensor, enc: torch.Tensor) -> torch.Tensor:
        return torch.bmm(self.keys(enc), self.query(s).unsqueeze(-1)).squeeze(-1)  # (B, S, H) @ (B, H, 1) -> (B, S)


class ScaledDotScore(DotScore):
    """sᵀ·h_j / √H: the Transformer's scaling, for comparison."""

    def forward(self, s: torch.Tensor, enc: torch.Tensor) -> torch.Tensor:
        return super().forward(s, enc) / math.sqrt(enc.shape[-1])  # (B, S)


class GeneralScore(nn.Module):
    """sᵀ·W·h_j: one learned matrix between the two states (keys = W·h_j)."""

    def __init__(self, dec_size: int, enc_size: int) -> None:
        super().__init__()
        self.W = nn.Linear(enc_size, dec_size, bias=False)  # weight (H_d, H_e)

    def keys(self, enc: torch.Tensor) -> torch.Tensor:
        return self.W(enc)  # (B, S, H_e) -> (B, S, H_d)

    def query(self, s: torch.Tensor) -> torch.Tensor:
        return s  # (B, H_d)

    def forward(self, s: torch.Tensor, enc: torch.Tensor) -> torch.Tensor:
        return torch.bmm(self.keys(enc), s.unsqueeze(-1)).squeeze(-1)  # (B, S, H_d) @ (B, H_d, 1) -> (B, S)


class AdditiveScore(nn.Module):
    """Bahdanau: vᵀ·tanh(W_s·s + W_h·h_j); s and h_j are first moved into one A-sized space."""

    def __init__(self, dec_size: int, enc_size: int, attn_size: int) -> None:
        super().__init__()
        self.W_s = nn.Linear(dec_size, attn_size, bias=False)  # weight (A, H_d)
        self.W_h = nn.Linear(enc_size, attn_size, bias=False)  # weight (A, H_e)
        self.v = nn.Linear(attn_size, 1, bias=False)  # weight (1, A)

    def keys(self, enc: torch.Tensor) -> torch.Tensor:
        return self.W_h(enc)  # (B, S, H_e) -> (B, S, A)

    def query(self, s: torch.Tensor) -> torch.Tensor:
        return self.W_s(s)  # (B, H_d) -> (B, A)

    def forward(self, s: torch.Tensor, enc: torch.Tensor) -> torch.Tensor:
        mixed = torch.tanh(self.query(s).unsqueeze(1) + self.keys(enc))  # (B, 1, A) + (B, S, A) -> (B, S, A)
        return self.v(mixed).squeeze(-1)  # (B, S, 1) -> (B, S)


class ConcatScore(nn.Module):
    """Luong concat: vᵀ·tanh(W_c·[s; h_j]); W_c = [W_cs | W_ch] splits into a query part and a key part."""

    def __init__(self, dec_size: int, enc_size: int, attn_size: int) -> None:
        super().__init__()
        self.dec_size = dec_size
        self.W_c = nn.Linear(dec_size + enc_size, attn_size, bias=False)  # weight (A, H_d + H_e)
        self.v = nn.Linear(attn_size, 1, bias=False)  # weight (1, A)

    def keys(self, enc: torch.Tensor) -> torch.Tensor:
        return enc @ self.W_c.weight[:, self.dec_size :].T  # (B, S, H_e) @ (H_e, A) -> (B, S, A)

    def query(self, s: torch.Tensor) -> torch.Tensor:
        return s @ self.W_c.weight[:, : self.dec_size].T  # (B, H_d) @ (H_d, A) -> (B, A)

    def forward(self, s: torch.Tensor, enc: torch.Tensor) -> torch.Tensor:
        S = enc.shape[1]
        pairs = torch.cat([s.unsqueeze(1).expand(-1, S, -1), enc], dim=-1)  # (B, S, H_d + H_e)
        return self.v(torch.tanh(self.W_c(pairs))).squeeze(-1)  # (B, S, A) -> (B, S, 1) -> (B, S)


class LocalPosition(nn.Module):
    """Luong's local-p: the decoder state predicts where to look, p = S·sigmoid(v_pᵀ·tanh(W_p·s)), in (0, S).

    As in the paper (eq. 9); positions are numbered 1 … S, so p below 1 or between two words is a real
    place on the sentence, and the window [p - D, p + D] holds the positions that fall inside it.
    """

    def __init__(self, dec_size: int, attn_size: int) -> None:
        super().__init__()
        self.W_p = nn.Linear(dec_size, attn_size, bias=False)  # weight (A, H_d)
        self.v_p = nn.Linear(attn_size, 1, bias=False)  # weight (1, A)

    def forward(self, s: torch.Tensor, S: int) -> torch.Tensor:
        return S * self.share(s)  # (B,)

    def share(self, s: torch.Tensor) -> torch.Tensor:
        """sigmoid(v_pᵀ·tanh(W_p·s)): how far along the sentence p lands, from 0 to 1."""
        return torch.sigmoid(self.v_p(torch.tanh(self.W_p(s)))).squeeze(-1)  # (B, H_d) -> (B, A) -> (B, 1) -> (B,)


def build_scorers(dec_size: int, enc_size: int, attn_size: int, seed: int, scale: float = 1.0) -> dict[str, nn.Module]:
    """Every score function with seeded (untrained) weights; each module gets its own seed offset."""
    return {
        "additive": init_uniform(AdditiveScore(dec_size, enc_size, attn_size), seed, scale),
        "dot": DotScore().double(),
        "general": init_uniform(GeneralScore(dec_size, enc_size), seed + 1, scale),
        "concat": init_uniform(ConcatScore(dec_size, enc_size, attn_size), seed + 2, scale),
        "scaled_dot": ScaledDotScore().double(),
    }
