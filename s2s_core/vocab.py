"""Tiny vocabularies: tokenize, ids with PAD/SOS/EOS/UNK, pad a batch, lengths, padding mask."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch

from s2s_core import caps
from s2s_core.errors import InputError
from s2s_core.validate import check_text

PAD, SOS, EOS, UNK = "<pad>", "<sos>", "<eos>", "<unk>"
SPECIALS = (PAD, SOS, EOS, UNK)
PAD_ID, SOS_ID, EOS_ID, UNK_ID = 0, 1, 2, 3


def tokenize(text: str, field: str, *, max_tokens: int = caps.MAX_TOKENS) -> list[str]:
    """Whitespace tokens of one sentence; empty, PAD-only or over-long sentences are rejected."""
    text = check_text(text, field)
    tokens = text.split()
    if all(tok == PAD for tok in tokens):
        raise InputError("errors.all_pad", field)
    if len(tokens) > max_tokens:
        raise InputError("errors.too_many_tokens", field, count=len(tokens), limit=max_tokens)
    return tokens


@dataclass(frozen=True)
class Vocab:
    """Token <-> id mapping; ids 0..3 are always PAD, SOS, EOS, UNK."""

    itos: tuple[str, ...]

    @property
    def stoi(self) -> dict[str, int]:
        return {tok: i for i, tok in enumerate(self.itos)}

    def __len__(self) -> int:
        return len(self.itos)

    def encode(self, tokens: Sequence[str], *, add_sos: bool = False, add_eos: bool = False) -> list[int]:
        stoi = self.stoi
        ids = [stoi.get(tok, UNK_ID) for tok in tokens]
        return ([SOS_ID] if add_sos else []) + ids + ([EOS_ID] if add_eos else [])

    def decode(self, ids: Sequence[int]) -> list[str]:
        return [self.itos[i] if 0 <= i < len(self.itos) else UNK for i in ids]


def build_vocab(sentences: Sequence[Sequence[str]]) -> Vocab:
    """Specials first, then tokens in order of first appearance (stable, so ids are reproducible)."""
    seen: dict[str, None] = dict.fromkeys(SPECIALS)
    for tokens in sentences:
        for tok in tokens:
            seen.setdefault(tok, None)
    return Vocab(itos=tuple(seen))


def pad_batch(batch: Sequence[Sequence[int]], field: str) -> tuple[torch.Tensor, torch.Tensor]:
    """Right-pad id lists with PAD_ID -> (ids (B, S), lengths (B,)); empty or all-PAD rows are rejected."""
    if len(batch) == 0:
        raise InputError("errors.empty_batch", field)
    if len(batch) > caps.MAX_BATCH:
        raise InputError("errors.too_many_rows", field, count=len(batch), limit=caps.MAX_BATCH)
    for r, ids in enumerate(batch, start=1):
        if len(ids) == 0 or all(i == PAD_ID for i in ids):
            raise InputError("errors.all_pad_row", field, row=r)
        if len(ids) > caps.MAX_SEQ_LEN:
            raise InputError("errors.too_many_tokens", field, count=len(ids), limit=caps.MAX_SEQ_LEN)
    S = max(len(ids) for ids in batch)
    ids = torch.full((len(batch), S), PAD_ID, dtype=torch.long)  # (B, S)
    for r, row in enumerate(batch):
        ids[r, : len(row)] = torch.tensor(row, dtype=torch.long)
    lengths = torch.tensor([len(row) for row in batch], dtype=torch.long)  # (B,)
    return ids, lengths


def padding_mask(ids: torch.Tensor) -> torch.Tensor:
    """True where a position holds a real token, False at PAD: (B, S) -> (B, S) bool."""
    return ids != PAD_ID  # (B, S)


def lengths_to_mask(lengths: torch.Tensor, S: int) -> torch.Tensor:
    """(B,) lengths -> (B, S) bool mask, True for the first length[b] positions."""
    return torch.arange(S).unsqueeze(0) < lengths.unsqueeze(1)  # (1, S) < (B, 1) -> (B, S)
