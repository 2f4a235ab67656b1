"""The runnable script for the next-token page's current inputs (prints the counts and probabilities it shows)."""

from __future__ import annotations

from s2s_core.fmt import DIGITS
from s2s_core.ngram.compute import MAX_N, NgramConfig
from s2s_core.ngram.counting import Sentence

_HEAD = '''"""Next-token prediction by counting: n-gram counts, P(word | history), a sentence's probability."""
from collections import Counter

import torch

corpus = {corpus}  # one sentence per line, split at spaces
n = {n}  # window: the model looks at the previous n - 1 tokens
smoothing = {smoothing}
k = {k!r}  # add-k constant (used when smoothing is on)

SOS, EOS, UNK = "<sos>", "<eos>", "<unk>"


def ngrams(words, m):
    """n-1 start markers in front, one end marker behind: one m-gram per predicted token."""
    tokens = [SOS] * (m - 1) + list(words) + [EOS]
    return [tuple(tokens[i:i + m]) for i in range(len(tokens) - m + 1)]


def count(m):
    counts = Counter()
    for s in corpus:
        counts.update(ngrams(s, m))
    return counts


# Everything that can come next: the corpus words, the end marker, and <unk> for any unseen word.
vocab = list(dict.fromkeys(w for s in corpus for w in s)) + [EOS, UNK]
V = len(vocab)
print("V:", V)
'''

_PREFIX = """
# 1) What follows the prefix? Count the (len(prefix) + 1)-grams that start with it.
prefix = {prefix}
grams = count(len(prefix) + 1)
after = {{g[-1]: c for g, c in grams.items() if g[:-1] == prefix}}
words = sorted(after, key=lambda w: (-after[w], vocab.index(w)))
history = sum(after.values())  # c(prefix)
counts = torch.tensor([float(after[w]) for w in words], dtype=torch.float64)  # (W,)
p_mle = counts / history if history else counts  # (W,) c(prefix, w) / c(prefix)
p_addk = (counts + k) / (history + k * V)  # (W,) (c + k) / (c(prefix) + k V)
print("prefix count:", history)
if 0 < len(prefix) < n - 1:  # fewer words than the model reads: a lower-order estimate
    print("context:", f"{{len(prefix)}} of {{n - 1}} words, a {{len(prefix) + 1}}-gram estimate")
print("continuations:", [(w, after[w], round(p, {digits})) for w, p in zip(words, p_mle.tolist())])
if smoothing:
    print("add-k:", [(w, round(p, {digits})) for w, p in zip(words, p_addk.tolist())])
    print("each unseen word:", round(k / (history + k * V), {digits}))
"""

_SENTENCE = """
# 2) P(sentence) = product over positions of P(word | previous n - 1 tokens).
sentence = {sentence}
grams = count(n)
hist = Counter()
for g, c in grams.items():
    hist[g[:-1]] += c  # c(h): how often the history h is followed by anything
factors = []
for g in ngrams(sentence, n):
    c, ch = grams[g], hist[g[:-1]]
    p = (c + k) / (ch + k * V) if smoothing else (c / ch if ch else 0.0)  # 0/0: history never seen
    factors.append((g[-1], c, ch, p))
probs = torch.tensor([f[3] for f in factors], dtype=torch.float64)  # (P,)
print("factors:", [(w, c, ch, round(p, {digits})) for w, c, ch, p in factors])
print("P(sentence):", f"{{torch.prod(probs).item():.6g}}")
print("log P(sentence):", round(torch.log(probs).sum().item(), {digits}))  # -inf once a factor is 0

# 3) Sparsity: the share of the sentence's m-grams the corpus never had, as m grows.
longest = max(len(s) for s in corpus)
for m in range(1, min({max_n}, longest) + 1):
    seen = count(m)
    grams_m = ngrams(sentence, m)
    unseen = sum(1 for g in grams_m if seen[g] == 0)
    print(f"unseen {{m}}-grams: {{unseen}}/{{len(grams_m)}}")
"""


def script(config: NgramConfig, prefix: Sentence | None, sentence: Sentence | None) -> str:
    """A self-contained script; a part whose input is invalid (None) is left out."""
    corpus = "[\n" + "".join(f"    {list(s)!r},\n" for s in config.corpus) + "]"
    out = _HEAD.format(corpus=corpus, n=config.n, smoothing=config.smoothing, k=config.k)
    if prefix is not None:
        out += _PREFIX.format(prefix=repr(tuple(prefix)), digits=DIGITS)
    if sentence is not None:
        out += _SENTENCE.format(sentence=repr(tuple(sentence)), max_n=MAX_N, digits=DIGITS)
    return out
