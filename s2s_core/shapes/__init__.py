"""Tensor shapes: what nn.RNN / nn.LSTM / nn.GRU return, with named axes, padding and packing."""

from s2s_core.shapes.compute import (
    ShapesConfig,
    ShapesResult,
    parse_config,
    parse_lengths,
    parse_settings,
    run_shapes,
    with_lengths,
)

__all__ = [
    "ShapesConfig",
    "ShapesResult",
    "parse_config",
    "parse_lengths",
    "parse_settings",
    "run_shapes",
    "with_lengths",
]
