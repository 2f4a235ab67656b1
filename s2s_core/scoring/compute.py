"""The math of the Bahdanau-vs-Luong page: every score function on the same states, side by side.

Shapes: B batch (1 on this page), S source positions, H_d decoder size, H_e encoder size, A attention size.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import torch

from s2s_core.errors import InputError
from s2s_core.rng import isolated
from s2s_core.scoring import fields
from s2s_core.scoring.attend import Read, attend
from s2s_core.scoring.fields import DEFAULT_DEC, DEFAULT_ENC, MAX_POSITIONS, MAX_SIZE, SCORERS
from s2s_core.scoring.flow import FlowResult, check_wiring, decoder_step
from s2s_core.scoring.functions import check_same_size
from s2s_core.scoring.modules import ConcatScore, LocalPosition, build_scorers, init_uniform
from s2s_core.scoring.window import flat_gaussian_sum, local_m_center, window_positions
from s2s_core.validate import parse_matrix, parse_vector

Matrix = tuple[tuple[float, ...], ...]
ErrorParts = tuple[str, str, tuple[tuple[str, Any], ...]]  # an InputError that can be cached (pickled)


def error_parts(err: InputError) -> ErrorParts:
    return (err.key, err.field, tuple(err.params.items()))


def as_error(parts: ErrorParts) -> InputError:
    key, field, params = parts
    return InputError(key, field, **dict(params))


@dataclass(frozen=True)
class ScoringConfig:
    """Everything the page's inputs decide (hashable, so it is a cache key)."""

    dec_state: tuple[float, ...] = DEFAULT_DEC  # s, (H_d,)
    enc_states: Matrix = DEFAULT_ENC  # h_1 … h_S, (S, H_e)
    attn_size: int = 3  # A
    seed: int = 0
    scale: float = 2.0  # learned weights drawn from ±scale/√fan_in
    focus: str = "additive"
    window: str = "global"
    step: int = 3  # t, the decoder step: local-m centres its window on p_t = t (1-based)
    half_width: int = 1  # D
    query_from: str = "previous"
    context_into: str = "input"


def parse_config(
    dec_text: str,
    enc_rows: Sequence[Sequence[Any]],
    *,
    attn_size: Any = 3,
    seed: Any = 0,
    scale: Any = 2.0,
    focus: Any = "additive",
    window: Any = "global",
    step: Any = 3,
    half_width: Any = 1,
    query_from: Any = "previous",
    context_into: Any = "input",
) -> ScoringConfig:
    """Validate raw widget values; the first problem raises InputError naming its field."""
    dec = parse_vector(dec_text, fields.DEC.label, max_len=MAX_SIZE)
    enc = parse_matrix(enc_rows, fields.ENC.label, max_rows=MAX_POSITIONS, max_cols=MAX_SIZE)
    window = fields.WINDOW.check(window)
    half_width = fields.HALF_WIDTH.check(half_width)
    # Any step is a valid window: local-m clips p_t = t to the last source position (window.local_m_center).
    step = fields.STEP.check(step)
    return ScoringConfig(
        dec_state=tuple(dec),
        enc_states=tuple(tuple(r) for r in enc),
        attn_size=fields.ATTN.check(attn_size),
        seed=fields.SEED.check(seed),
        scale=fields.SCALE.check(scale),
        focus=fields.FOCUS.check(focus),
        window=window,
        step=step,
        half_width=half_width,
        query_from=fields.QUERY.check(query_from),
        context_into=fields.INTO.check(context_into),
    )


@dataclass(frozen=True)
class FunctionResult:
    """One score function's read of the same states, or why it cannot score them."""

    name: str
    error: ErrorParts | None  # e.g. dot with H_d ≠ H_e
    read: Read | None
    params: tuple[tuple[str, torch.Tensor], ...]  # learned weights, named as in the formula
    max_abs_diff: float  # |the formula written per position - module| over the positions
    maps: str | None = None  # which states are moved before comparing (mapped_sides); None when it cannot score


def mapped_sides(read: Read, s: torch.Tensor) -> str:
    """Which states a score function moves before comparing them, read off the live tensors.

    "none": the query is s and the keys are the h_j (dot, scaled dot); "keys": only the encoder side, W·h_j
    into s's own space, the query is s unchanged (general); "both": s and each h_j into one A-sized space
    (additive, concat).
    """
    query_is_s = read.query.shape == s.shape and torch.equal(read.query, s)
    keys_are_h = read.keys.shape == read.values.shape and torch.equal(read.keys, read.values)
    if query_is_s and keys_are_h:
        return "none"
    return "keys" if query_is_s else "both"


@dataclass(frozen=True)
class WindowInfo:
    """Where the window sits (Luong §3.2), for the page's sentences; None for global attention."""

    center: float  # p: the step t clipped to S (local-m), or S·sigmoid(v_pᵀ·tanh(W_p·s)) (local-p)
    lo: float  # p - D
    hi: float  # p + D
    step_clipped: bool  # local-m: t > S, so p = S, not t (selects the wording)
    sigmoid: float | None  # local-p: sigmoid(v_pᵀ·tanh(W_p·s)), the share of S where p lands
    sigma: float  # the Gaussian's width D/2 (used by local-p only)
    n_window: int  # whole positions in [p - D, p + D] on a sentence long enough for all of them
    n_inside: int  # those the sentence has (the ones not cut off by its ends)
    whole_sum: float | None  # local-p, equal scores, the whole window: the weights' sum (about 0.6 at most)
    cut_sum: float | None  # local-p, equal scores, only the positions the sentence has

    @property
    def edges_cut(self) -> bool:
        """The sentence's ends cut the window (selects the wording of the weights' sum)."""
        return self.n_inside < self.n_window


@dataclass(frozen=True)
class ScoringResult:
    S: int
    H_e: int
    functions: tuple[FunctionResult, ...]  # in SCORERS order
    concat_as_additive_diff: float  # concat with W_c = [W_s | W_h] vs additive: the two are one family
    max_abs_diff: float  # worst hand-vs-module gap over the functions that can score
    window: WindowInfo | None  # local windows only: the centre p and the window's ends
    flow: FlowResult | None
    flow_error: ErrorParts | None

    def get(self, name: str) -> FunctionResult:
        return next(f for f in self.functions if f.name == name)

    def shown(self, focus: str) -> FunctionResult:
        """The function whose read the page draws for `focus`: the focus itself, or additive when the focus cannot
        score these states (dot with H_d ≠ H_e). The window is the same for every function."""
        f = self.get(focus)
        return f if f.read is not None else self.get("additive")


def named_params(name: str, module: torch.nn.Module) -> tuple[tuple[str, torch.Tensor], ...]:
    """The weights as the formulas name them (v as a vector, not nn.Linear's (1, A) matrix)."""
    if name == "additive":
        return (("W_s", module.W_s.weight), ("W_h", module.W_h.weight), ("v", module.v.weight[0]))
    if name == "general":
        return (("W", module.W.weight),)
    if name == "concat":
        return (("W_c", module.W_c.weight), ("v", module.v.weight[0]))
    return ()


def hand_scores(name: str, s: torch.Tensor, H: torch.Tensor, params: dict[str, torch.Tensor]) -> torch.Tensor:
    """The textbook formula, one source position j at a time: s (H_d,), H (S, H_e) -> (S,)."""
    out = []
    for h_j in H:  # (H_e,)
        if name in ("dot", "scaled_dot"):
            score = torch.dot(s, h_j) / (h_j.shape[0] ** 0.5 if name == "scaled_dot" else 1)
        elif name == "general":
            score = torch.dot(s, params["W"] @ h_j)  # sᵀ·(W·h_j)
        elif name == "additive":
            score = torch.dot(params["v"], torch.tanh(params["W_s"] @ s + params["W_h"] @ h_j))
        else:
            score = torch.dot(params["v"], torch.tanh(params["W_c"] @ torch.cat([s, h_j])))
        out.append(score)
    return torch.stack(out)  # (S,)


def compare(config: ScoringConfig) -> ScoringResult:
    """Score the same decoder state against the same encoder states with every function."""
    s = torch.tensor([config.dec_state], dtype=torch.float64)  # (B, H_d)
    enc = torch.tensor([config.enc_states], dtype=torch.float64)  # (B, S, H_e)
    _, S, H_e = enc.shape
    H_d = s.shape[-1]
    with isolated():  # default init draws from the global generator: keep it out of other sessions' seeded builds
        scorers = build_scorers(H_d, H_e, config.attn_size, config.seed, config.scale)
    with isolated():  # default init draws from the global generator: keep it out of other sessions' seeded builds
        locator = init_uniform(LocalPosition(H_d, config.attn_size), config.seed + 3, config.scale)
    window = dict(t=config.step, half_width=config.half_width, locator=locator)

    results = []
    with torch.no_grad():
        for name in SCORERS:
            params = named_params(name, scorers[name])
            try:
                if name in ("dot", "scaled_dot"):
                    check_same_size(s, enc)  # sᵀ·h needs one component of h for each component of s
                read = attend(scorers[name], s, enc, config.window, **window)  # type: ignore[arg-type]
            except InputError as err:
                results.append(FunctionResult(name, error_parts(err), None, params, 0.0))
                continue
            hand = hand_scores(name, s[0], enc[0], dict(params))  # (S,)
            diff = float((hand - read.scores[0]).abs().max())
            results.append(FunctionResult(name, None, read, params, diff, mapped_sides(read, s)))
        # 1) Additive and concat are one family: concat with W_c = [W_s | W_h] and the same v IS additive.
        additive = scorers["additive"]
        with isolated():  # default init draws from the global generator: keep it out of other sessions' seeded builds
            twin = ConcatScore(H_d, H_e, config.attn_size).double()
        twin.W_c.weight.copy_(torch.cat([additive.W_s.weight, additive.W_h.weight], dim=1))  # (A, H_d + H_e)
        twin.v.weight.copy_(additive.v.weight)
        twin_diff = float((twin(s, enc) - additive(s, enc)).abs().max())
        info, D = None, config.half_width
        if config.window != "global":
            local_m = config.window == "local_m"
            p = float(local_m_center(config.step, S)) if local_m else float(locator(s, S)[0])
            whole = window_positions(p, D)
            inside = [j for j in whole if 1 <= j <= S]
            info = WindowInfo(
                center=p,
                lo=p - D,
                hi=p + D,
                step_clipped=local_m and config.step > S,
                sigmoid=None if local_m else float(locator.share(s)[0]),
                sigma=D / 2,
                n_window=len(whole),
                n_inside=len(inside),
                whole_sum=None if local_m else flat_gaussian_sum(p, D, whole),
                cut_sum=None if local_m else flat_gaussian_sum(p, D, inside),
            )

    flow, flow_error = None, None
    try:
        check_wiring(config.query_from, config.context_into)
        if config.focus in ("dot", "scaled_dot"):
            check_same_size(s, enc, "scoring.field.focus")
        flow = decoder_step(
            scorers[config.focus],
            s,
            enc,
            config.query_from,
            config.context_into,  # type: ignore[arg-type]
            config.seed,
            window=config.window,
            **window,
        )  # type: ignore[arg-type]
    except InputError as err:
        flow_error = error_parts(err)

    usable = [f.max_abs_diff for f in results if f.error is None]
    return ScoringResult(
        S=S,
        H_e=H_e,
        functions=tuple(results),
        concat_as_additive_diff=twin_diff,
        max_abs_diff=max(usable) if usable else 0.0,
        window=info,
        flow=flow,
        flow_error=flow_error,
    )
