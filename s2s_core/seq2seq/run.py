"""The whole encoder–decoder page in one call (the untrained model; the trained one: trained.py): encoder,
hand-off (or why it fails), decoding, bottleneck; and the conditions that choose the page's sentences."""

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
    model: str = "untrained"  # which model computed this: "trained" (the Translation lab's default) or "untrained"
    attention: str = "none"  # the model's attention ("none", "luong_general", "bahdanau", …)
    reference: tuple[str, ...] | None = None  # trained: the toy grammar's translation (None outside the grammar)

    @property
    def reads_every_state(self) -> bool:
        """The decoder reads every encoder output at every step (attention), not only the handed-over state."""
        return self.attention != "none"

    @property
    def output_case(self) -> str:
        """What the page may say about the output: "arbitrary" (untrained), "pending" (nothing decoded), "matches"
        or "differs" (the trained model against the toy grammar's translation), "outside" (no reference)."""
        if self.decoding is None:
            return "pending"
        if self.model != "trained":
            return "arbitrary"
        if self.reference is None:
            return "outside"
        return "matches" if self.decoding.words == self.reference else "differs"

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
