"""The math of the backprop-through-time page: ‖∂L/∂h_t‖ for every earlier step, by autograd.

A loss at the last step, L = sum(h_T), is backpropagated through T unrolled steps of a plain RNN, an LSTM
and a GRU built with the same recurrent weight scale ρ (each H×H block of W_hh is ρ·Q with Q orthogonal,
so each block's spectral radius and norm are exactly ρ; the LSTM's 4 and the GRU's 3 stacked blocks together
stretch a vector by ρ·√G, and the gates decide how much of each block reaches h). Truncated BPTT detaches the
state every k steps. clip() applies clip_grad_norm_ to the parameter gradients (never to ∂L/∂h_t) and follows
each step's part of ∂L/∂W_hh through it. Shapes: T steps, E input size, H hidden, G gate blocks, B = 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import torch
from torch import nn

from s2s_core.bptt import fields
from s2s_core.bptt.cells import GATES, CellWeights, gru_step, lstm_step, rnn_step
from s2s_core.bptt.fields import CELLS, MAX_T
from s2s_core.rng import isolated

E = 4  # input size: fixed, the page is about time, not width
H = 8  # hidden size
QUIZ_BACK = 20  # the quiz asks about the gradient this many steps back (or T-1 if shorter)
VANISH, EXPLODE = 1e-2, 1e2  # a ratio to the last step below / above these is "vanished" / "exploded"
PARAM_NAMES = ("weight_ih", "weight_hh", "bias_ih", "bias_hh")


@dataclass(frozen=True)
class BpttConfig:
    """Everything the page's inputs decide (hashable, so it is a cache key)."""

    T: int = 30
    rho: float = 0.9
    cell: str = "rnn"  # the cell whose clipping the page details
    linear: bool = False  # plain RNN without tanh: the gradient k steps back is exactly ρ^k times the last
    gate_bias: float = 1.0  # added to the LSTM's forget gate and the GRU's update gate (both "keep" gates)
    truncate: int = 0  # detach the state after every k-th step; 0 = full BPTT
    seed: int = 0


@dataclass(frozen=True)
class CellGrad:
    """One cell's gradients. norms[k] = ‖∂L/∂h_(T-k)‖, k = 0 (last step) .. T-1 (first step)."""

    cell: str
    norms: tuple[float, ...]  # (T,) with the config's truncation (0 at and beyond a cut)
    full_norms: tuple[float, ...]  # (T,) without truncation
    cell_norms: tuple[float, ...] | None  # LSTM: ‖∂L/∂cell_(T-k)‖ with truncation, the gated highway
    full_cell_norms: tuple[float, ...] | None  # LSTM: the same without truncation
    keep_gate: float | None  # mean forget gate f (LSTM) or update gate z (GRU): share kept per step
    loss: float
    param_grads: tuple[torch.Tensor, ...]  # ∂L/∂(W_ih, W_hh, b_ih, b_hh) with the truncation, unclipped
    hh_parts: tuple[torch.Tensor, ...]  # (T,) of (G·H, H): step t's own part of ∂L/∂W_hh (t = 1..T); they sum to it
    module_diff: float | None  # max |loop - nn.<Cell>| over outputs and ∂L/∂x; None for the linear RNN
    blocks: int  # G: H×H blocks stacked in W_hh (1 for the plain RNN): picks the text about ρ
    block_stretch: tuple[float, ...]  # (G,) measured ‖block·v‖/‖v‖ for a random v: each is ρ
    stretch: float  # measured ‖W_hh·v‖/‖v‖ for the same v: ρ for the RNN, ρ·√G for a stack of G blocks

    def ratio(self, k: int, full: bool = True) -> float:
        """‖∂L/∂h_(T-k)‖ / ‖∂L/∂h_T‖: below 1 vanishing, above 1 exploding."""
        norms = self.full_norms if full else self.norms
        return norms[k] / norms[0]

    def per_step(self, k: int, cell_state: bool = False) -> float:
        """The average factor per step back over k steps, (‖∂L/∂·_(T-k)‖ / ‖∂L/∂·_T‖)^(1/k), without truncation:
        of h, or (cell_state) of the LSTM's cell state c."""
        norms = self.full_cell_norms if cell_state else self.full_norms
        if norms is None or k < 1 or norms[0] == 0:
            raise ValueError("no per-step factor: needs k >= 1 and a nonzero last-step gradient")
        return (norms[k] / norms[0]) ** (1 / k)


@dataclass(frozen=True)
class BpttResult:
    config: BpttConfig
    cells: tuple[CellGrad, ...]  # in CELLS order
    cuts: tuple[int, ...]  # steps back of each detached state (its gradient, and all before it, is 0)
    rho_law: tuple[float, ...]  # (T,) ρ^k · ‖∂L/∂h_T‖: exact for the linear RNN, a ceiling with tanh
    law_diff: float | None  # linear RNN: max |norms[k] / (ρ^k norms[0]) - 1| over steps the gradient reaches
    quiz_back: int  # the k the quiz asks about

    def by_cell(self, cell: str) -> CellGrad:
        return self.cells[CELLS.index(cell)]


@dataclass(frozen=True)
class ClipResult:
    """clip_grad_norm_ applied to one cell's parameter gradients, and what it does to each step's part of ∂L/∂W_hh.

    W_hh is used at every step, so ∂L/∂W_hh = Σ_t part_t. Clipping sees only that sum; the parts are clipped here
    by torch's own clip_grads_with_norm_ with clip_grad_norm_'s total norm, and checked to add up to its result.
    """

    max_norm: float
    total_before: float  # ‖all parameter gradients‖ before (clip_grad_norm_'s return value)
    total_after: float  # ... and after, measured on the clipped gradients
    scale: float  # after / before: one factor for every gradient (1 when already under max_norm)
    cosine: float  # cos(angle) between the gradient before and after: 1 = same direction
    param_before: tuple[float, ...]  # per parameter (PARAM_NAMES)
    param_after: tuple[float, ...]
    part_before: tuple[float, ...]  # (T,) ‖step T-k's part of ∂L/∂W_hh‖ by steps back k = 0 .. T-1, unclipped
    part_after: tuple[float, ...]  # (T,) the same parts after clipping
    parts_sum_diff: float  # max |Σ_t clipped part_t - clip_grad_norm_'s clipped ∂L/∂W_hh|
    far_back: int  # the far step the page reads, in steps back (step T - far_back ≥ 2: h_0 = 0 gives step 1 no part)
    far_before: float  # ‖far part‖ / ‖last step's part‖ before clipping
    far_after: float  # ... after clipping, from the clipped parts
    far_band: (
        str  # "cut" (exactly 0: truncation), "vanish" (< VANISH), "same", or "explode" (> EXPLODE): picks the text
    )


def parse_config(
    T: object,
    rho: object,
    cell: object,
    linear: object,
    gate_bias: object,
    truncate: object,
    seed: object,
) -> BpttConfig:
    """Validate raw widget values into a config; the first problem raises InputError naming its field."""
    T = fields.T.check(T)
    rho = fields.RHO.check(rho)
    cell = fields.CELL.check(cell)
    gate_bias = fields.GATE.check(gate_bias)
    truncate = fields.TRUNCATE.check(truncate)
    seed = fields.SEED.check(seed)
    # Rounded so that 0.9 and 0.9000000001 from a URL share one cache entry.
    return BpttConfig(
        T=T,
        rho=round(rho, 6),
        cell=cell,
        linear=fields.LINEAR.check(linear),
        gate_bias=round(gate_bias, 6),
        truncate=truncate,
        seed=seed,
    )


QUIZ_RHO = (2.0, 0.5)  # the edit the quiz asks about: ρ to 2 from below 1.5, else down to 0.5


def quiz_edit(config: BpttConfig) -> BpttConfig:
    """The config after the edit the quiz asks the learner to predict (a ρ the page is not showing yet).

    The picture shows every ratio of the current settings, so the question is about a change still to be made:
    a large ρ tempts "exploded", yet with tanh the plain RNN saturates and the gated cells mix their blocks.
    """
    high, low = QUIZ_RHO
    return replace(config, rho=high if config.rho < 1.5 else low)


ABOUT = 0.05  # "about": within 5 % of the gate's mean (the notice says the relation only when it holds)


@dataclass(frozen=True)
class QuizReading:
    """The question's answer and why, read from the two runs (the current ρ and the edited one) for the cell on
    screen: the catalog key of the reason is chosen by what the computation shows, not by the direction alone."""

    band: str  # the answer at the edited ρ: "vanish", "same" or "explode"
    ratio: float  # ‖∂L/∂h_(T-k)‖ / ‖∂L/∂h_T‖ at the edited ρ
    ratio_now: float  # … at the current ρ
    per_step: float  # ratio^(1/k): the average factor per step back at the edited ρ
    why: str  # "bptt.quiz_why_*": up_linear (exactly ρ per step), up_tanh (tanh′ takes some: below ρ per step),
    #           up_gated (gates and tanh′ in the way), down (the smaller ρ lost more), down_not (it did not)


def quiz_reading(config: BpttConfig, now: BpttResult, edited: BpttResult) -> QuizReading:
    """What the quiz's edit does to the chosen cell's gradient k steps back, and the sentence that explains it."""
    k = now.quiz_back
    cell = edited.by_cell(config.cell)
    ratio, ratio_now = cell.ratio(k), now.by_cell(config.cell).ratio(k)
    if edited.config.rho < config.rho:
        why = "down" if ratio < ratio_now else "down_not"
    elif config.cell != "rnn":
        why = "up_gated"
    else:
        why = "up_linear" if config.linear else "up_tanh"
    return QuizReading(band=band(ratio), ratio=ratio, ratio_now=ratio_now, per_step=cell.per_step(k), why=why)


@dataclass(frozen=True)
class KeepReading:
    """The keep gates against the gradient's measured fall per step (notice 3): the relation "falls by about the
    gate per step" is stated only where the two numbers are within ABOUT of each other."""

    k: int  # over how many steps back the factors are measured
    lstm_cell_step: float  # the LSTM cell state's gradient: average factor per step back (no truncation)
    f: float  # the LSTM's mean forget gate
    lstm_about_f: bool
    gru_step: float  # the GRU's ‖∂L/∂h‖: average factor per step back
    z: float  # the GRU's mean update gate
    gru_about_z: bool


def keep_reading(result: BpttResult) -> KeepReading:
    k = result.quiz_back
    lstm, gru = result.by_cell("lstm"), result.by_cell("gru")
    f, z = float(lstm.keep_gate or 0.0), float(gru.keep_gate or 0.0)
    c_step, h_step = lstm.per_step(k, cell_state=True), gru.per_step(k)
    return KeepReading(
        k=k,
        lstm_cell_step=c_step,
        f=f,
        lstm_about_f=abs(c_step - f) <= ABOUT * f,
        gru_step=h_step,
        z=z,
        gru_about_z=abs(h_step - z) <= ABOUT * z,
    )


def parse_max_norm(max_norm: object) -> float:
    """The clipping threshold, validated on its own: a bad value only silences the clipping section."""
    return round(fields.CLIP.check(max_norm), 6)


def make_inputs(T: int, seed: int) -> torch.Tensor:
    """(T, E) inputs; drawn at the full cap and sliced, so changing T keeps the first steps' inputs."""
    g = torch.Generator().manual_seed(seed * 4)
    return torch.randn(MAX_T, E, generator=g, dtype=torch.float64)[:T]  # (T, E)


def make_weights(cell: str, rho: float, gate_bias: float, seed: int) -> CellWeights:
    """PyTorch's default init U(-1/√H, 1/√H), except each H×H block of W_hh is ρ·Q with Q orthogonal,
    and the 'keep' gate (LSTM f, GRU z: both the second block) gets gate_bias added to b_ih."""
    G = GATES[cell]
    g = torch.Generator().manual_seed(seed * 4 + 1 + CELLS.index(cell))
    k = 1.0 / math.sqrt(H)

    def uniform(*shape: int) -> torch.Tensor:
        return torch.rand(*shape, generator=g, dtype=torch.float64) * 2 * k - k

    W_ih = uniform(G * H, E)  # (G·H, E)
    blocks = []
    for _ in range(G):
        q, r = torch.linalg.qr(torch.randn(H, H, generator=g, dtype=torch.float64))  # (H, H), (H, H)
        blocks.append(q * torch.sign(torch.diagonal(r)))  # a fixed sign convention makes Q unique
    W_hh = rho * torch.cat(blocks, dim=0)  # (G·H, H)
    b_ih, b_hh = uniform(G * H), uniform(G * H)  # (G·H,), (G·H,)
    if cell in ("lstm", "gru"):
        b_ih[H : 2 * H] += gate_bias  # LSTM order i, f, g, o and GRU order r, z, n: block 2 is f / z
    return CellWeights(W_ih=W_ih, W_hh=W_hh, b_ih=b_ih, b_hh=b_hh)


def _leaf(w: CellWeights) -> CellWeights:
    """Fresh leaf copies that collect .grad."""
    return CellWeights(*(p.detach().clone().requires_grad_(True) for p in w.params()))


@dataclass
class Unrolled:
    """One forward pass kept for backward: the loss, every h_t and cell_t (grads retained), the keep gates."""

    loss: torch.Tensor
    hs: list[torch.Tensor]
    cells: list[torch.Tensor]
    keep: list[float]
    outs: torch.Tensor  # (T, H)


def run_loop(
    cell: str, x: torch.Tensor, w: CellWeights, *, linear: bool, truncate: int, taps: list[torch.Tensor] | None = None
) -> Unrolled:
    """Unroll the cell over x (T, E) with one set of weights; the loss is sum(h_T).

    taps: one zero (G·H, H) leaf per step, added to W_hh at that step only; its .grad is that step's part of ∂L/∂W_hh.
    """
    T = x.shape[0]
    h = torch.zeros(1, H, dtype=torch.float64)  # (B, H) h_0
    cell_state = torch.zeros(1, H, dtype=torch.float64)  # (B, H) LSTM only
    hs: list[torch.Tensor] = []
    cells: list[torch.Tensor] = []
    keep: list[float] = []
    for t in range(1, T + 1):
        x_t = x[t - 1 : t]  # (B, E)
        # 1) One step with the shared weights (plus an exact zero, the tap, that only collects this step's gradient).
        w_t = w if taps is None else CellWeights(w.W_ih, w.W_hh + taps[t - 1], w.b_ih, w.b_hh)
        if cell == "rnn":
            h = rnn_step(x_t, h, w_t, linear=linear)  # (B, H)
        elif cell == "lstm":
            h, cell_state, f = lstm_step(x_t, h, cell_state, w_t)  # (B, H) each
            if cell_state.requires_grad:
                cell_state.retain_grad()
            cells.append(cell_state)
            keep.append(float(f.detach().mean()))
        else:
            h, z = gru_step(x_t, h, w_t)  # (B, H) each
            keep.append(float(z.detach().mean()))
        # 2) Keep h_t's own gradient (autograd frees intermediate grads unless asked).
        if h.requires_grad:
            h.retain_grad()
        hs.append(h)
        # 3) Truncated BPTT: the next step gets a copy cut from the graph, so no gradient flows back past it.
        if truncate and t % truncate == 0 and t < T:
            h = h.detach()
            cell_state = cell_state.detach()
    return Unrolled(loss=hs[-1].sum(), hs=hs, cells=cells, keep=keep, outs=torch.cat(hs, dim=0))  # outs (T, H)


def _grad_norms(states: list[torch.Tensor]) -> tuple[float, ...]:
    """‖∂L/∂state_t‖ ordered by steps back (k = 0 first); a state the loss cannot reach has no grad: 0."""
    return tuple(0.0 if s.grad is None else float(s.grad.norm()) for s in reversed(states))


def module_check(cell: str, x: torch.Tensor, w: CellWeights, outs: torch.Tensor, x_grad: torch.Tensor) -> float:
    """Max |difference| between the hand loop's outputs and ∂L/∂x and nn.RNN / nn.LSTM / nn.GRU's."""
    with isolated():  # default init draws from the global generator: keep it out of other sessions' seeded builds
        module = {"rnn": nn.RNN, "lstm": nn.LSTM, "gru": nn.GRU}[cell](E, H, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        for name, p in zip(PARAM_NAMES, w.params(), strict=True):
            getattr(module, f"{name}_l0").copy_(p)
    x_mod = x.detach().clone().requires_grad_(True)  # (T, E)
    out, _ = module(x_mod.unsqueeze(0))  # (1, T, E) -> (1, T, H)
    out[0, -1].sum().backward()  # the same loss: sum of the last output
    return max(float((outs.detach() - out[0].detach()).abs().max()), float((x_grad - x_mod.grad).abs().max()))


def _with_grads(grads: tuple[torch.Tensor, ...]) -> list[torch.Tensor]:
    """Stand-in parameters holding copies of the given gradients, so clipping never touches the cached result."""
    params = [torch.zeros_like(g) for g in grads]
    for p, g in zip(params, grads, strict=True):
        p.grad = g.clone()
    return params


def band(ratio: float) -> str:
    """A size relative to the last step's: 'vanish' (< 1/100), 'same', or 'explode' (> 100×)."""
    if ratio < VANISH:
        return "vanish"
    if ratio > EXPLODE:
        return "explode"
    return "same"


def clip(grad: CellGrad, max_norm: float) -> ClipResult:
    """nn.utils.clip_grad_norm_ on the cell's parameter gradients, and each step's part of ∂L/∂W_hh through it."""
    # 1) clip_grad_norm_ itself, on copies of ∂L/∂(W_ih, W_hh, b_ih, b_hh).
    params = _with_grads(grad.param_grads)
    total_before = float(nn.utils.clip_grad_norm_(params, max_norm))
    flat_b = torch.cat([g.flatten() for g in grad.param_grads])  # (P,) every parameter gradient as one vector
    flat_a = torch.cat([p.grad.flatten() for p in params])  # (P,)
    total_after = float(flat_a.norm())
    # 2) The steps' parts of ∂L/∂W_hh, scaled by torch's clip_grads_with_norm_ (the scaling half of clip_grad_norm_)
    #    with the same total norm: what each part becomes inside the clipped ∂L/∂W_hh.
    parts = _with_grads(grad.hh_parts)  # T stand-ins, (G·H, H) each
    nn.utils.clip_grads_with_norm_(parts, max_norm, torch.tensor(total_before, dtype=torch.float64))
    clipped_sum = torch.stack([p.grad for p in parts]).sum(dim=0)  # (T, G·H, H) -> (G·H, H)
    # 3) Sizes by steps back (k = 0 is the last step), and the far step the page reads.
    before = tuple(float(g.norm()) for g in reversed(grad.hh_parts))  # (T,)
    after = tuple(float(p.grad.norm()) for p in reversed(parts))  # (T,)
    k = max(0, min(QUIZ_BACK, len(before) - 2))  # step T - k >= 2: step 1 multiplies h_0 = 0, so its part is 0
    far_before = before[k] / before[0] if before[0] > 0 else 0.0
    far_after = after[k] / after[0] if after[0] > 0 else 0.0
    return ClipResult(
        max_norm=max_norm,
        total_before=total_before,
        total_after=total_after,
        scale=total_after / total_before if total_before > 0 else 1.0,
        cosine=float(torch.dot(flat_b, flat_a) / (flat_b.norm() * flat_a.norm())),
        param_before=tuple(float(g.norm()) for g in grad.param_grads),
        param_after=tuple(float(p.grad.norm()) for p in params),
        part_before=before,
        part_after=after,
        parts_sum_diff=float((clipped_sum - params[1].grad).abs().max()),
        far_back=k,
        far_before=far_before,
        far_after=far_after,
        far_band="cut" if before[k] == 0 else band(far_before),
    )


def _taps(T: int, G: int) -> list[torch.Tensor]:
    return [torch.zeros(G * H, H, dtype=torch.float64, requires_grad=True) for _ in range(T)]  # T of (G·H, H)


def _parts(taps: list[torch.Tensor]) -> tuple[torch.Tensor, ...]:
    """Each step's part of ∂L/∂W_hh; a step the loss cannot reach (past a cut) has no grad: an exact 0."""
    return tuple(torch.zeros_like(tap) if tap.grad is None else tap.grad.detach().clone() for tap in taps)


def cell_grad(cell: str, config: BpttConfig, x: torch.Tensor) -> CellGrad:
    """One cell: full BPTT (and the module check), then the learner's truncation."""
    base = make_weights(cell, config.rho, config.gate_bias, config.seed)
    whole, per_block = stretch(base.W_hh, config.seed)
    linear = config.linear and cell == "rnn"
    # 1) Full BPTT: how far back the gradient reaches without cuts (x is a leaf too, for the module check).
    w = _leaf(base)
    taps = _taps(config.T, GATES[cell])
    x_leaf = x.detach().clone().requires_grad_(True)  # (T, E)
    run = run_loop(cell, x_leaf, w, linear=linear, truncate=0, taps=taps)
    run.loss.backward()
    full = _grad_norms(run.hs)
    full_cells = _grad_norms(run.cells) if cell == "lstm" else None
    diff = None if linear else module_check(cell, x, base, run.outs, x_leaf.grad)
    # 2) The learner's truncation on fresh leaves; these parameter gradients are the ones the page clips.
    if config.truncate and config.truncate < config.T:
        w = _leaf(base)
        taps = _taps(config.T, GATES[cell])
        run = run_loop(cell, x, w, linear=linear, truncate=config.truncate, taps=taps)
        run.loss.backward()
    return CellGrad(
        cell=cell,
        norms=_grad_norms(run.hs),
        full_norms=full,
        cell_norms=_grad_norms(run.cells) if cell == "lstm" else None,
        full_cell_norms=full_cells,
        keep_gate=sum(run.keep) / len(run.keep) if run.keep else None,
        loss=float(run.loss.detach()),
        param_grads=tuple(p.grad.detach().clone() for p in w.params()),
        hh_parts=_parts(taps),
        module_diff=diff,
        blocks=GATES[cell],
        block_stretch=per_block,
        stretch=whole,
    )


STRETCH_SEED = 1_000_003  # the probe vector's generator (seeded apart from the inputs' and weights')


def stretch(W_hh: torch.Tensor, seed: int) -> tuple[float, tuple[float, ...]]:
    """(‖W_hh·v‖/‖v‖, each H×H block's ‖block·v‖/‖v‖) for one seeded random v: how much W_hh lengthens a vector."""
    v = torch.randn(H, generator=torch.Generator().manual_seed(STRETCH_SEED + seed), dtype=torch.float64)  # (H,)
    whole = float((W_hh @ v).norm() / v.norm())  # (G·H, H) @ (H,) -> (G·H,)
    return whole, tuple(float((block @ v).norm() / v.norm()) for block in W_hh.split(H))  # G of (H, H) @ (H,)


def cut_steps_back(T: int, truncate: int) -> tuple[int, ...]:
    """Steps back (k = T - t, ascending) of every detached state t = truncate, 2·truncate, … < T."""
    if not truncate:
        return ()
    return tuple(sorted(T - t for t in range(truncate, T, truncate)))


def backprop_through_time(config: BpttConfig) -> BpttResult:
    """All three cells on the same inputs and the same ρ, so their curves can be compared."""
    x = make_inputs(config.T, config.seed)  # (T, E)
    cells = tuple(cell_grad(cell, config, x) for cell in CELLS)
    rnn = cells[0]
    law = tuple(config.rho**k * rnn.norms[0] for k in range(config.T))
    law_diff = None
    if config.linear:
        reach = [k for k in range(config.T) if rnn.norms[k] > 0]
        law_diff = max(abs(rnn.norms[k] / law[k] - 1) for k in reach)
    return BpttResult(
        config=config,
        cells=cells,
        cuts=cut_steps_back(config.T, config.truncate),
        rho_law=law,
        law_diff=law_diff,
        quiz_back=min(QUIZ_BACK, config.T - 1),
    )
