"""Encoder states and a decoder state taken from the encoder–decoder page's model, instead of typed tables."""

from __future__ import annotations

from typing import Any

from s2s_core.errors import InputError
from s2s_core.fmt import rounded
from s2s_core.seq2seq.compute import Seq2SeqConfig, decode, encode, hand_off, parse_config

ENCODER_HIDDEN = 4  # H_e = H_d: small, so every state fits in one table row


def states_from_encoder(sentence: Any, seed: Any = 0) -> tuple[tuple[float, ...], tuple[tuple[float, ...], ...]]:
    """(s, rows): s is the decoder's state after its first step, rows are the encoder's outputs (S, H).

    A 1-layer GRU on both sides with the state handed over as is; numbers rounded as the app writes them
    (s2s_core.fmt, 4 decimals) so the tables and the link stay readable. Bad text raises InputError on the
    sentence field.
    """
    try:
        base = parse_config(sentence, seed=seed)
    except InputError as err:  # name this page's own field in the message
        field = {"seq2seq.field.source": "scoring.field.sentence", "seq2seq.field.seed": "scoring.field.seed"}
        raise InputError(err.key, field.get(err.field, err.field), **err.params) from None
    config = Seq2SeqConfig(
        source=base.source,
        cell="gru",
        embed=4,
        enc_hidden=ENCODER_HIDDEN,
        dec_hidden=ENCODER_HIDDEN,
        steps=1,
        seed=base.seed,
    )
    enc = encode(config)
    states = decode(config, hand_off(config, enc)).states  # (T+1, H_d): h0, then after step 1
    rows = tuple(tuple(rounded(row)) for row in enc.outputs[0])  # (S, H_e)
    return tuple(rounded(states[-1])), rows
