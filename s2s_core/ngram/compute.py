"""The counting language model: parse the inputs, continuations after a prefix, sentence probability.

P(w | h) = c(h, w) / c(h) (maximum likelihood), or (c(h, w) + k) / (c(h) + k·V) with add-k smoothing.
Shapes: V vocabulary (corpus words + <eos> + <unk>), P factors of one sentence (its words + <eos>),
C distinct histories the sentence uses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import torch

from s2s_core import caps
from s2s_core.errors import InputError
from s2s_core.ngram import fields
from s2s_core.ngram.counting import Corpus, Sentence, count_ngrams, history_counts, ngrams, vocabulary
from s2s_core.ngram.fields import K_MAX, K_MIN
from s2s_core.validate import check_text
from s2s_core.vocab import SPECIALS, UNK

MAX_SENTENCES = 200  # lines in the corpus
MAX_LINE_TOKENS = 40  # words in one corpus line
HAND_TOL = 1e-12  # hand ratios vs torch tensors, both float64


@dataclass(frozen=True)
class NgramConfig:
    """The corpus and the model settings (hashable, so it is a cache key)."""

    corpus: Corpus
    n: int = 3
    smoothing: bool = False
    k: float = 1.0


@dataclass(frozen=True)
class ContinuationResult:
    """What follows the learner's prefix in the corpus: the table of continuations."""

    history_count: int  # c(prefix): how often the prefix is followed by anything
    order: int  # the table is a (len(prefix) + 1)-gram estimate
    shorter: bool  # 0 < len(prefix) < n - 1: a shorter context than the n-gram model's (the page says so)
    words: Sentence  # (W,) continuations seen after the prefix, most frequent first
    counts: tuple[int, ...]  # (W,) c(prefix, word)
    probs_mle: torch.Tensor  # (W,) c(prefix, word) / c(prefix); zeros when the prefix is unseen
    probs_addk: torch.Tensor  # (W,) (c + k) / (c(prefix) + k·V)
    vocab_size: int  # V
    unseen_types: int  # V - W: words never seen after the prefix
    unseen_prob_addk: float  # each unseen word's add-k probability, k / (c(prefix) + k·V)
    addk_total: float  # Σ over all V words of the add-k distribution (1 up to rounding)
    max_abs_diff: float  # hand ratios vs the torch probability vector


@dataclass(frozen=True)
class Factor:
    """One factor P(word | history) of the sentence probability, with the counts behind it."""

    word: str
    history: Sentence  # the n-1 tokens the model looks at (may hold <sos>)
    count: int  # c(history, word)
    history_count: int  # c(history)
    mle: float | None  # count / history_count; None when the history was never seen (0/0)
    addk: float  # (count + k) / (history_count + k·V)


@dataclass(frozen=True)
class SentenceResult:
    """P(sentence) = Π P(w_i | previous n-1 tokens), every factor and the torch check."""

    tokens: Sentence  # the sentence's words (no markers)
    factors: tuple[Factor, ...]  # (P,) one per word and one for <eos>
    probs: torch.Tensor  # (P,) the factors the model uses (add-k if smoothing is on, else MLE with 0/0 -> 0)
    probs_mle: torch.Tensor  # (P,) MLE factors, 0 where unseen or undefined
    probs_addk: torch.Tensor  # (P,) add-k factors
    probability: float  # Π probs
    log_probability: float  # Σ log probs (natural log; -inf when a factor is 0)
    first_zero: int | None  # 0-based index of the first zero factor the model uses
    probability_mle: float  # Π probs_mle: the unsmoothed answer, whatever the switch says
    first_zero_mle: int | None  # 0-based index of the first zero MLE factor
    vocab_size: int  # V
    max_abs_diff: float  # hand product and factors vs the torch count-matrix computation


# --- parsing ----------------------------------------------------------------------------------------


def _check_tokens(tokens: list[str], field: str, line: int | None = None) -> None:
    """Markers like <sos> belong to the model, not to the learner's text."""
    for tok in tokens:
        if tok in SPECIALS:
            params = {"token": tok} | ({"line": line} if line is not None else {})
            key = "ngram.error.reserved_line" if line is not None else "ngram.error.reserved"
            raise InputError(key, field, **params)


def parse_corpus(text: object) -> Corpus:
    """One sentence per line, tokens split at whitespace; blank lines are skipped."""
    field = fields.CORPUS.label
    text = check_text(text, field, max_chars=fields.CORPUS.max_chars)
    lines = [line.split() for line in text.splitlines()]
    numbered = [(i, toks) for i, toks in enumerate(lines, start=1) if toks]
    if len(numbered) > MAX_SENTENCES:
        raise InputError("ngram.error.too_many_sentences", field, count=len(numbered), limit=MAX_SENTENCES)
    for line, toks in numbered:
        if len(toks) > MAX_LINE_TOKENS:
            raise InputError("ngram.error.line_too_long", field, line=line, count=len(toks), limit=MAX_LINE_TOKENS)
        _check_tokens(toks, field, line)
    return tuple(tuple(toks) for _, toks in numbered)


def parse_config(corpus_text: object, n: object, smoothing: object, k: object) -> NgramConfig:
    """Validate the raw widget (or URL) values; the first problem raises InputError naming its field."""
    corpus = parse_corpus(corpus_text)
    n = fields.N.check(n)
    longest = max(len(s) for s in corpus)
    if n > longest:
        # Every n-gram would be made of markers around a too-short sentence: nothing real to count.
        raise InputError("ngram.error.n_too_large", fields.N.label, n=n, longest=longest)
    return NgramConfig(corpus=corpus, n=n, smoothing=fields.SMOOTH.check(smoothing), k=fields.K.check(k))


def quiz_edit(config: NgramConfig) -> NgramConfig:
    """The edit the page's question asks the learner to predict: smoothing on (with the k in the field), or,
    when it is on already, k ten times larger (ten times smaller at the cap). Its result is drawn nowhere yet."""
    if not config.smoothing:
        return replace(config, smoothing=True)
    k = config.k * 10 if config.k * 10 <= K_MAX else config.k / 10
    return replace(config, k=round(max(K_MIN, k), 6))


def quiz_change(before: float, after: float) -> str:
    """'higher', 'lower' or 'same': how the sentence probability moves with the edit (rounding ignored)."""
    if math.isclose(before, after, rel_tol=1e-9, abs_tol=1e-300):
        return "same"
    return "higher" if after > before else "lower"


@dataclass(frozen=True)
class QuizReason:
    """Why P(sentence) moves with the question's edit, from the factors before and after it: the page's explanation
    is assembled from these fields (a sentence per condition), never written as always true."""

    change: str  # "higher", "lower" or "same" (quiz_change)
    zero: int | None  # 0-based index of a zero factor now (smoothing off): the product is 0 and can only rise
    move: str  # "on" (smoothing turned on), "up" (a larger k) or "down" (a smaller k): where the factors move
    unseen: int  # factors whose n-gram the corpus never had (count 0) now
    total: int  # P: factors of the sentence
    rose: int  # factors larger after the edit
    fell: int  # factors smaller after the edit
    uniform: float  # 1/V: where add-k pulls every factor (each is a mix of c/c(h) and 1/V)

    @property
    def seen(self) -> str:
        """ "all" when every factor's n-gram was seen, "some" when one was not (then smoothing is on: not 0)."""
        return "all" if self.unseen == 0 else "some"

    @property
    def outcome(self) -> str:
        """ "none" when no factor moves, else the change."""
        return "none" if self.change == "same" and self.rose == self.fell == 0 else self.change


def quiz_reason(config: NgramConfig, now: SentenceResult, after: SentenceResult) -> QuizReason:
    """The conditions behind the question's answer: (c + k) / (c(h) + k·V) = w·c/c(h) + (1 − w)/V with
    w = c(h) / (c(h) + k·V), so turning add-k on, or raising k, moves every factor toward 1/V; lowering k moves it
    back toward its count ratio. Which way the product goes depends on the factors that rise and those that fall."""
    edited = quiz_edit(config)
    move = "on" if not config.smoothing else ("up" if edited.k > config.k else "down")
    pairs = list(zip(now.probs.tolist(), after.probs.tolist(), strict=True))
    moved = [(a, b) for a, b in pairs if not math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-300)]
    return QuizReason(
        change=quiz_change(now.probability, after.probability),
        zero=now.first_zero if now.probability == 0 else None,
        move=move,
        unseen=sum(1 for f in now.factors if f.count == 0),
        total=len(now.factors),
        rose=sum(1 for a, b in moved if b > a),
        fell=sum(1 for a, b in moved if b < a),
        uniform=1.0 / now.vocab_size,
    )


def parse_prefix(text: object, n: int) -> Sentence:
    """The words typed before the blank; at most n-1 of them (that is all an n-gram model looks at).

    An empty prefix is allowed: the table is then the plain word distribution (a unigram)."""
    field = fields.PREFIX.label
    if text is None or (isinstance(text, str) and not text.strip()):
        return ()
    tokens = check_text(text, field, max_chars=fields.PREFIX.max_chars).split()
    _check_tokens(tokens, field)
    if n == 1:
        raise InputError("ngram.error.prefix_unigram", field, count=len(tokens))
    if len(tokens) > n - 1:
        raise InputError("ngram.error.prefix_too_long", field, count=len(tokens), n=n, window=n - 1)
    return tuple(tokens)


def parse_sentence(text: object) -> Sentence:
    """The held-out sentence whose probability is computed: non-empty, within the token cap."""
    field = fields.SENTENCE.label
    tokens = check_text(text, field, max_chars=fields.SENTENCE.max_chars).split()
    _check_tokens(tokens, field)
    if len(tokens) > caps.MAX_TOKENS:
        raise InputError("errors.too_many_tokens", field, count=len(tokens), limit=caps.MAX_TOKENS)
    return tuple(tokens)


# --- continuations after a prefix ----------------------------------------------------------------


def continuations(config: NgramConfig, prefix: Sentence) -> ContinuationResult:
    """Counts of every word seen right after the prefix, and the two probability vectors over V."""
    # 1) Count (len(prefix)+1)-grams by hand and keep those whose history is the prefix.
    order = len(prefix) + 1
    counts = count_ngrams(config.corpus, order)
    seen = {gram[-1]: c for gram, c in counts.items() if gram[:-1] == prefix}
    history = sum(seen.values())
    vocab = vocabulary(config.corpus)
    V = len(vocab)
    rank = {w: i for i, w in enumerate(vocab)}
    words = tuple(sorted(seen, key=lambda w: (-seen[w], rank[w])))

    # 2) The same counts as a vector over the whole vocabulary, then both distributions.
    idx = torch.tensor([rank[w] for w in words], dtype=torch.long)  # (W,) positions in the vocabulary
    counts_v = torch.zeros(V, dtype=torch.float64)  # (V,)
    counts_v[idx] = torch.tensor([float(seen[w]) for w in words], dtype=torch.float64)  # (V,)
    mle_v = counts_v / history if history else torch.zeros(V, dtype=torch.float64)  # (V,)
    addk_v = (counts_v + config.k) / (history + config.k * V)  # (V,)

    # 3) The check: the ratio a learner writes by hand equals the torch vector's entry.
    hand = torch.tensor([seen[w] / history for w in words], dtype=torch.float64)  # (W,)
    diff = float((hand - mle_v[idx]).abs().max()) if words else 0.0
    return ContinuationResult(
        history_count=history,
        order=order,
        shorter=1 < order < config.n,
        words=words,
        counts=tuple(seen[w] for w in words),
        probs_mle=mle_v[idx],  # (W,)
        probs_addk=addk_v[idx],  # (W,)
        vocab_size=V,
        unseen_types=V - len(words),
        unseen_prob_addk=config.k / (history + config.k * V),
        addk_total=float(addk_v.sum()),
        max_abs_diff=diff,
    )


# --- sentence probability -----------------------------------------------------------------------


def _hand_factors(config: NgramConfig, sentence: Sentence, V: int) -> tuple[Factor, ...]:
    """Each factor from the two counts, as on paper: c(h, w) / c(h) and (c(h, w) + k) / (c(h) + k·V)."""
    counts = count_ngrams(config.corpus, config.n)
    hist = history_counts(counts)
    out = []
    for gram in ngrams(sentence, config.n):
        c, ch = counts[gram], hist[gram[:-1]]
        out.append(
            Factor(
                word=gram[-1],
                history=gram[:-1],
                count=c,
                history_count=ch,
                mle=c / ch if ch else None,
                addk=(c + config.k) / (ch + config.k * V),
            )
        )
    return tuple(out)


def _torch_factors(config: NgramConfig, sentence: Sentence, vocab: Sentence) -> tuple[torch.Tensor, torch.Tensor]:
    """The same factors from a count matrix over (history, next word), built and normalised with torch."""
    V = len(vocab)
    rank = {w: i for i, w in enumerate(vocab)}
    grams = ngrams(sentence, config.n)
    # 1) One row per distinct history the sentence uses.
    rows = {h: i for i, h in enumerate(dict.fromkeys(g[:-1] for g in grams))}
    # 2) Scatter every corpus n-gram with one of those histories into the count matrix.
    hits = [(rows[g[:-1]], rank[g[-1]]) for s in config.corpus for g in ngrams(s, config.n) if g[:-1] in rows]
    counts = torch.zeros(len(rows), V, dtype=torch.float64)  # (C, V)
    if hits:
        r, w = torch.tensor(hits, dtype=torch.long).T  # (2, N) -> (N,), (N,)
        counts.index_put_((r, w), torch.ones(len(hits), dtype=torch.float64), accumulate=True)  # (C, V)
    history = counts.sum(dim=1, keepdim=True)  # (C, 1) c(h)
    # 3) Normalise each row: MLE (0/0 for an unseen history becomes 0) and add-k.
    mle = torch.where(history > 0, counts / history.clamp(min=1), torch.zeros_like(counts))  # (C, V)
    addk = (counts + config.k) / (history + config.k * V)  # (C, V)
    # 4) Read the factor of each position: row = its history, column = its word (<unk> if unseen).
    hi = torch.tensor([rows[g[:-1]] for g in grams], dtype=torch.long)  # (P,)
    wi = torch.tensor([rank.get(g[-1], rank[UNK]) for g in grams], dtype=torch.long)  # (P,)
    return mle[hi, wi], addk[hi, wi]  # (P,), (P,)


def sentence_probability(config: NgramConfig, sentence: Sentence) -> SentenceResult:
    """Chain rule with an (n-1)-token window: P(w_1 … w_m <eos>) = Π_i P(w_i | w_{i-n+1} … w_{i-1})."""
    vocab = vocabulary(config.corpus)
    V = len(vocab)
    factors = _hand_factors(config, sentence, V)
    probs_mle, probs_addk = _torch_factors(config, sentence, vocab)  # (P,), (P,)
    probs = probs_addk if config.smoothing else probs_mle  # (P,)
    probability = float(torch.prod(probs))
    log_probability = float(torch.log(probs).sum())  # -inf as soon as one factor is 0

    hand = [f.addk if config.smoothing else (f.mle or 0.0) for f in factors]
    hand_t = torch.tensor(hand, dtype=torch.float64)  # (P,)
    diff = max(float((hand_t - probs).abs().max()), abs(math.prod(hand) - probability))
    zeros = [i for i, p in enumerate(hand) if p == 0.0]
    zeros_mle = [i for i, f in enumerate(factors) if not f.mle]
    return SentenceResult(
        tokens=sentence,
        factors=factors,
        probs=probs,
        probs_mle=probs_mle,
        probs_addk=probs_addk,
        probability=probability,
        log_probability=log_probability,
        first_zero=zeros[0] if zeros else None,
        probability_mle=float(torch.prod(probs_mle)),
        first_zero_mle=zeros_mle[0] if zeros_mle else None,
        vocab_size=V,
        max_abs_diff=diff,
    )
