"""One attention read: score every source position, restrict to a window, softmax, weighted sum.

Shapes: B batch, S source positions, H_d decoder size, H_e encoder size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import torch
from torch import nn

from s2s_core.scoring.functions import masked_softmax, weighted_sum
from s2s_core.scoring.window import gaussian, local_m_center, window_mask

Window = Literal["global", "local_m", "local_p"]


@dataclass(frozen=True)
class Read:
    """Every intermediate of one attention read."""

    query: torch.Tensor  # (B, ·) the decoder state as the score function sees it (projected or not)
    keys: torch.Tensor  # (B, S, ·) what is compared with the query: transformed encoder states
    values: torch.Tensor  # (B, S, H_e) what is summed: the original encoder states
    scores: torch.Tensor  # (B, S) raw scores
    mask: torch.Tensor  # (B, S) True = inside the window (all True for global attention)
    masked_scores: torch.Tensor  # (B, S) -inf outside the window
    align: torch.Tensor  # (B, S) softmax over the window: sums to 1
    gauss: torch.Tensor | None  # (B, S) local-p only: exp(-(j - p)² / 2σ²)
    weights: torch.Tensor  # (B, S) align, times gauss for local-p (then the sum is below 1)
    context: torch.Tensor  # (B, H_e) Σ_j weights_j · values_j
    center: torch.Tensor | None  # (B,) the window's centre p: the step t (local-m) or predicted (local-p)


def attend(
    scorer: nn.Module,
    s: torch.Tensor,
    enc: torch.Tensor,
    window: Window = "global",
    *,
    t: int = 1,
    half_width: int = 1,
    locator: nn.Module | None = None,
) -> Read:
    """s (B, H_d), enc (B, S, H_e) -> Read. local_m: p = t, the decoder step (clipped to S); local_p: locator(s)."""
    B, S, _ = enc.shape
    # 1) Scores: compare the query with every key.
    scores = scorer(s, enc)  # (B, S)
    # 2) Which positions may be read: all (global), or those in [p - D, p + D] (local).
    p: torch.Tensor | None = None
    if window == "global":
        mask = torch.ones(B, S, dtype=torch.bool)  # (B, S)
    else:
        if window == "local_m":
            p = torch.full((B,), float(local_m_center(t, S)), dtype=torch.float64)  # (B,) p_t = t
        else:
            p = locator(s, S)  # (B,) p_t = S·sigmoid(v_pᵀ·tanh(W_p·s))
        mask = window_mask(S, p, half_width)  # (B, S)
    masked_scores = scores.masked_fill(~mask, float("-inf"))  # (B, S)
    # 3) Softmax over the allowed positions only.
    align = masked_softmax(scores, mask)  # (B, S)
    # 4) local-p favours positions near p; Luong multiplies after the softmax and does not renormalise.
    gauss = gaussian(S, p, half_width) if window == "local_p" else None  # (B, S)
    weights = align * gauss if gauss is not None else align  # (B, S)
    # 5) The context sums the ORIGINAL encoder states (values), not the transformed keys.
    context = weighted_sum(weights, enc)  # (B, H_e)
    return Read(
        query=scorer.query(s),
        keys=scorer.keys(enc),
        values=enc,
        scores=scores,
        mask=mask,
        masked_scores=masked_scores,
        align=align,
        gauss=gauss,
        weights=weights,
        context=context,
        center=p,
    )
