"""The one-vector bottleneck, measured: how much the encoder's last state moves when one word changes.

The learner's sentence is repeated to every length n = 1 … N; for each n the first (or the last) word is
replaced and the change of the top layer's final state is measured, ||h_n(edited) − h_n(original)||.
Shapes: N lengths, K directions, H_e hidden size; the batch holds 3N sentences (original, first, last).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch

from s2s_core.seq2seq.compute import Seq2SeqConfig, build_encoder

# (ids (3N, N), lengths (3N,)) -> the top layer's final h per direction (K, 3N, H_e), as the model hands it over
FinalState = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]

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
    """The untrained model's measurement (its encoder built from config)."""
    encoder = build_encoder(config)
    K = config.directions

    def final(ids: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        _, state = encoder(ids, lengths)  # packed: h_n (L_e*K, 3N, H_e) at each sentence's own length
        return (state[0] if config.cell == "lstm" else state)[-K:]  # (K, 3N, H_e)

    numbers = config.enc_layers * K * config.enc_hidden * (2 if config.cell == "lstm" else 1)
    stoi = {tok: i for i, tok in enumerate(config.itos)}
    return measure(config, final, stoi, 0, numbers, max_length)


def measure(
    config: Seq2SeqConfig,
    final: FinalState,
    stoi: dict[str, int],
    pad_id: int,
    handoff_numbers: int,
    max_length: int = MAX_LENGTH,
) -> Bottleneck:
    """The measurement for any encoder: `final` gives its top layer's final state per direction (the untrained
    model's or the trained one's, s2s_core/seq2seq/trained.py); handoff_numbers: the size of what it hands over."""
    rep = config.replacement
    # 1) Three sentences per length: original, first word replaced, last word replaced.
    batch, lengths = [], []
    for n in range(1, max_length + 1):
        words = cycled(config.source, n)
        for variant in (words, [rep] + words[1:], words[:-1] + [rep]):
            batch.append([stoi[w] for w in variant] + [pad_id] * (max_length - n))
            lengths.append(n)
    ids = torch.tensor(batch, dtype=torch.long)  # (3N, N)
    # 2) One call: each sentence's state is the one at its own length (no PAD is read into it).
    with torch.no_grad():
        h = final(ids, torch.tensor(lengths))  # (K, 3N, H_e)
    K = h.shape[0]
    top = h.reshape(K, max_length, 3, -1)  # (K, 3N, H_e) -> (K, N, 3, H_e)
    original, first, last = top[:, :, 0], top[:, :, 1], top[:, :, 2]  # (K, N, H_e) each
    return Bottleneck(
        lengths=tuple(range(1, max_length + 1)),
        delta_first=(first - original).norm(dim=-1),  # (K, N)
        delta_last=(last - original).norm(dim=-1),  # (K, N)
        norm=original.norm(dim=-1),  # (K, N)
        learner_length=len(config.source),
        handoff_numbers=handoff_numbers,
        first_word=config.source[0],
        replacement=rep,
    )
