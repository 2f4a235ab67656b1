"""Tensor shapes (seed §4, §8): what nn.RNN / nn.LSTM / nn.GRU return, with named axes, padding and packing."""

from s2s_core.shapes.compute import ShapesConfig, ShapesResult, parse_config, parse_lengths, run_shapes

__all__ = ["ShapesConfig", "ShapesResult", "parse_config", "parse_lengths", "run_shapes"]
