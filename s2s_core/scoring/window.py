"""Global vs local attention (Luong et al. 2015, §3.2): which source positions may be read, where the window
sits, and the Gaussian local-p multiplies in.

Positions are 1-based (s1 … sS), as on the page. Shapes: B batch, S source positions.
"""

from __future__ import annotations

import math

import torch


def local_m_center(step: int, S: int) -> int:
    """Luong's local-m (monotonic alignment): p_t = t, the decoder step, clipped to the last source position."""
    return min(step, S)


def window_mask(S: int, center: torch.Tensor, half_width: int) -> torch.Tensor:
    """True for positions j inside Luong's window [p - D, p + D], i.e. |j - p| ≤ D.  center (B,) -> (B, S) bool.

    A whole-number p (local-m) gives 2D+1 positions, a fractional one (local-p) 2D; fewer at the sentence's ends.
    """
    positions = torch.arange(1, S + 1, dtype=torch.float64)  # (S,)
    return (positions.unsqueeze(0) - center.unsqueeze(-1)).abs() <= half_width  # (1, S) - (B, 1) -> (B, S)


def gaussian(S: int, center: torch.Tensor, half_width: int) -> torch.Tensor:
    """Luong's local-p factor exp(-(j - p)² / (2σ²)) with σ = D/2.  center (B,) -> (B, S)."""
    sigma = half_width / 2
    positions = torch.arange(1, S + 1, dtype=torch.float64)  # (S,)
    return torch.exp(-((positions.unsqueeze(0) - center.unsqueeze(-1)) ** 2) / (2 * sigma**2))  # (B, S)


def window_positions(center: float, half_width: int) -> range:
    """The whole numbers j in [p - D, p + D], as if the sentence were long enough to hold them all."""
    return range(math.ceil(center - half_width), math.floor(center + half_width) + 1)


def flat_gaussian_sum(center: float, half_width: int, positions: range | list[int]) -> float:
    """What local-p's weights add up to when every score is equal: the softmax gives each of the n positions 1/n,
    so the sum is the Gaussian's mean over them. σ = D/2 grows with the window, so its ends always get
    exp(-2) ≈ 0.14 and, on a sentence long enough for the whole window, the mean only approaches about 0.6."""
    sigma = half_width / 2
    values = [math.exp(-((j - center) ** 2) / (2 * sigma**2)) for j in positions]
    return sum(values) / len(values)
