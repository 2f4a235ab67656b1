"""A tiny seeded (untrained) encoder, bridge and decoder, written the plain PyTorch way.

These definitions are copied verbatim into the page's code expander (inspect.getsource), so the
script the learner runs is the code that computed the page. Keep them self-contained: torch, nn, math, zlib.
Shapes: B batch, S source length, E embedding, H_e / H_d encoder / decoder hidden size,
L_e / L_d layers, K directions (1 or 2), V vocabulary.
"""

from __future__ import annotations

import math
import zlib

import torch
from torch import nn


def token_vector(token: str, dim: int, seed: int, salt: str) -> torch.Tensor:
    """A word's vector depends only on the word, the seed and the table it belongs to (salt).

    So editing one word of the sentence leaves every other word's vector, and every weight, unchanged.
    """
    gen = torch.Generator().manual_seed(seed * 1_000_003 + zlib.crc32(f"{salt}:{token}".encode()))
    return torch.randn(dim, generator=gen, dtype=torch.float64)  # (dim,)


def seeded_uniform_(module: nn.Module, seed: int, bound: float) -> None:
    """PyTorch's default RNN init, uniform(-bound, bound), from a private generator (thread-safe)."""
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.rand(p.shape, generator=gen, dtype=torch.float64) * 2 * bound - bound)


def make_rnn(cell: str, E: int, H: int, L: int, bidirectional: bool, seed: int) -> nn.Module:
    rnn_class = nn.LSTM if cell == "lstm" else nn.GRU
    rnn = rnn_class(E, H, num_layers=L, bidirectional=bidirectional, batch_first=True, dtype=torch.float64)
    seeded_uniform_(rnn, seed, 1 / math.sqrt(H))
    return rnn


class Encoder(nn.Module):
    """Embeds the source words and reads them with an LSTM or GRU."""

    def __init__(self, itos: list[str], cell: str, E: int, H: int, L: int, bidirectional: bool, seed: int) -> None:
        super().__init__()
        rows = torch.stack([token_vector(tok, E, seed, "src") for tok in itos])  # (V, E)
        self.embedding = nn.Embedding.from_pretrained(rows, freeze=False)
        self.rnn = make_rnn(cell, E, H, L, bidirectional, seed)

    def forward(self, ids: torch.Tensor, lengths: torch.Tensor | None = None):
        x = self.embedding(ids)  # (B, S) -> (B, S, E)
        if lengths is None:
            return self.rnn(x)  # outputs (B, S, K*H), state h_n (L*K, B, H) [and c_n]
        # Packing stops each sentence at its own length, so h_n is its true last state, not a PAD's.
        packed = nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        outputs, state = self.rnn(packed)
        return nn.utils.rnn.pad_packed_sequence(outputs, batch_first=True)[0], state


class Bridge(nn.Module):
    """Maps the encoder's final state (L_e*K, B, H_e) to the decoder's initial state (L_d, B, H_d).

    Every layer and direction is laid side by side and projected at once, so any combination fits.
    h goes through tanh (an RNN's h lives in (-1, 1)); an LSTM's cell state is unbounded, so c does not.
    """

    def __init__(self, cell: str, enc_size: int, dec_layers: int, dec_size: int, seed: int) -> None:
        super().__init__()
        self.dec_layers, self.dec_size = dec_layers, dec_size
        self.to_h = nn.Linear(enc_size, dec_layers * dec_size, dtype=torch.float64)
        self.to_c = nn.Linear(enc_size, dec_layers * dec_size, dtype=torch.float64) if cell == "lstm" else None
        seeded_uniform_(self, seed + 2, 1 / math.sqrt(enc_size))

    def _map(self, layer: nn.Linear, state: torch.Tensor) -> torch.Tensor:
        B = state.shape[1]
        flat = state.transpose(0, 1).reshape(B, -1)  # (L_e*K, B, H_e) -> (B, L_e*K*H_e)
        out = layer(flat).reshape(B, self.dec_layers, self.dec_size)  # (B, L_d, H_d)
        return out.transpose(0, 1).contiguous()  # (L_d, B, H_d): the layout nn.LSTM / nn.GRU expect

    def forward(self, state):
        if self.to_c is None:
            return torch.tanh(self._map(self.to_h, state))  # (L_d, B, H_d)
        h, c = state
        return torch.tanh(self._map(self.to_h, h)), self._map(self.to_c, c)  # (L_d, B, H_d) each


class Decoder(nn.Module):
    """Reads one output word at a time and scores every word of the vocabulary as the next one."""

    def __init__(self, itos: list[str], cell: str, E: int, H: int, L: int, seed: int) -> None:
        super().__init__()
        rows = torch.stack([token_vector(tok, E, seed, "tgt") for tok in itos])  # (V, E)
        self.embedding = nn.Embedding.from_pretrained(rows, freeze=False)
        self.rnn = make_rnn(cell, E, H, L, False, seed + 1)
        self.out = nn.Linear(H, len(itos), dtype=torch.float64)
        with torch.no_grad():  # each word's output row is seeded by the word too
            self.out.weight.copy_(torch.stack([token_vector(tok, H, seed, "out") for tok in itos]) / math.sqrt(H))
            self.out.bias.zero_()
        self.never = [itos.index("<pad>"), itos.index("<sos>")]  # never predicted: not words

    def forward(self, ids: torch.Tensor, state):
        x = self.embedding(ids)  # (B, T) -> (B, T, E)
        outputs, state = self.rnn(x, state)  # (B, T, H_d)
        logits = self.out(outputs)  # (B, T, V)
        logits[..., self.never] = float("-inf")
        return logits, outputs, state
