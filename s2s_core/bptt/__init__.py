"""Backprop through time (seed §2): gradient norms reaching earlier steps, truncation, and clipping."""

from s2s_core.bptt.compute import BpttConfig, BpttResult, CellGrad, backprop_through_time, parse_config

__all__ = ["BpttConfig", "BpttResult", "CellGrad", "backprop_through_time", "parse_config"]
