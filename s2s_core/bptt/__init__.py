"""Backprop through time (seed §2): gradient norms reaching earlier steps, truncation, and clipping."""

from s2s_core.bptt.compute import (
    BpttConfig,
    BpttResult,
    CellGrad,
    ClipResult,
    backprop_through_time,
    clip,
    parse_config,
    parse_max_norm,
)

__all__ = [
    "BpttConfig",
    "BpttResult",
    "CellGrad",
    "ClipResult",
    "backprop_through_time",
    "clip",
    "parse_config",
    "parse_max_norm",
]
