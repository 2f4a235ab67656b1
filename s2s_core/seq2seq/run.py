"""The whole encoder–decoder page in one call: encoder, hand-off (or why it fails), decoding, bottleneck."""

from __future__ import annotations

from dataclasses import dataclass

from s2s_core.errors import InputError
from s2s_core.seq2seq.bottleneck import Bottleneck, bottleneck
from s2s_core.seq2seq.compute import (
    Decoding,
    EncoderResult,
    ErrorParts,
    HandOff,
    Seq2SeqConfig,
    decode,
    encode,
    hand_off,
)


@dataclass(frozen=True)
class Seq2SeqResult:
    encoder: EncoderResult
    handoff: HandOff | None  # None when the shapes do not fit and there is no bridge
    decoding: Decoding | None
    error: ErrorParts | None  # why the hand-off failed; the encoder and bottleneck still stand
    bottleneck: Bottleneck

    @property
    def lengths_case(self) -> str:
        """How the output's length compares with the source's (selects the page's opening sentence):
        "differ", "same" (by chance: nothing ties them), or "pending" (no decoding: the hand-off failed)."""
        if self.decoding is None:
            return "pending"
        return "same" if len(self.decoding.words) == len(self.encoder.tokens) else "differ"


def run(config: Seq2SeqConfig) -> Seq2SeqResult:
    enc = encode(config)
    try:
        handoff = hand_off(config, enc)
    except InputError as err:
        return Seq2SeqResult(enc, None, None, (err.key, err.field, tuple(err.params.items())), bottleneck(config))
    return Seq2SeqResult(enc, handoff, decode(config, handoff), None, bottleneck(config))
