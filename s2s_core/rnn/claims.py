"""The RNN-unrolling page's claims for lessons (s2s_core/lessons/claims.py): computed on a step's link state.

`config_of` reads a state as the page reads its controls (pages/rnn.py `read_inputs`): the sentence, E, H and the
seed, and, only while "edit the weights" is on, the three tables of the current shape (a family member "HxE"; a
table the link leaves out starts from the seeded weights as the page's table shows them, to 4 decimals), all
through the same `parse_config`. The picture's formula lines (s2s_core/rnn/picture.py) are what the claims quote.
"""

from __future__ import annotations

from s2s_core.fmt import num, sci, vec
from s2s_core.lessons.claims import ClaimResult, LinkState, claim
from s2s_core.rnn import fields, seeded_weights
from s2s_core.rnn.compute import (
    RnnConfig,
    RnnResult,
    check_size,
    first_word_effect,
    parameter_count,
    parse_config,
    unroll,
)
from s2s_core.rnn.fields import TABLES
from s2s_core.rnn.frames import weights_table
from s2s_core.validate import decode_table


def config_of(state: LinkState) -> RnnConfig:
    E, H = check_size("E", state.value(fields.E)), check_size("H", state.value(fields.H))
    seed = check_size("seed", state.value(fields.SEED))
    tables: dict[str, list[list[str]] | None] = dict.fromkeys(TABLES)
    if state.value(fields.EDIT):
        seeded = seeded_weights(E, H, seed)
        defaults = {"W_x": seeded.W_x, "W_h": seeded.W_h, "b": seeded.b}
        for name, field in TABLES.items():
            raw = state.member(field, f"{H}x{E}")
            tables[name] = decode_table(raw) if raw is not None else weights_table(defaults[name], name)
    return parse_config(state.value(fields.SENTENCE), E, H, seed, tables["W_x"], tables["W_h"], tables["b"])


def _step(result: RnnResult, step: int) -> int:
    """A 1-based step as the slider clamps it (a link may carry a step past the sentence's end): 0-based."""
    return min(max(step, 1), len(result.tokens)) - 1


@claim("rnn:carried")
def carried(state: LinkState, step: int, zero: bool) -> ClaimResult:
    """At step `step`, what W_h brings from the state before, W_h·h_(t-1), is all zeros (`zero`) or not: zero at
    step 1 (h_0 = 0: nothing read yet) and wherever W_h is 0; otherwise the earlier words reach this step."""
    result = unroll(config_of(state))
    s = _step(result, step)
    wh = result.wh[s]  # (H,)
    values = {
        "t": str(s + 1),
        "prev": str(s),
        "token": result.tokens[s],
        "h_prev": vec(result.h_prev[s]),
        "wh": vec(wh),
        "h": vec(result.h[s]),
    }
    return ClaimResult(bool((wh == 0).all()) == zero, values, shown=(f"W_h·h{s} = {vec(wh)}", f"= {vec(result.h[s])}"))


@claim("rnn:shared")
def shared(state: LinkState, parameters: int) -> ClaimResult:
    """nn.RNN(E, H) has `parameters` parameters, and the same ones serve every step: the count is the module's own and
    equals H·E + H·H + 2H whatever the sentence's length S."""
    config = config_of(state)
    result = unroll(config)
    n = result.n_params
    values = {"n": str(n), "S": str(len(result.tokens)), "E": str(config.E), "H": str(config.H)}
    holds = n == parameters == parameter_count(config.E, config.H)
    return ClaimResult(holds, values, shown=(f"nn.RNN({config.E}, {config.H})",))


@claim("rnn:first_word")
def first_word(state: LinkState, answer: str) -> ClaimResult:
    """The page's question: with a different first word (x_1), which h_t change? ("all", "only_first", "some",
    "none"), read from the two runs; the answer is the live one. Quotes the W_h line of step 2, the way on."""
    result = unroll(config_of(state))
    effect = first_word_effect(result)
    change = result.first_word_change  # (S,) max |Δh_t|
    values = {
        "changed": str(effect.changed),
        "S": str(len(result.tokens)),
        "first": num(change[0]),
        "last": sci(change[-1]),
    }
    shown = (f"W_h·h1 = {vec(result.wh[1])}",) if len(result.tokens) > 1 else ()
    return ClaimResult(effect.answer == answer, values, shown=shown, answer=effect.answer)


@claim("rnn:matches_torch")
def matches_torch(state: LinkState, tol: float) -> ClaimResult:
    """The hand-written loop gives nn.RNN's states (every h_t and h_n) to within `tol` (the Check tab's badge)."""
    result = unroll(config_of(state))
    diff = sci(result.max_abs_diff)
    return ClaimResult(result.max_abs_diff <= tol, {"diff": diff, "S": str(len(result.tokens))}, shown=(diff,))
