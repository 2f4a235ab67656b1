"""Training lab (seed §5, §9): a tiny GRU seq2seq trained live; teacher forcing, attention maps, the bottleneck."""

from s2s_core.training.compute import (
    DecodeResult,
    SourceInput,
    TrainResult,
    decode,
    parse_config,
    parse_override,
    parse_source,
    train,
    twin_config,
    what_if,
)
from s2s_core.training.config import TrainConfig
from s2s_core.training.loop import EvalPoint, Progress, TrainingCancelled

__all__ = [
    "DecodeResult",
    "EvalPoint",
    "Progress",
    "SourceInput",
    "TrainConfig",
    "TrainResult",
    "TrainingCancelled",
    "decode",
    "parse_config",
    "parse_override",
    "parse_source",
    "train",
    "twin_config",
    "what_if",
]
