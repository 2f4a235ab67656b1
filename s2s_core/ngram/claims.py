"""The next-token page's claims for lessons (s2s_core/lessons/claims.py): computed on a step's link state.

`config_of` reads a state as the page reads its controls (pages/ngram.py `read_inputs`): corpus, window n,
smoothing and k through `parse_config`, then the prefix (at most n - 1 words) and the sentence. Each claim quotes
the numbers as the picture writes them (s2s_core/ngram/picture.py: "4/6 = 0.6667", the product line).

The claims hold in both languages without naming a word: each language's default corpus is its own, so a claim
checks what the counts do (sum to 1, a product that is 0 or not, how many n-grams are unseen), never which word.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from s2s_core.fmt import num, prob
from s2s_core.lessons.claims import ClaimResult, LinkState, claim
from s2s_core.ngram import fields
from s2s_core.ngram.compute import (
    NgramConfig,
    continuations,
    parse_config,
    parse_prefix,
    parse_sentence,
    sentence_probability,
)
from s2s_core.ngram.counting import Sentence
from s2s_core.ngram.sparsity import sparsity

SUM_TOL = 5e-5  # the candidates' shares are compared as the page rounds them (4 decimals)


@dataclass(frozen=True)
class NgramState:
    """What the page computes from: the model, the prefix typed before the blank, the sentence to score."""

    config: NgramConfig
    prefix: Sentence
    sentence: Sentence


def config_of(state: LinkState) -> NgramState:
    config = parse_config(
        state.value(fields.CORPUS), state.value(fields.N), state.value(fields.SMOOTH), state.value(fields.K)
    )
    prefix = parse_prefix(state.value(fields.PREFIX), config.n)
    return NgramState(config, prefix, parse_sentence(state.value(fields.SENTENCE)))


def _words(tokens: Sentence) -> str:
    return " ".join(tokens)


@claim("ngram:next")
def next_word(state: LinkState, total: float) -> ClaimResult:
    """The bars after the prefix add up to `total`: 1 when they are plain counts c(h, w) / c(h); less with add-k,
    which keeps a share for every word never seen after the prefix. Quotes the longest bar as the picture does."""
    s = config_of(state)
    res = continuations(s.config, s.prefix)
    probs = res.probs_addk if s.config.smoothing else res.probs_mle  # (W,) the bars drawn
    got = float(probs.sum())
    values = {
        "prefix": _words(s.prefix),
        "history": str(res.history_count),
        "total": num(got),
        "candidates": str(len(res.words)),
        "unseen": str(res.unseen_types),
        "vocab": str(res.vocab_size),
    }
    shown: tuple[str, ...] = ()
    if res.words:
        p = float(probs[0])
        values |= {"word": res.words[0], "count": str(res.counts[0]), "p": prob(p)}
        shown = (f"{res.counts[0]}/{res.history_count} = {prob(p)}",)  # the longest bar's label in the picture
    return ClaimResult(bool(res.words) and math.isclose(got, total, abs_tol=SUM_TOL), values, shown)


@claim("ngram:sentence")
def sentence(state: LinkState, zero: bool) -> ClaimResult:
    """P(sentence), the product of its factors, is exactly 0 (`zero`) or not; the answer "zero" or "positive".
    When it is 0, the first zero factor's word and history are quoted: the n-gram the corpus never had."""
    s = config_of(state)
    res = sentence_probability(s.config, s.sentence)
    is_zero = res.probability == 0.0
    product = " × ".join(prob(float(p)) for p in res.probs) + f" = {prob(res.probability)}"  # the picture's line
    values = {"p": prob(res.probability), "factors": str(len(res.factors)), "n": str(s.config.n)}
    values["window"] = str(s.config.n - 1)
    if res.first_zero is not None:
        f = res.factors[res.first_zero]
        values |= {"zero_word": f.word, "zero_history": _words(f.history), "zero_count": f"{f.count}/{f.history_count}"}
    return ClaimResult(is_zero == zero, values, shown=(product,), answer="zero" if is_zero else "positive")


@claim("ngram:unseen")
def unseen(state: LinkState, n: int, count: int) -> ClaimResult:
    """Of the sentence's n-grams for window `n`, exactly `count` never occur in the corpus (the Sparsity tab)."""
    s = config_of(state)
    res = sparsity(s.config.corpus, s.sentence)
    i = res.ns.index(n)
    grams = ", ".join("(" + _words(g) + ")" for g in res.unseen_grams[i]) or "—"
    before = [u for m, u in zip(res.ns, res.unseen, strict=True) if m < n]
    values = {
        "n": str(n),
        "unseen": str(res.unseen[i]),
        "total": str(res.totals[i]),
        "grams": grams,
        "shorter_unseen": str(max(before, default=0)),
    }
    return ClaimResult(res.unseen[i] == count, values, shown=(f"{res.unseen[i]}/{res.totals[i]}", grams))
