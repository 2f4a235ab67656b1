"""A tiny embedding model beside the counts (seed §1): P(next | previous word) = softmax(U·e(previous) + b).

Counting treats every word pair on its own, so a pair the corpus never had gets 0. This model gives every word
a vector and predicts the next word from it; a small weight penalty keeps it from memorising the counts, so
words followed by similar words end up pointing the same way and share what was learned. It is trained live on
the page's corpus: seeded, with a fixed number of steps and a cap on the vocabulary.

Shapes: A previous tokens (<sos> + corpus words), V next tokens (corpus words + <eos>), E embedding size (2, so
the vectors can be drawn), N word pairs (bigrams) in the corpus.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from s2s_core.errors import InputError
from s2s_core.ngram import fields
from s2s_core.ngram.counting import Corpus, Sentence, count_ngrams, vocabulary
from s2s_core.validate import check_text
from s2s_core.vocab import EOS, SOS, SPECIALS

E = 2  # two numbers per word: few enough to draw, and too few to give every word its own direction
STEPS = 300  # Adam steps (full batch): ~0.1 s on one core for the default corpus
LR = 0.08
L2 = 0.005  # weight penalty on the vectors and U: without it the model would copy the counts (unseen -> ~0)
INIT_SCALE = 0.1
MAX_WORDS = 120  # distinct corpus words the tiny model trains on (A·V logits per step)
FIELD = fields.PAIR.label


@dataclass(frozen=True)
class EmbeddingConfig:
    """The corpus and the seed (hashable, so it is a cache key); the rest are this module's constants."""

    corpus: Corpus
    seed: int = 0


@dataclass(frozen=True)
class EmbeddingModel:
    """The trained model and the counts it was trained on."""

    previous: Sentence  # (A,) <sos>, then the corpus words in first-appearance order
    following: Sentence  # (V,) the corpus words, then <eos>
    counts: torch.Tensor  # (A, V) c(previous, next): the corpus's word pairs
    probs: torch.Tensor  # (A, V) the trained model's P(next | previous); every entry > 0
    vectors: torch.Tensor  # (A, E) the learned embedding of each previous token
    cosine: torch.Tensor  # (A, A) cosine between those vectors
    pairs: int  # N: word pairs trained on
    steps: int  # Adam steps taken (always STEPS)
    loss_start: float  # cross-entropy per pair (the penalty left out) at the first step ...
    loss_end: float  # ... and after the last


@dataclass(frozen=True)
class PairResult:
    """One pair "previous word" → "next word": counting vs the embedding model, and the words that explain it."""

    previous: str
    word: str
    count: int  # c(previous, word)
    previous_count: int  # c(previous): how often previous is followed by anything
    p_count: float  # count / previous_count: the counting (maximum-likelihood) estimate
    p_model: float  # the embedding model's P(word | previous)
    vocab: int  # V: next tokens the model chooses from
    uniform: float  # 1 / V: a blind guess
    nearest: str | None  # of the tokens the corpus has right before `word` (not previous): the closest in direction
    nearest_cosine: float | None  # cos(e(previous), e(nearest))
    nearest_p_count: float | None  # counting's P(word | nearest) (> 0: it was seen)
    nearest_p_model: float | None  # the model's P(word | nearest)
    far: str | None  # of the tokens never seen right before `word` (not previous): the one pointing most away
    far_cosine: float | None
    far_p_model: float | None  # the model's P(word | far)
    verdict: str  # "seen" (count > 0), "borrowed" (unseen, model above 1/V) or "weak" (unseen, not above): the text


def parse_seed(seed: object) -> int:
    return fields.EMB_SEED.check(seed)


def parse_pair(text: object, corpus: Corpus) -> tuple[str, str]:
    """Two words typed by the learner, both corpus words: the tiny model has vectors for those only."""
    tokens = check_text(text, FIELD, max_chars=fields.PAIR.max_chars).split()
    for tok in tokens:
        if tok in SPECIALS:
            raise InputError("ngram.error.reserved", FIELD, token=tok)
    if len(tokens) != 2:
        raise InputError("ngram.error.pair_count", FIELD, count=len(tokens))
    known = set(vocabulary(corpus))
    for tok in tokens:
        if tok not in known:
            raise InputError("ngram.error.pair_unknown", FIELD, token=tok)
    return tokens[0], tokens[1]


def parse_embedding(pair_text: object, seed: object, corpus: Corpus) -> tuple[EmbeddingConfig, str, str]:
    """The embedding section's inputs, checked in the order they are named: the pair (two corpus words), the seed,
    then a corpus the tiny model can train on. Returns (config, previous word, next word)."""
    previous, word = parse_pair(pair_text, corpus)
    config = EmbeddingConfig(corpus=corpus, seed=parse_seed(seed))
    _corpus_words(corpus)
    return config, previous, word


def _corpus_words(corpus: Corpus) -> Sentence:
    """The corpus words the tiny model gives vectors to; over the cap an InputError names the corpus."""
    words = vocabulary(corpus)[:-2]  # corpus words only (vocabulary ends with <eos>, <unk>)
    if len(words) > MAX_WORDS:
        raise InputError("ngram.error.emb_vocab", fields.CORPUS.label, count=len(words), limit=MAX_WORDS)
    return words


def bigram_counts(corpus: Corpus) -> tuple[Sentence, Sentence, torch.Tensor]:
    """(previous tokens, next tokens, (A, V) counts); the vocabulary over the cap raises an InputError."""
    words = _corpus_words(corpus)
    previous, following = (SOS, *words), (*words, EOS)
    row, col = {w: i for i, w in enumerate(previous)}, {w: i for i, w in enumerate(following)}
    counts = torch.zeros(len(previous), len(following), dtype=torch.float64)  # (A, V)
    for (a, b), c in count_ngrams(corpus, 2).items():
        counts[row[a], col[b]] = c
    return previous, following, counts


BETAS, EPS = (0.9, 0.999), 1e-8  # torch.optim.Adam's defaults


def adam_step(
    params: list[torch.Tensor], state: list[tuple[torch.Tensor, torch.Tensor]], step: int, lr: float = LR
) -> None:
    """One step of Adam written out, in torch.optim.Adam's own order of operations (tested equal to it).

    Written by hand because the first torch.optim optimizer in a process imports torch._dynamo (seconds on a
    loaded machine), which the web server would pay on the first visit to this page.
    """
    beta1, beta2 = BETAS
    with torch.no_grad():
        for p, (m, v) in zip(params, state, strict=True):
            g = p.grad
            m.lerp_(g, 1 - beta1)  # running mean of the gradient
            v.mul_(beta2).addcmul_(g, g, value=1 - beta2)  # running mean of its square
            step_size = lr / (1 - beta1**step)
            denom = (v.sqrt() / (1 - beta2**step) ** 0.5).add_(EPS)
            p.addcdiv_(m, denom, value=-step_size)


def train(config: EmbeddingConfig) -> EmbeddingModel:
    """Full-batch Adam (adam_step) on the corpus's word pairs: cross-entropy per pair plus L2·(‖vectors‖² + ‖U‖²)."""
    previous, following, counts = bigram_counts(config.corpus)
    A, V = counts.shape
    N = counts.sum()
    # 1) Seeded small random start (a private generator: sessions never share the global one).
    g = torch.Generator().manual_seed(config.seed)
    vectors = (torch.randn(A, E, generator=g, dtype=torch.float64) * INIT_SCALE).requires_grad_(True)  # (A, E)
    U = (torch.randn(V, E, generator=g, dtype=torch.float64) * INIT_SCALE).requires_grad_(True)  # (V, E)
    b = torch.zeros(V, dtype=torch.float64, requires_grad=True)  # (V,)
    params = [vectors, U, b]
    state = [(torch.zeros_like(p), torch.zeros_like(p)) for p in params]  # Adam's two running means per tensor
    # 2) A fixed number of steps: the cost is bounded whatever the corpus (A, V <= MAX_WORDS + 1).
    losses = []
    for step in range(1, STEPS + 1):
        for p in params:
            p.grad = None
        log_p = torch.log_softmax(vectors @ U.T + b, dim=1)  # (A, E) @ (E, V) + (V,) -> (A, V)
        nll = -(counts * log_p).sum() / N  # cross-entropy per word pair
        loss = nll + L2 * (vectors.pow(2).sum() + U.pow(2).sum())
        loss.backward()
        adam_step(params, state, step)
        losses.append(float(nll.detach()))
    # 3) The trained model's probabilities and the directions of its vectors.
    with torch.no_grad():
        probs = torch.softmax(vectors @ U.T + b, dim=1)  # (A, V)
        unit = vectors / vectors.norm(dim=1, keepdim=True)  # (A, E)
        cosine = unit @ unit.T  # (A, A)
    return EmbeddingModel(
        previous=previous,
        following=following,
        counts=counts,
        probs=probs,
        vectors=vectors.detach(),
        cosine=cosine,
        pairs=int(N),
        steps=STEPS,
        loss_start=losses[0],
        loss_end=losses[-1],
    )


def pair_view(model: EmbeddingModel, previous: str, word: str) -> PairResult:
    """Counting vs the model for one pair, the nearest token seen before `word`, and one pointing away."""
    i, j = model.previous.index(previous), model.following.index(word)
    row = model.counts[i]  # (V,)
    count, previous_count = int(row[j]), int(row.sum())
    p_model = float(model.probs[i, j])
    uniform = 1.0 / len(model.following)
    others = [a for a in range(len(model.previous)) if a != i]
    seen = [a for a in others if model.counts[a, j] > 0]  # tokens the corpus has right before `word`
    unseen = [a for a in others if model.counts[a, j] == 0]
    near = max(seen, key=lambda a: float(model.cosine[i, a])) if seen else None  # ties: the first in order
    far = min(unseen, key=lambda a: float(model.cosine[i, a])) if unseen else None
    if count > 0:
        verdict = "seen"
    else:
        verdict = "borrowed" if p_model > uniform else "weak"
    return PairResult(
        previous=previous,
        word=word,
        count=count,
        previous_count=previous_count,
        p_count=count / previous_count,
        p_model=p_model,
        vocab=len(model.following),
        uniform=uniform,
        nearest=None if near is None else model.previous[near],
        nearest_cosine=None if near is None else float(model.cosine[i, near]),
        nearest_p_count=None if near is None else float(model.counts[near, j] / model.counts[near].sum()),
        nearest_p_model=None if near is None else float(model.probs[near, j]),
        far=None if far is None else model.previous[far],
        far_cosine=None if far is None else float(model.cosine[i, far]),
        far_p_model=None if far is None else float(model.probs[far, j]),
        verdict=verdict,
    )
