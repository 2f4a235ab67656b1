"""Bahdanau vs Luong (seed §7): additive, dot, general, concat and scaled-dot scores; global vs local windows.

Public, batched building blocks other pages may import (shapes (B, S, H)):
functions.dot_score / scaled_dot_score / general_score / additive_score / concat_score, masked_softmax,
weighted_sum; modules.AdditiveScore / DotScore / ScaledDotScore / GeneralScore / ConcatScore.
"""

from s2s_core.scoring.compute import ScoringConfig, ScoringResult, compare, parse_config
from s2s_core.scoring.functions import (
    additive_score,
    concat_score,
    dot_score,
    general_score,
    masked_softmax,
    scaled_dot_score,
    weighted_sum,
)
from s2s_core.scoring.modules import AdditiveScore, ConcatScore, DotScore, GeneralScore, ScaledDotScore

__all__ = [
    "AdditiveScore",
    "ConcatScore",
    "DotScore",
    "GeneralScore",
    "ScaledDotScore",
    "ScoringConfig",
    "ScoringResult",
    "additive_score",
    "compare",
    "concat_score",
    "dot_score",
    "general_score",
    "masked_softmax",
    "parse_config",
    "scaled_dot_score",
    "weighted_sum",
]
