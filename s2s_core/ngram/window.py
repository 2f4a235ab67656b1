"""The fixed-window feed-forward language model of the study note's §1, trained live beside the counts.

P(next | the previous W = n − 1 tokens) = softmax(U · tanh(W_h · [e(w_1); …; e(w_W)] + b_h) + b_U): each of the
W tokens is looked up in an embedding table, the W vectors are concatenated, one tanh hidden layer follows, and a
softmax over the vocabulary gives the next token. It reads exactly the window the n-gram counts read, so a word
before the window cannot change its prediction (shown with two contexts that differ only there); what it adds
is that similar words get similar vectors, so a window the counts never saw still gets a distribution.

Trained on the page's corpus: seeded, full batch, a fixed number of Adam steps (embedding.adam_step, written out
so the first visit does not import torch._dynamo), a cap on the vocabulary; float64 throughout.

Shapes: W window (n − 1 tokens), A input tokens (<sos>, corpus words, <unk>), V next tokens (corpus words,
<eos>), E embedding size, H hidden size, C distinct windows (histories) in the corpus, N n-grams in the corpus.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn

from s2s_core.errors import InputError
from s2s_core.ngram import fields
from s2s_core.ngram.counting import Corpus, Sentence, count_ngrams, history_counts
from s2s_core.ngram.embedding import MAX_WORDS, adam_step
from s2s_core.vocab import EOS, SOS, UNK

E = 6  # numbers per token vector
STEPS = 250  # full-batch Adam steps: ~0.1 s for the default corpus on one core
LR = 0.03
INIT_SCALE = 0.3  # the starting weights: normal(0, 1) times this
TOP = 5  # words listed per prediction
SAME_TOL = 0.0  # two contexts with the same window: the forward pass is the same arithmetic, so exactly equal
CHECK_TOL = 1e-12  # hand forward vs the torch module, both float64


@dataclass(frozen=True)
class WindowConfig:
    """The corpus, the window (n − 1 of the page's n) and the model's own inputs (hashable: a cache key)."""

    corpus: Corpus
    window: int  # W >= 1
    hidden: int = fields.DEFAULT_WIN_HIDDEN  # H
    seed: int = fields.DEFAULT_SEED


class WindowLM(nn.Module):
    """embedding -> concat -> tanh(Linear) -> Linear: the logits over the next token."""

    def __init__(self, inputs: int, window: int, hidden: int, outputs: int) -> None:
        super().__init__()
        # skip_init: no draw from the global generator (sessions share it); train() fills the weights from its own.
        self.embed = nn.utils.skip_init(nn.Embedding, inputs, E, dtype=torch.float64)
        self.hidden = nn.utils.skip_init(nn.Linear, window * E, hidden, dtype=torch.float64)
        self.out = nn.utils.skip_init(nn.Linear, hidden, outputs, dtype=torch.float64)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        x = self.embed(ids).flatten(1)  # (B, W) -> (B, W, E) -> (B, W·E)
        return self.out(torch.tanh(self.hidden(x)))  # (B, W·E) -> (B, H) -> (B, V)


@dataclass(frozen=True)
class WindowModel:
    """The trained network and what it was trained on (never changed after training: a cached result)."""

    config: WindowConfig
    inputs: Sentence  # (A,) <sos>, the corpus words, <unk>
    outputs: Sentence  # (V,) the corpus words, <eos>
    module: WindowLM
    grams: int  # N: the corpus's n-grams (one per predicted token)
    histories: int  # C: distinct windows among them
    steps: int
    loss_start: float  # cross-entropy per n-gram at the first step ...
    loss_end: float  # ... and after the last
    unk_untouched: bool  # <unk>'s vector is still its starting value (no corpus n-gram has <unk>)


@dataclass(frozen=True)
class Forward:
    """One prediction, every intermediate of the hand computation, and the module's own output beside it."""

    context: Sentence  # the tokens before the next word, as given (may be longer than the window)
    window: Sentence  # (W,) what the network reads: the last W tokens, <sos> in front when there are fewer
    outside: Sentence  # the context's tokens before the window: they cannot change the prediction
    unknown: Sentence  # window tokens the corpus never has: read as <unk>
    ids: tuple[int, ...]  # (W,) rows of the embedding table
    embedded: torch.Tensor  # (W, E) the looked-up vectors
    x: torch.Tensor  # (W·E,) concatenated
    pre: torch.Tensor  # (H,) W_h · x + b_h
    hidden: torch.Tensor  # (H,) tanh(pre)
    logits: torch.Tensor  # (V,) U · hidden + b_U
    probs: torch.Tensor  # (V,) softmax(logits)
    module_probs: torch.Tensor  # (V,) softmax of the nn.Module's own forward on the same ids
    max_abs_diff: float  # hand vs module
    top: tuple[tuple[str, float], ...]  # (TOP,) the most likely next tokens, most likely first


@dataclass(frozen=True)
class Counted:
    """Counting's prediction after the same window: the n-gram model's own c(h, w) / c(h)."""

    history_count: int  # c(h)
    words: Sentence  # the words seen after h, most frequent first
    counts: tuple[int, ...]
    best: Sentence  # the most frequent ones (ties kept)
    unseen_words: int  # next tokens never seen after h (V minus the seen ones)
    network_unseen_mass: float  # the network's total probability on those


@dataclass(frozen=True)
class BlindSpot:
    """Two contexts that differ only before the window, and the network's two predictions."""

    a: Forward
    b: Forward
    position: int  # 0-based index of the changed word in the context
    replaced: str  # the word in a ...
    by: str  # ... and in b
    max_abs_diff: float  # |P_a − P_b| over the vocabulary


@dataclass(frozen=True)
class WindowView:
    """What the page's window tab shows: after the prefix, the network beside counting; the blind spot."""

    forward: Forward
    counted: Counted
    agree: bool  # the network's most likely word is one of counting's most frequent (c(h) > 0)
    blind: BlindSpot | None  # None when the sentence has no word before the window (nothing to vary)


# --- training ---------------------------------------------------------------------------------------------


def check_window(config_n: int) -> int:
    """W = n − 1; the network needs at least one previous token."""
    if config_n < 2:
        raise InputError("ngram.error.win_unigram", fields.N.label, n=config_n)
    return config_n - 1


def vocab(corpus: Corpus) -> tuple[Sentence, Sentence]:
    """(inputs, outputs); a vocabulary over the cap raises an InputError naming the corpus."""
    seen: dict[str, None] = {}
    for sentence in corpus:
        seen.update(dict.fromkeys(sentence))
    words = tuple(seen)
    if len(words) > MAX_WORDS:
        raise InputError("ngram.error.win_vocab", fields.CORPUS.label, count=len(words), limit=MAX_WORDS)
    return (SOS, *words, UNK), (*words, EOS)


def training_data(config: WindowConfig, inputs: Sentence, outputs: Sentence) -> tuple[torch.Tensor, torch.Tensor]:
    """(C, W) window ids and (C, V) counts of what followed each window: every corpus n-gram once."""
    row_of, col_of = {w: i for i, w in enumerate(inputs)}, {w: i for i, w in enumerate(outputs)}
    grams = count_ngrams(config.corpus, config.window + 1)
    windows = list(history_counts(grams))  # distinct histories, in first-seen order
    index = {h: i for i, h in enumerate(windows)}
    ids = torch.tensor([[row_of[w] for w in h] for h in windows], dtype=torch.long)  # (C, W)
    counts = torch.zeros(len(windows), len(outputs), dtype=torch.float64)  # (C, V)
    for gram, c in grams.items():
        counts[index[gram[:-1]], col_of[gram[-1]]] = c
    return ids, counts


def train(config: WindowConfig) -> WindowModel:
    """Full-batch Adam on the corpus's n-grams: the mean cross-entropy of the next token."""
    inputs, outputs = vocab(config.corpus)
    ids, counts = training_data(config, inputs, outputs)  # (C, W), (C, V)
    N = counts.sum()
    module = WindowLM(len(inputs), config.window, config.hidden, len(outputs))
    # 1) Seeded start from a private generator, in the order of module.parameters().
    g = torch.Generator().manual_seed(config.seed)
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.randn(p.shape, generator=g, dtype=torch.float64) * INIT_SCALE)
    unk_start = module.embed.weight[inputs.index(UNK)].detach().clone()  # (E,)
    params = list(module.parameters())
    state = [(torch.zeros_like(p), torch.zeros_like(p)) for p in params]
    # 2) A fixed number of steps: bounded whatever the corpus (C <= N, A and V <= MAX_WORDS + 2).
    losses = []
    for step in range(1, STEPS + 1):
        for p in params:
            p.grad = None
        log_p = torch.log_softmax(module(ids), dim=1)  # (C, V)
        loss = -(counts * log_p).sum() / N  # cross-entropy per n-gram
        loss.backward()
        adam_step(params, state, step, lr=LR)
        losses.append(float(loss.detach()))
    module.requires_grad_(False)
    return WindowModel(
        config=config,
        inputs=inputs,
        outputs=outputs,
        module=module,
        grams=int(N),
        histories=int(ids.shape[0]),
        steps=STEPS,
        loss_start=losses[0],
        loss_end=losses[-1],
        unk_untouched=bool(torch.equal(module.embed.weight[inputs.index(UNK)], unk_start)),
    )


# --- one prediction, by hand and by the module ---------------------------------------------------------------


def forward(model: WindowModel, context: Sentence) -> Forward:
    """The network's next-token distribution after `context` (only its last W tokens count)."""
    W = model.config.window
    padded = (SOS,) * max(0, W - len(context)) + tuple(context)
    window, outside = padded[len(padded) - W :], tuple(context[: max(0, len(context) - W)])
    row_of = {w: i for i, w in enumerate(model.inputs)}
    unknown = tuple(w for w in window if w not in row_of)
    ids = tuple(row_of.get(w, row_of[UNK]) for w in window)
    m = model.module
    # 1) embedding lookup -> concat -> tanh(W_h x + b_h) -> U h + b_U -> softmax, written out.
    embedded = m.embed.weight[list(ids)]  # (A, E)[W] -> (W, E)
    x = embedded.reshape(-1)  # (W, E) -> (W·E,)
    pre = m.hidden.weight @ x + m.hidden.bias  # (H, W·E) @ (W·E,) + (H,) -> (H,)
    hidden = torch.tanh(pre)  # (H,)
    logits = m.out.weight @ hidden + m.out.bias  # (V, H) @ (H,) + (V,) -> (V,)
    probs = torch.softmax(logits, dim=0)  # (V,)
    # 2) The module's own forward on the same ids.
    module_probs = torch.softmax(m(torch.tensor([ids], dtype=torch.long)), dim=1)[0]  # (1, W) -> (1, V) -> (V,)
    order = torch.argsort(probs, descending=True, stable=True)[:TOP].tolist()
    return Forward(
        context=tuple(context),
        window=window,
        outside=outside,
        unknown=unknown,
        ids=ids,
        embedded=embedded,
        x=x,
        pre=pre,
        hidden=hidden,
        logits=logits,
        probs=probs,
        module_probs=module_probs,
        max_abs_diff=float((probs - module_probs).abs().max()),
        top=tuple((model.outputs[i], float(probs[i])) for i in order),
    )


def counted(model: WindowModel, fwd: Forward) -> Counted:
    """Counting after the very window the network read (<sos> padding included): the n-gram model's own table."""
    grams = count_ngrams(model.config.corpus, model.config.window + 1)
    seen = {gram[-1]: c for gram, c in grams.items() if gram[:-1] == fwd.window}
    col_of = {w: i for i, w in enumerate(model.outputs)}
    words = tuple(sorted(seen, key=lambda w: (-seen[w], col_of[w])))
    most = max(seen.values(), default=0)
    unseen = [j for j, w in enumerate(model.outputs) if w not in seen]
    return Counted(
        history_count=sum(seen.values()),
        words=words,
        counts=tuple(seen[w] for w in words),
        best=tuple(w for w in words if seen[w] == most),
        unseen_words=len(unseen),
        network_unseen_mass=float(fwd.probs[unseen].sum()) if unseen else 0.0,
    )


def _replacement(corpus: Corpus, position: int, word: str) -> str | None:
    """Another word for `position`: the corpus's most frequent word at that position in a sentence (else anywhere),
    not `word` itself; ties go to the first seen."""
    for pool in ([s[position] for s in corpus if len(s) > position], [w for s in corpus for w in s]):
        freq: dict[str, int] = {}
        for w in pool:
            freq[w] = freq.get(w, 0) + 1
        others = [w for w in freq if w != word]
        if others:
            return max(others, key=lambda w: freq[w])
    return None


def blind_contexts(corpus: Corpus, window: int, sentence: Sentence) -> tuple[Sentence, Sentence] | None:
    """The words before the sentence's last word, and the same words with the first one swapped for another corpus
    word; None when every word fits in the window (nothing outside it to vary)."""
    context = tuple(sentence[:-1])
    if len(context) <= window:
        return None
    by = _replacement(corpus, 0, context[0])
    return None if by is None else (context, (by, *context[1:]))


def blind_spot(model: WindowModel, sentence: Sentence) -> BlindSpot | None:
    """Predicting the sentence's last word from the words before it, and from the same words with the first one
    outside the window swapped: the window is the same, so is the whole distribution."""
    contexts = blind_contexts(model.config.corpus, model.config.window, sentence)
    if contexts is None:
        return None
    a, b = forward(model, contexts[0]), forward(model, contexts[1])
    diff = float((a.probs - b.probs).abs().max())  # (V,) vs (V,)
    return BlindSpot(a=a, b=b, position=0, replaced=a.context[0], by=b.context[0], max_abs_diff=diff)


def window_view(model: WindowModel, prefix: Sentence, sentence: Sentence | None) -> WindowView:
    fwd = forward(model, prefix)
    cnt = counted(model, fwd)
    return WindowView(
        forward=fwd,
        counted=cnt,
        agree=cnt.history_count > 0 and fwd.top[0][0] in cnt.best,
        blind=blind_spot(model, sentence) if sentence else None,
    )


def parse_window(corpus: Corpus, n: int, hidden: object, seed: object) -> WindowConfig:
    """The tab's inputs, checked through their fields: the window from the page's n, the hidden size, the seed."""
    window = check_window(n)
    config = WindowConfig(corpus, window, fields.WIN_HIDDEN.check(hidden), fields.WIN_SEED.check(seed))
    vocab(corpus)
    return config


def same(spot: BlindSpot) -> bool:
    """The two predictions are the same to the last bit."""
    return spot.max_abs_diff <= SAME_TOL and math.isfinite(spot.max_abs_diff)
