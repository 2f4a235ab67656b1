"""The input sequence shared by the LSTM and GRU pages: a sentence through a seeded embedding, or typed vectors.

Shapes: S time steps, E input (embedding) size. Batch B = 1 on both pages.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from typing import Literal

import torch

from s2s_core.errors import InputError
from s2s_core.gated.fields import (
    DEFAULT_E,
    DEFAULT_SEED,
    DEFAULT_SENTENCE,
    DEFAULT_SENTENCES,
    DEFAULT_VECTORS,
    MAX_E,
    MAX_S,
    GatedFields,
)
from s2s_core.validate import parse_matrix
from s2s_core.vocab import tokenize

Source = Literal["sentence", "table"]
Matrix = tuple[tuple[float, ...], ...]


@dataclass(frozen=True)
class SequenceSpec:
    """Where the input vectors come from (hashable: part of each page's cache key)."""

    source: Source = "sentence"
    tokens: tuple[str, ...] = tuple(DEFAULT_SENTENCE.split())
    vectors: Matrix = DEFAULT_VECTORS  # (S, E) used when source == "table"
    E: int = DEFAULT_E
    seed: int = DEFAULT_SEED

    @property
    def S(self) -> int:
        return len(self.tokens) if self.source == "sentence" else len(self.vectors)

    @property
    def labels(self) -> tuple[str, ...]:
        """One axis label per step: '1 · 나는' for a sentence, 't1' for typed vectors."""
        if self.source == "sentence":
            return tuple(f"{t + 1} · {tok}" for t, tok in enumerate(self.tokens))
        return tuple(f"t{t + 1}" for t in range(len(self.vectors)))


def parse_sequence(
    fields: GatedFields,
    source: object,
    sentence: object,
    vector_rows: list[list[object]] | None,
    E: object,
    seed: object,
) -> SequenceSpec:
    """Raw widget values -> SequenceSpec, checked by the page's fields; the first problem raises InputError."""
    source = fields.source.check(source)
    seed = fields.seed.check(seed)
    if source == "sentence":
        E = fields.E.check(E)
        tokens = tokenize(sentence, fields.sentence.label, max_tokens=MAX_S)  # type: ignore[arg-type]
        return SequenceSpec(source="sentence", tokens=tuple(tokens), E=E, seed=seed)
    if vector_rows is None:
        raise InputError("errors.empty_table", fields.x.label)
    # In table mode E is the table's width, still capped like the sentence mode's E.
    rows = parse_matrix(vector_rows, fields.x.label, max_rows=MAX_S, max_cols=MAX_E)
    return SequenceSpec(source="table", vectors=tuple(tuple(r) for r in rows), E=len(rows[0]), seed=seed)


def default_sentence(lang: str) -> str:
    """The default sentence in the learner's language (Korean for an unknown language: the note's own)."""
    return DEFAULT_SENTENCES.get(lang, DEFAULT_SENTENCE)


def parse_sizes(fields: GatedFields, E: object, H: object, seed: object) -> tuple[int, int, int]:
    """E, H and the seed alone: what the weights and the parameter counts need, whatever the sequence is."""
    return fields.E.check(E), fields.H.check(H), fields.seed.check(seed)


def token_vector(token: str, E: int, seed: int) -> torch.Tensor:
    """A fixed random row per word, like an untrained nn.Embedding (N(0, 1)): same word + seed -> same x.

    Seeding by the word (not by its vocabulary id) keeps a word's vector when other words are edited.
    """
    g = torch.Generator().manual_seed(seed * 1_000_003 + zlib.crc32(token.encode("utf-8")))
    return torch.randn(E, generator=g, dtype=torch.float64)  # (E,)


def input_vectors(spec: SequenceSpec) -> torch.Tensor:
    """The (S, E) input of the recurrent layer: embedding rows of the words, or the typed table."""
    if spec.source == "table":
        return torch.tensor(spec.vectors, dtype=torch.float64)  # (S, E)
    return torch.stack([token_vector(tok, spec.E, spec.seed) for tok in spec.tokens])  # (S, E)


def embedding_rows(spec: SequenceSpec) -> tuple[tuple[str, ...], Matrix]:
    """The vocabulary of the sentence (first appearance order) and its embedding table (V, E)."""
    vocab = tuple(dict.fromkeys(spec.tokens))
    return vocab, tuple(tuple(token_vector(tok, spec.E, spec.seed).tolist()) for tok in vocab)


def init_parameters(shapes: list[tuple[int, ...]], H: int, seed: int) -> list[torch.Tensor]:
    """PyTorch's recurrent init U(-1/√H, 1/√H), drawn in parameter order from a private generator.

    A private generator (not torch.manual_seed) because a server's sessions share the global RNG.
    """
    g = torch.Generator().manual_seed(seed)
    k = 1.0 / math.sqrt(H)
    return [torch.rand(*shape, generator=g, dtype=torch.float64) * 2 * k - k for shape in shapes]
