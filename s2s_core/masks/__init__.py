"""Padding & masks: PAD left out of the loss (ignore_index) vs PAD masked out of attention."""

from s2s_core.masks.compute import (
    MasksConfig,
    MasksResult,
    compute_masks,
    default_config,
    default_pairs,
    parse_config,
    screen_pairs,
)

__all__ = [
    "MasksConfig",
    "MasksResult",
    "compute_masks",
    "default_config",
    "default_pairs",
    "parse_config",
    "screen_pairs",
]
