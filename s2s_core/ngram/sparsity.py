"""Sparsity and the window: unseen n-grams of a held-out sentence as n grows; what a window cannot see.

No training here: both parts follow from counting and from which positions each model reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from s2s_core.ngram.counting import Corpus, Sentence, count_ngrams, ngrams
from s2s_core.ngram.fields import MAX_N
from s2s_core.vocab import SOS


@dataclass(frozen=True)
class SparsityResult:
    """For each n in ns: how many of the sentence's n-grams the corpus never had."""

    ns: tuple[int, ...]  # 1 … min(MAX_N, longest corpus sentence)
    totals: tuple[int, ...]  # n-grams in the padded sentence (len(sentence) + 1 for every n)
    unseen: tuple[int, ...]  # of those, how many have count 0 in the corpus
    shares: tuple[float, ...]  # unseen / total
    unseen_grams: tuple[tuple[Sentence, ...], ...]  # the unseen n-grams themselves, per n
    distinct_in_corpus: tuple[int, ...]  # distinct n-grams the corpus holds, per n


@dataclass(frozen=True)
class WindowResult:
    """Predicting the sentence's last word: which earlier words each kind of model can read."""

    target: str  # the word being predicted
    before: Sentence  # every word before it
    ngram_visible: tuple[bool, ...]  # (len(before),) inside the last n-1 positions
    outside: Sentence  # words the window misses (the fixed-window network misses the same ones)
    history: Sentence  # what the n-gram model conditions on (may start with <sos>)
    n: int


def sparsity(corpus: Corpus, sentence: Sentence) -> SparsityResult:
    """Unseen share per n. It never falls as n grows: an n-gram's last n-1 tokens form an (n-1)-gram
    at the same position, and if that was never seen, no longer n-gram ending there was seen either."""
    longest = max(len(s) for s in corpus)
    ns = tuple(range(1, min(MAX_N, longest) + 1))
    totals, unseen, grams_out, distinct = [], [], [], []
    for n in ns:
        seen = count_ngrams(corpus, n)
        grams = ngrams(sentence, n)
        missing = tuple(g for g in grams if seen[g] == 0)
        totals.append(len(grams))
        unseen.append(len(missing))
        grams_out.append(missing)
        distinct.append(len(seen))
    return SparsityResult(
        ns=ns,
        totals=tuple(totals),
        unseen=tuple(unseen),
        shares=tuple(u / t for u, t in zip(unseen, totals, strict=True)),
        unseen_grams=tuple(grams_out),
        distinct_in_corpus=tuple(distinct),
    )


def window_view(sentence: Sentence, n: int) -> WindowResult:
    """An n-gram model (and a feed-forward net with the same window) reads only the last n-1 tokens;
    an RNN's state has passed through every earlier word."""
    before = sentence[:-1]
    first_visible = len(before) - (n - 1)  # may be negative: then <sos> markers fill the window
    visible = tuple(i >= first_visible for i in range(len(before)))
    history = ((SOS,) * max(0, -first_visible) + before[max(0, first_visible) :]) if n > 1 else ()
    return WindowResult(
        target=sentence[-1],
        before=before,
        ngram_visible=visible,
        outside=tuple(w for w, v in zip(before, visible, strict=True) if not v),
        history=history,
        n=n,
    )
