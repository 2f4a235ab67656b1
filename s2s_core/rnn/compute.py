"""The math of the RNN-unrolling page: a hand-written loop of h_t = tanh(W_x·x_t + W_h·h_(t-1) + b) vs nn.RNN.

Shapes: S time steps (tokens of the sentence), E embedding size, H hidden size. Batch B = 1 throughout.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass

import torch
from torch import nn

from s2s_core.own_weights import OwnWeights
from s2s_core.rng import isolated
from s2s_core.rnn import fields
from s2s_core.rnn.fields import DEFAULT_E, DEFAULT_H, DEFAULT_SEED, DEFAULT_SENTENCES, MAX_E, MAX_H, MAX_S
from s2s_core.validate import parse_matrix
from s2s_core.vocab import tokenize

Matrix = tuple[tuple[float, ...], ...]


@dataclass(frozen=True)
class RnnConfig:
    """Everything the page's inputs decide (hashable, so it is a cache key).

    W_x, W_h, b are None when the weights come from the seed; tables typed by the learner override them.
    """

    tokens: tuple[str, ...] = ("I", "read", "a", "book")
    E: int = DEFAULT_E
    H: int = DEFAULT_H
    seed: int = DEFAULT_SEED
    W_x: Matrix | None = None  # (H, E)
    W_h: Matrix | None = None  # (H, H)
    b: tuple[float, ...] | None = None  # (H,)
    own: OwnWeights | None = None  # a learner's uploaded nn.RNN (s2s_core/own_weights.py): the weights, tables unused


@dataclass(frozen=True)
class RnnWeights:
    """nn.RNN's own parameters: PyTorch keeps two biases, the formula's b is their sum."""

    W_x: torch.Tensor  # (H, E) = rnn.weight_ih_l0
    W_h: torch.Tensor  # (H, H) = rnn.weight_hh_l0
    b_ih: torch.Tensor  # (H,)
    b_hh: torch.Tensor  # (H,)

    @property
    def b(self) -> torch.Tensor:
        return self.b_ih + self.b_hh  # (H,)


@dataclass(frozen=True)
class RnnResult:
    """Every intermediate the page shows; row t of each (S, ·) tensor belongs to step t+1."""

    tokens: tuple[str, ...]
    x: torch.Tensor  # (S, E) the input vector of each token
    weights: RnnWeights
    h_prev: torch.Tensor  # (S, H) h_(t-1); row 0 is h_0 = 0
    wx: torch.Tensor  # (S, H) W_x·x_t
    wh: torch.Tensor  # (S, H) W_h·h_(t-1)
    pre: torch.Tensor  # (S, H) W_x·x_t + W_h·h_(t-1) + b, before tanh
    h: torch.Tensor  # (S, H) h_t = tanh(pre): the hand-written loop
    torch_h_n: torch.Tensor  # (H,) nn.RNN's final hidden state
    max_abs_diff: float  # max |h - nn.RNN's output| (and |h_S - h_n|): the on-screen check
    n_params: int  # parameters of nn.RNN(E, H): shared by every step
    first_word_change: tuple[float, ...]  # (S,) max |Δh_t| when x_1 is swapped for another vector
    x_swapped: torch.Tensor  # (E,) the other x_1
    h_swapped: torch.Tensor  # (S, H) every h_t with that x_1


@dataclass(frozen=True)
class FirstWordEffect:
    """Which columns move when x_1 is swapped, and why the change stops where it stops (picks the quiz's text).

    A change stops at the first step whose h_t is bit-for-bit the same: the state handed on is then identical,
    so every later step is too. The changed steps are therefore always 1 … m.
    """

    answer: str  # "none" (m = 0), "only_first" (m = 1), "some" (1 < m < S), "all" (m = S)
    reason: str  # "carried" (reaches the end); "x_zero" / "x_null" / "x_rounded": W_x is 0 / sends Δx_1 to 0 / its
    #              nonzero change was lost to float rounding or tanh's saturation; "h_zero" / "h_null" / "h_rounded"
    #              the same for W_h and the change Δh handed on
    changed: int  # m: steps 1 … m changed
    stop: int | None  # 1-based step where the change stopped (m + 1), None when it reached the end
    handed: float  # max |W·Δ| handed into that step: W_x·Δx_1 if stop = 1, else W_h·Δh_(stop-1); 0 when carried


def _field(name: str) -> str:
    return f"rnn.field.{name}"


SIZES = {"E": fields.E, "H": fields.H, "seed": fields.SEED}


def default_sentence(lang: str) -> str:
    """The default sentence in the learner's language (English for a language without its own example)."""
    return DEFAULT_SENTENCES.get(lang, DEFAULT_SENTENCES["en"])


def parameter_count(E: int, H: int) -> int:
    """nn.RNN(E, H)'s parameters: W_x (H×E), W_h (H×H) and its two biases; known from the sizes alone."""
    return H * E + H * H + 2 * H


def check_size(name: str, value: object) -> int:
    """E, H or the seed: a whole number within its cap (a URL can carry anything)."""
    return SIZES[name].check(value)


def parse_weight_table(name: str, rows: list[list[object]], H: int, E: int) -> list[list[float]]:
    """One editable table: W_x (H, E), W_h (H, H) or b (H, 1); the first bad cell is named by row and column."""
    n_cols = {"W_x": E, "W_h": H, "b": 1}[name]
    return parse_matrix(rows, _field(name), n_rows=H, n_cols=n_cols, max_rows=MAX_H, max_cols=max(MAX_E, MAX_H))


def parse_config(
    sentence: object,
    E: object,
    H: object,
    seed: object,
    W_x_rows: list[list[object]] | None = None,
    W_h_rows: list[list[object]] | None = None,
    b_rows: list[list[object]] | None = None,
    own: OwnWeights | None = None,
) -> RnnConfig:
    """Validate raw widget values into a config; the first problem raises InputError naming its field.

    b_rows is a one-column table (one row per hidden unit), so it lines up with the rows of W_x and W_h.
    own: a learner's nn.RNN weights; they decide E and H, and the typed tables do not apply.
    """
    tokens = tokenize(sentence, _field("sentence"), max_tokens=MAX_S)  # type: ignore[arg-type]
    if own is not None:
        if own.kind != "rnn":
            raise ValueError(f"{own.kind} weights on the rnn page")
        E, H, W_x_rows, W_h_rows, b_rows = own.E, own.H, None, None, None
    E, H, seed = check_size("E", E), check_size("H", H), check_size("seed", seed)
    W_x = None if W_x_rows is None else parse_weight_table("W_x", W_x_rows, H, E)
    W_h = None if W_h_rows is None else parse_weight_table("W_h", W_h_rows, H, E)
    b = None if b_rows is None else [r[0] for r in parse_weight_table("b", b_rows, H, E)]
    return RnnConfig(
        tokens=tuple(tokens),
        E=E,
        H=H,
        seed=seed,
        W_x=None if W_x is None else tuple(tuple(r) for r in W_x),
        W_h=None if W_h is None else tuple(tuple(r) for r in W_h),
        b=None if b is None else tuple(b),
        own=own,
    )


def token_vector(token: str, E: int, seed: int) -> torch.Tensor:
    """A fixed random vector per word (an untrained embedding row): same word, same seed -> same x.

    Seeding by the word itself (not by its position in a vocabulary) keeps a word's vector unchanged
    when the learner edits other words of the sentence.
    """
    g = torch.Generator().manual_seed(seed * 1_000_003 + zlib.crc32(token.encode("utf-8")))
    return torch.randn(E, generator=g, dtype=torch.float64)  # (E,) like nn.Embedding's N(0, 1) init


def seeded_weights(E: int, H: int, seed: int) -> RnnWeights:
    """nn.RNN's default init, U(-1/√H, 1/√H), drawn from a private generator (no global RNG: sessions share it)."""
    g = torch.Generator().manual_seed(seed)
    k = 1.0 / math.sqrt(H)

    def uniform(*shape: int) -> torch.Tensor:
        return torch.rand(*shape, generator=g, dtype=torch.float64) * 2 * k - k

    # 1) Same order as nn.RNN's parameters: weight_ih, weight_hh, bias_ih, bias_hh.
    return RnnWeights(W_x=uniform(H, E), W_h=uniform(H, H), b_ih=uniform(H), b_hh=uniform(H))


def resolve_weights(config: RnnConfig) -> RnnWeights:
    """Seeded weights with the learner's tables on top; a typed b goes into b_ih and b_hh becomes 0. A learner's
    own nn.RNN replaces them all, both biases as the file holds them."""
    if config.own is not None:
        return weights_of(config.own.module)
    w = seeded_weights(config.E, config.H, config.seed)
    W_x = torch.tensor(config.W_x, dtype=torch.float64) if config.W_x is not None else w.W_x  # (H, E)
    W_h = torch.tensor(config.W_h, dtype=torch.float64) if config.W_h is not None else w.W_h  # (H, H)
    if config.b is not None:
        b_ih, b_hh = torch.tensor(config.b, dtype=torch.float64), torch.zeros(config.H, dtype=torch.float64)  # (H,)
    else:
        b_ih, b_hh = w.b_ih, w.b_hh
    return RnnWeights(W_x=W_x, W_h=W_h, b_ih=b_ih, b_hh=b_hh)


def manual_unroll(x: torch.Tensor, w: RnnWeights) -> tuple[torch.Tensor, ...]:
    """The loop a learner writes by hand; returns (h_prev, wx, wh, pre, h), each (S, H)."""
    S, H = x.shape[0], w.W_h.shape[0]
    h_t = torch.zeros(H, dtype=torch.float64)  # (H,) h_0 = 0: nothing read yet
    rows: list[tuple[torch.Tensor, ...]] = []
    for t in range(S):
        h_prev = h_t  # (H,)
        wx = w.W_x @ x[t]  # (H, E) @ (E,) -> (H,)
        wh = w.W_h @ h_prev  # (H, H) @ (H,) -> (H,)
        pre = wx + wh + w.b  # (H,)
        h_t = torch.tanh(pre)  # (H,) squashed into (-1, 1)
        rows.append((h_prev, wx, wh, pre, h_t))
    return tuple(torch.stack(col) for col in zip(*rows, strict=True))  # each (S, H)


def torch_rnn(x: torch.Tensor, w: RnnWeights) -> tuple[torch.Tensor, torch.Tensor, int]:
    """nn.RNN with the very same weights copied in: (output (S, H), h_n (H,), number of parameters)."""
    E, H = x.shape[1], w.W_h.shape[0]
    with isolated():  # default init draws from the global generator: keep it out of other sessions' seeded builds
        rnn = nn.RNN(E, H, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        rnn.weight_ih_l0.copy_(w.W_x)
        rnn.weight_hh_l0.copy_(w.W_h)
        rnn.bias_ih_l0.copy_(w.b_ih)
        rnn.bias_hh_l0.copy_(w.b_hh)
        out, h_n = rnn(x.unsqueeze(0))  # (1, S, E) -> out (1, S, H), h_n (1, 1, H)
    return out[0], h_n[0, 0], sum(p.numel() for p in rnn.parameters())


def unroll(config: RnnConfig) -> RnnResult:
    """Tokens -> vectors -> the hand-written loop -> the same weights in nn.RNN -> the check."""
    # 1) One vector per token; a repeated word gets the same x_t.
    x = torch.stack([token_vector(tok, config.E, config.seed) for tok in config.tokens])  # (S, E)
    # 2) One set of weights for every step: that is what "unrolling" shares.
    w = resolve_weights(config)
    return explain_rnn(config.tokens, x, w, token_vector("<unk>", config.E, config.seed))


def weights_of(rnn: nn.RNN) -> RnnWeights:
    """A single-layer nn.RNN's own parameters (a learner's, s2s_core/own_weights.py) as the page's weights."""
    return RnnWeights(
        W_x=rnn.weight_ih_l0.detach().to(torch.float64).clone(),  # (H, E)
        W_h=rnn.weight_hh_l0.detach().to(torch.float64).clone(),  # (H, H)
        b_ih=rnn.bias_ih_l0.detach().to(torch.float64).clone(),  # (H,)
        b_hh=rnn.bias_hh_l0.detach().to(torch.float64).clone(),  # (H,)
    )


def explain_rnn(tokens: tuple[str, ...], x: torch.Tensor, w: RnnWeights, x_other: torch.Tensor) -> RnnResult:
    """x (S, E) through the weights w by hand and in nn.RNN, and the first word swapped for x_other (E,)."""
    # 3) The loop by hand.
    h_prev, wx, wh, pre, h = manual_unroll(x, w)  # each (S, H)
    # 4) PyTorch's own module, same weights: the hand loop must agree.
    out, h_n, n_params = torch_rnn(x, w)  # (S, H), (H,)
    diff = max(float((h - out).abs().max()), float((h[-1] - h_n).abs().max()))
    # 5) Swap the first word's vector for another one: which steps feel it? (the state carries it on)
    x_swapped = x.clone()  # (S, E)
    x_swapped[0] = x_other
    if torch.equal(x_swapped[0], x[0]):  # only if the first word is literally "<unk>"
        x_swapped[0] = -x[0]
    h_swapped = manual_unroll(x_swapped, w)[-1]  # (S, H)
    change = (h_swapped - h).abs().max(dim=1).values  # (S,)
    return RnnResult(
        tokens=tokens,
        x=x,
        weights=w,
        h_prev=h_prev,
        wx=wx,
        wh=wh,
        pre=pre,
        h=h,
        torch_h_n=h_n,
        max_abs_diff=diff,
        n_params=n_params,
        first_word_change=tuple(float(c) for c in change),
        x_swapped=x_swapped[0],
        h_swapped=h_swapped,
    )


def changed_steps(result: RnnResult) -> tuple[int, ...]:
    """0-based steps whose h_t moved at all when x_1 was swapped (exactly: an unchanged state is bit-for-bit equal)."""
    return tuple(t for t, c in enumerate(result.first_word_change) if c > 0)


def first_word_effect(result: RnnResult) -> FirstWordEffect:
    """The quiz's live answer and the reason behind it, read from the two runs and the weights."""
    S, m = len(result.tokens), len(changed_steps(result))
    answer = "none" if m == 0 else "only_first" if m == 1 else "all" if m == S else "some"
    if m == S:
        return FirstWordEffect(answer, "carried", m, None, 0.0)
    w = result.weights
    # 1) What was handed into the first unchanged step: W_x·Δx_1 at step 1, W_h·Δh_(m) after that.
    if m == 0:
        W, name = w.W_x, "x"
        delta = result.x_swapped - result.x[0]  # (E,)
    else:
        W, name = w.W_h, "h"
        delta = result.h_swapped[m - 1] - result.h[m - 1]  # (H,)
    handed = float((W @ delta).abs().max())  # (H, ·) @ (·,) -> (H,)
    # 2) A zero matrix, a change in its null space, or a change too small to survive float rounding (or tanh's
    #    saturation: tanh rounds to ±1 far from 0).
    if not bool(W.any()):
        reason = f"{name}_zero"
    elif handed == 0:
        reason = f"{name}_null"
    else:
        reason = f"{name}_rounded"
    return FirstWordEffect(answer, reason, m, m + 1, handed)


def first_word_answer(result: RnnResult) -> str:
    """The quiz's live answer: which columns change when x_1 changes ('none', 'only_first', 'some', 'all')."""
    return first_word_effect(result).answer
