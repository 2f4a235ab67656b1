"""Plain-Python counting for the n-gram page: padding, n-grams, counts, the vocabulary.

These are the "by hand" counts; compute.py redoes the probabilities with torch tensors and the
page shows that both agree.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from s2s_core.vocab import EOS, SOS, UNK

Sentence = tuple[str, ...]
Corpus = tuple[Sentence, ...]


def padded(sentence: Sequence[str], n: int) -> Sentence:
    """n-1 start markers in front (so the first word has a full history) and one end marker behind."""
    return (SOS,) * (n - 1) + tuple(sentence) + (EOS,)


def ngrams(sentence: Sequence[str], n: int) -> list[Sentence]:
    """Every n-gram of the padded sentence: exactly len(sentence) + 1 of them, one per predicted token."""
    tokens = padded(sentence, n)
    return [tokens[i : i + n] for i in range(len(tokens) - n + 1)]


def count_ngrams(corpus: Corpus, n: int) -> Counter[Sentence]:
    """c(w_1 … w_n): how often each n-gram occurs in the corpus."""
    counts: Counter[Sentence] = Counter()
    for sentence in corpus:
        counts.update(ngrams(sentence, n))
    return counts


def history_counts(counts: Counter[Sentence]) -> Counter[Sentence]:
    """c(h) = Σ_w c(h, w): how often each history of n-1 tokens is followed by anything."""
    out: Counter[Sentence] = Counter()
    for gram, c in counts.items():
        out[gram[:-1]] += c
    return out


def vocabulary(corpus: Corpus) -> Sentence:
    """Everything that can come next: corpus words (first-appearance order), then <eos> and <unk>.

    <unk> stands for any word the corpus never had, so add-k smoothing still sums to 1 over V.
    """
    seen: dict[str, None] = {}
    for sentence in corpus:
        seen.update(dict.fromkeys(sentence))
    return tuple(seen) + (EOS, UNK)
