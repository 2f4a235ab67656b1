"""Encoder–decoder: the encoder's final state handed to the decoder, a bridge when shapes differ,
greedy decoding from <sos>, and the one-vector bottleneck measured."""

from s2s_core.seq2seq.compute import (
    Seq2SeqConfig,
    decode,
    default_config,
    encode,
    hand_off,
    parse_config,
    parse_replacement,
)
from s2s_core.seq2seq.run import Seq2SeqResult, run

__all__ = [
    "Seq2SeqConfig",
    "Seq2SeqResult",
    "decode",
    "default_config",
    "encode",
    "hand_off",
    "parse_config",
    "parse_replacement",
    "run",
]
