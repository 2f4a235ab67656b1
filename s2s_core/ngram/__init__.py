"""Next-token prediction by counting (seed §1): n-gram counts, conditionals, sentence probability, sparsity."""

from s2s_core.ngram.compute import (
    ContinuationResult,
    Factor,
    NgramConfig,
    SentenceResult,
    continuations,
    parse_config,
    parse_prefix,
    parse_sentence,
    sentence_probability,
)
from s2s_core.ngram.sparsity import SparsityResult, WindowResult, sparsity, window_view

__all__ = [
    "ContinuationResult",
    "Factor",
    "NgramConfig",
    "SentenceResult",
    "SparsityResult",
    "WindowResult",
    "continuations",
    "parse_config",
    "parse_prefix",
    "parse_sentence",
    "sentence_probability",
    "sparsity",
    "window_view",
]
