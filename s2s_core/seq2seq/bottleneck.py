"""The one-vector bottleneck, measured: how much the encoder's last state moves when one word changes.

The learner's sentence is repeated to every length n = 1 … N; for each n the first (or the last) word is
replaced and the change of the top layer's final state is measured, ||h_n(edited) − h_n(original)||.
Shapes: N lengths, K directions, H_e hidden size; the batch holds 3N sentences (original, first, last).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from s2s_core.seq2seq.compute import Seq2SeqConfig, build_encoder

MAX_LENGTH = 24  # N: long enough for the early word's trace to fade in an untrained GRU/LSTM


@dataclass(frozen=True)
class Bottleneck:
    lengths: tuple[int, ...]  # 1 … N
    delta_first: torch.Tensor  # (K, N) change of the last state when word 1 is replaced
    delta_last: torch.Tensor  # (K, N) … when word n (the last one read by the forward direction) is replaced
    norm: torch.Tensor  # (K, N) size of the original last state, for scale
    learner_length: int  # the sentence as typed
    handoff_numbers: int  # all that reaches the decoder, any length: L_e·K·H_e in h_n (and as many in c_n)
    first_word: str
    replacement: str


def cycled(tokens: tuple[str, ...], n: int) -> list[str]:
    """The learner's words repeated until the sentence has n words."""
    return [tokens[i % len(tokens)] for i in range(n)]


def bottleneck(config: Seq2SeqConfig, max_length: int = MAX_LENGTH) -> Bottleneck:
    encoder = build_encoder(config)
    stoi = {tok: i for i, tok in enumerate(config.itos)}
    rep = config.replacement
    # 1) Three sentences per length: original, first word replaced, last word replaced.
    batch, lengths = [], []
    for n in range(1, max_length + 1):
        words = cycled(config.source, n)
        for variant in (words, [rep] + words[1:], words[:-1] + [rep]):
            batch.append([stoi[w] for w in variant] + [0] * (max_length - n))
            lengths.append(n)
    ids = torch.tensor(batch, dtype=torch.long)  # (3N, N)
    # 2) One packed call: each sentence's state stops at its own length (no PAD is read).
    with torch.no_grad():
        _, state = encoder(ids, torch.tensor(lengths))  # h_n (L_e*K, 3N, H_e)
    h_n = state[0] if config.cell == "lstm" else state
    K = config.directions
    top = h_n[-K:].reshape(K, max_length, 3, -1)  # (K, 3N, H_e) -> (K, N, 3, H_e)
    original, first, last = top[:, :, 0], top[:, :, 1], top[:, :, 2]  # (K, N, H_e) each
    return Bottleneck(
        lengths=tuple(range(1, max_length + 1)),
        delta_first=(first - original).norm(dim=-1),  # (K, N)
        delta_last=(last - original).norm(dim=-1),  # (K, N)
        norm=original.norm(dim=-1),  # (K, N)
        learner_length=len(config.source),
        handoff_numbers=h_n.shape[0] * h_n.shape[2] * (2 if config.cell == "lstm" else 1),
        first_word=config.source[0],
        replacement=rep,
    )
