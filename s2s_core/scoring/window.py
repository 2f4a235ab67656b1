"""Global vs local attention: which source positions may be attended, and Luong's Gaussian for local-p.

Positions are 1-based (s1 … sS), as on the page. Shapes: B batch, S source positions.
"""

from __future__ import annotations

import torch

from s2s_core.errors import InputError


def check_center(center: int, S: int, field: str = "scoring.field.center") -> int:
    """A fixed window centre must be a real source position, or the window would hold no word."""
    if not 1 <= center <= S:
        raise InputError("scoring.error.window_outside", field, p=center, S=S)
    return center


def window_mask(S: int, center: torch.Tensor, half_width: int) -> torch.Tensor:
    """True for positions j with |j - round(p)| ≤ D.  center (B,) -> (B, S) bool.

    Rounding the centre first means a window always holds 2D+1 positions (fewer at the edges).
    """
    positions = torch.arange(1, S + 1, dtype=torch.float64)  # (S,)
    middle = torch.round(center).unsqueeze(-1)  # (B, 1)
    return (positions.unsqueeze(0) - middle).abs() <= half_width  # (1, S) - (B, 1) -> (B, S)


def gaussian(S: int, center: torch.Tensor, half_width: int) -> torch.Tensor:
    """Luong's local-p factor exp(-(j - p)² / (2σ²)) with σ = D/2.  center (B,) -> (B, S)."""
    sigma = half_width / 2
    positions = torch.arange(1, S + 1, dtype=torch.float64)  # (S,)
    return torch.exp(-((positions.unsqueeze(0) - center.unsqueeze(-1)) ** 2) / (2 * sigma**2))  # (B, S)
