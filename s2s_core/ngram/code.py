"""The runnable script for the next-token page's current inputs (prints the counts and probabilities it shows)."""

from __future__ import annotations

from s2s_core.fmt import DIGITS, script_defs
from s2s_core.ngram import embedding as emb
from s2s_core.ngram import window as win
from s2s_core.ngram.compute import NgramConfig
from s2s_core.ngram.counting import Sentence
from s2s_core.ngram.fields import MAX_N

_HEAD = '''# %% heading="ngram.title" notes="ngram.intro"
"""Next-token prediction by counting: n-gram counts, P(word | history), a sentence's probability."""
from collections import Counter

import torch

# %% Your numbers heading="ui.notebook.inputs"
corpus = {corpus}  # one sentence per line, split at spaces
n = {n}  # window: the model looks at the previous n - 1 tokens
smoothing = {smoothing}
k = {k!r}  # add-k constant (used when smoothing is on)

# %% Counting n-grams notes="ngram.markers"
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
# %% notes="ngram.notice.cont"
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
# %% notes="{notes}"
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

# %% notes="ngram.notice.sparse ngram.sparse.monotone"
# 3) Sparsity: the share of the sentence's m-grams the corpus never had, as m grows.
longest = max(len(s) for s in corpus)
for m in range(1, min({max_n}, longest) + 1):
    seen = count(m)
    grams_m = ngrams(sentence, m)
    unseen = sum(1 for g in grams_m if seen[g] == 0)
    print(f"unseen {{m}}-grams: {{unseen}}/{{len(grams_m)}}")
"""

_DEFS = """
# %% Number formats, as the page writes them
{defs}


def prob(p):
    return sci(p) if p < 1e-4 else num(p)
"""

_EMBEDDING = """
# %% notes="ngram.emb.intro ngram.notice.emb"
# 4) Counting vs a tiny embedding model: P(next | previous) = softmax(U e(previous) + b), trained right here.
previous_word, next_word, SEED = {previous!r}, {word!r}, {seed}
E, STEPS, LR, L2, INIT_SCALE = {E}, {steps}, {lr!r}, {l2!r}, {init!r}
words = list(dict.fromkeys(w for s in corpus for w in s))
prev_tokens, next_tokens = [SOS] + words, words + [EOS]
pair_counts = torch.zeros(len(prev_tokens), len(next_tokens), dtype=torch.float64)  # (A, V) c(previous, next)
for g, c in count(2).items():
    pair_counts[prev_tokens.index(g[0]), next_tokens.index(g[1])] = c
gen = torch.Generator().manual_seed(SEED)
vectors = (torch.randn(len(prev_tokens), E, generator=gen, dtype=torch.float64) * INIT_SCALE).requires_grad_()
U = (torch.randn(len(next_tokens), E, generator=gen, dtype=torch.float64) * INIT_SCALE).requires_grad_()
b = torch.zeros(len(next_tokens), dtype=torch.float64, requires_grad=True)
opt = torch.optim.Adam([vectors, U, b], lr=LR, foreach=False)  # the page writes these steps out by hand
N = pair_counts.sum()
for _ in range(STEPS):
    opt.zero_grad()
    log_p = torch.log_softmax(vectors @ U.T + b, dim=1)  # (A, E) @ (E, V) + (V,) -> (A, V)
    loss = -(pair_counts * log_p).sum() / N + L2 * (vectors.pow(2).sum() + U.pow(2).sum())
    loss.backward()
    opt.step()
with torch.no_grad():
    probs = torch.softmax(vectors @ U.T + b, dim=1)  # (A, V)
    unit = vectors / vectors.norm(dim=1, keepdim=True)  # (A, E)
    cosine = unit @ unit.T  # (A, A): 1 = the same direction
i, j = prev_tokens.index(previous_word), next_tokens.index(next_word)
print("counting P(next | previous):", prob((pair_counts[i, j] / pair_counts[i].sum()).item()))
print("embedding model P(next | previous):", prob(probs[i, j].item()))
print("blind guess 1/V:", prob(1 / len(next_tokens)))
others = [a for a in range(len(prev_tokens)) if a != i]
seen = [a for a in others if pair_counts[a, j] > 0]  # tokens the corpus has right before next_word
unseen = [a for a in others if pair_counts[a, j] == 0]
if seen:
    near = max(seen, key=lambda a: cosine[i, a].item())
    print("nearest seen before next:", prev_tokens[near], num(cosine[i, near].item()), prob(probs[near, j].item()))
if unseen:
    far = min(unseen, key=lambda a: cosine[i, a].item())
    print("pointing away:", prev_tokens[far], num(cosine[i, far].item()), prob(probs[far, j].item()))
"""


_WINDOW = """
# %% notes="ngram.net.intro ngram.notice.window"
# 5) The fixed-window network: embed the previous W = n - 1 tokens, concatenate, tanh hidden layer, softmax.
from torch import nn

W, E, H, SEED, STEPS, LR, INIT_SCALE = {window}, {E}, {hidden}, {seed}, {steps}, {lr!r}, {init!r}
words = list(dict.fromkeys(w for s in corpus for w in s))
inputs, outputs = [SOS] + words + [UNK], words + [EOS]
grams = count(W + 1)
windows = list(dict.fromkeys(g[:-1] for g in grams))  # distinct histories, first seen first
ids = torch.tensor([[inputs.index(w) for w in h] for h in windows])  # (C, W)
targets = torch.zeros(len(windows), len(outputs), dtype=torch.float64)  # (C, V) counts of what followed
for g, c in grams.items():
    targets[windows.index(g[:-1]), outputs.index(g[-1])] = c


class WindowLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(len(inputs), E, dtype=torch.float64)
        self.hidden = nn.Linear(W * E, H, dtype=torch.float64)
        self.out = nn.Linear(H, len(outputs), dtype=torch.float64)

    def forward(self, ids):
        x = self.embed(ids).flatten(1)  # (B, W) -> (B, W, E) -> (B, W E)
        return self.out(torch.tanh(self.hidden(x)))  # (B, W E) -> (B, H) -> (B, V)


net = WindowLM()
gen = torch.Generator().manual_seed(SEED)
with torch.no_grad():
    for p in net.parameters():  # the page's own start: normal(0, 1) * INIT_SCALE, in this order
        p.copy_(torch.randn(p.shape, generator=gen, dtype=torch.float64) * INIT_SCALE)
opt = torch.optim.Adam(net.parameters(), lr=LR, foreach=False)  # the page writes these steps out by hand
for _ in range(STEPS):
    opt.zero_grad()
    loss = -(targets * torch.log_softmax(net(ids), dim=1)).sum() / targets.sum()  # cross-entropy per n-gram
    loss.backward()
    opt.step()


def window_of(context):
    padded = [SOS] * max(0, W - len(context)) + list(context)
    return padded[len(padded) - W:]


def predict(context):
    \"\"\"By hand: embedding lookup -> concat -> tanh(W_h x + b_h) -> U h + b_U -> softmax.\"\"\"
    ids_w = [inputs.index(w) if w in inputs else inputs.index(UNK) for w in window_of(context)]
    with torch.no_grad():
        x = net.embed.weight[ids_w].reshape(-1)  # (W, E) -> (W E,)
        h = torch.tanh(net.hidden.weight @ x + net.hidden.bias)  # (H,)
        probs = torch.softmax(net.out.weight @ h + net.out.bias, dim=0)  # (V,)
        module = torch.softmax(net(torch.tensor([ids_w])), dim=1)[0]  # (V,) the module's own forward
    return probs, (probs - module).abs().max().item()


print("final loss:", num(loss.item()))
"""

_WINDOW_PREFIX = """
# %% The window network after your prefix
context = {prefix}
probs, diff = predict(context)
best = int(torch.argmax(probs))
print("window:", window_of(context))
print("window network top:", outputs[best], prob(probs[best].item()))
print("hand vs module:", sci(diff))
after = {{g[-1]: c for g, c in grams.items() if list(g[:-1]) == window_of(context)}}
print("counting after the window:", sorted(after.items(), key=lambda wc: (-wc[1], outputs.index(wc[0]))))
"""

_WINDOW_BLIND = """
# %% Outside the window
# Two contexts that differ only before the window: the network cannot tell them apart.
a, b = {a}, {b}
print("outside the window, max difference:", num((predict(a)[0] - predict(b)[0]).abs().max().item()))
"""


def script(
    config: NgramConfig,
    prefix: Sentence | None,
    sentence: Sentence | None,
    pair: tuple[str, str, int] | None = None,
    network: tuple[int, int, Sentence | None, Sentence | None] | None = None,
) -> str:
    """A self-contained script; a part whose input is invalid (None) is left out. pair = (previous word, next word,
    model seed) for the embedding part; network = (hidden size, seed, context a, context b) for the window
    network's part (a and b: the two contexts that differ only before the window, or None)."""
    corpus = "[\n" + "".join(f"    {list(s)!r},\n" for s in config.corpus) + "]"
    out = _HEAD.format(corpus=corpus, n=config.n, smoothing=config.smoothing, k=config.k)
    if prefix is not None:
        out += _PREFIX.format(prefix=repr(tuple(prefix)), digits=DIGITS)
    if sentence is not None:
        notes = "ngram.notice.smooth" if config.smoothing else "ngram.notice.zero"
        out += _SENTENCE.format(sentence=repr(tuple(sentence)), max_n=MAX_N, digits=DIGITS, notes=notes)
    if pair is not None or (network is not None and config.n > 1):
        out += _DEFS.format(defs=script_defs("num", "sci"))
    if pair is not None:
        previous, word, seed = pair
        out += _EMBEDDING.format(
            previous=previous,
            word=word,
            seed=seed,
            E=emb.E,
            steps=emb.STEPS,
            lr=emb.LR,
            l2=emb.L2,
            init=emb.INIT_SCALE,
        )
    if network is not None and config.n > 1:
        hidden, seed, a, b = network
        out += _WINDOW.format(
            window=config.n - 1, E=win.E, hidden=hidden, seed=seed, steps=win.STEPS, lr=win.LR, init=win.INIT_SCALE
        )
        if prefix is not None:
            out += _WINDOW_PREFIX.format(prefix=repr(list(prefix)))
        if a is not None and b is not None:
            out += _WINDOW_BLIND.format(a=repr(list(a)), b=repr(list(b)))
    return out
