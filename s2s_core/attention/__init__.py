"""Attention weighting (seed §6, §8): scores -> softmax over source positions -> weighted sum -> context."""

from s2s_core.attention.compute import AttentionConfig, AttentionResult, attention_weighting, parse_config

__all__ = ["AttentionConfig", "AttentionResult", "attention_weighting", "parse_config"]
