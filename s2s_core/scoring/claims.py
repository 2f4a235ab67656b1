"""The Bahdanau-vs-Luong page's claims for lessons (s2s_core/lessons/claims.py): computed on a step's link state.

`config_of` reads a state as the page reads its controls (s2s_ui/scoring/settings.py `read_inputs`): the states
typed (the table as wide as H_e, padded or trimmed as the table widget does) or read off the encoder, the untrained
weights, the window and the wiring, through the same `parse_config`. Each claim's `shown` is text the page draws on
that state: the chosen function's weights in the picture's description, the softmax sentence's numbers under it,
the peaks "compare all" names, the Keys-vs-values and Global-vs-local tabs' lines (when the step opens that tab).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from s2s_core.fmt import num, vec
from s2s_core.lessons.claims import ClaimResult, LinkState, claim
from s2s_core.scoring import fields
from s2s_core.scoring.compute import FunctionResult, ScoringConfig, ScoringResult, compare, parse_config
from s2s_core.scoring.frames import peak, position_label
from s2s_core.scoring.from_encoder import states_from_encoder
from s2s_core.scoring.notes import distinct_rows, softmax_reading

FILL = "0"  # what the table widget puts into a column H_e adds (s2s_ui/widgets.matrix_input)


def _rows(state: LinkState) -> list[list[Any]]:
    """The encoder states' table as the page reads it: its rows, each cut or padded to H_e columns."""
    width = int(state.value(fields.H_E))
    rows = [list(r) for r in state.value(fields.ENC)]
    return [[*r[:width], *([FILL] * max(0, width - len(r)))] for r in rows]


def config_of(state: LinkState) -> ScoringConfig:
    seed = state.value(fields.SEED)
    if state.value(fields.FROM) == "encoder":
        s, enc = states_from_encoder(state.value(fields.SENTENCE), int(seed))
        dec, rows = ", ".join(repr(x) for x in s), [list(r) for r in enc]
    else:
        dec, rows = state.value(fields.DEC), _rows(state)
    return parse_config(
        dec,
        rows,
        attn_size=state.value(fields.ATTN),
        seed=seed,
        scale=state.value(fields.SCALE),
        focus=state.value(fields.FOCUS),
        window=state.value(fields.WINDOW),
        step=state.value(fields.STEP),
        half_width=state.value(fields.HALF_WIDTH),
        query_from=state.value(fields.QUERY),
        context_into=state.value(fields.INTO),
    )


def _peaks(result: ScoringResult) -> tuple[str, ...]:
    """Each scoring function's largest weight as "compare all" names it in its description."""
    return tuple(num(peak(f.read)[1]) for f in result.functions if f.read is not None)


def _scoring(result: ScoringResult) -> list[FunctionResult]:
    return [f for f in result.functions if f.read is not None]


@claim("scoring:peak")
def heaviest(state: LinkState, function: str, position: str) -> ClaimResult:
    """The picture follows `function` (it can score these states) and its largest weight is on `position` ("s3").
    Values: the softmax sentence's numbers under the picture (position, top, weight, and by its case second, lead,
    factor, spread, ratio, low), and the position the picture's slider is on (picked)."""
    config = config_of(state)
    result = compare(config)
    shown_fn = result.shown(config.focus)
    j, weight = peak(shown_fn.read)
    reading = softmax_reading(shown_fn.read)
    picked = min(max(int(state.value(fields.POSITION)), 1), result.S)  # the picture's slider, clamped
    values = dict(reading.numbers) | {"position": position_label(j), "weight": num(weight)}
    values["picked"] = position_label(picked - 1)  # the line under the picture writes out this position's share
    return ClaimResult(
        shown_fn.name == function and position_label(j) == position,
        values,
        shown=(vec(shown_fn.read.weights[0]), reading.numbers["weight"], reading.numbers["top"]),
    )


@claim("scoring:rows_differ")
def rows_differ(state: LinkState, n: int) -> ClaimResult:
    """Same s, same h_j: `n` functions score them and give `n` different weight rows (the answer "differ"; some rows
    equal: "same"). On a state with "compare all": the picture names each function's largest weight."""
    result = compare(config_of(state))
    rows = distinct_rows(result)
    differ = rows.distinct == rows.scoring
    return ClaimResult(
        rows.scoring == n and differ,
        {"n_scoring": str(rows.scoring), "n_rows": str(rows.distinct)},
        shown=_peaks(result),
        answer="differ" if differ else "same",
    )


@claim("scoring:sizes")
def sizes(state: LinkState, cannot: Sequence[str]) -> ClaimResult:
    """H_d ≠ H_e: exactly the functions `cannot` (dot, scaled dot) fail to score, every other one scores. The answer:
    "mapped" (only the functions that map a side first still score), "all" (every one scores), "none"."""
    config = config_of(state)
    result = compare(config)
    failing = tuple(f.name for f in result.functions if f.read is None)
    answer = "all" if not failing else "none" if len(failing) == len(result.functions) else "mapped"
    return ClaimResult(
        set(failing) == set(cannot) and len(config.dec_state) != result.H_e,
        {"H_d": str(len(config.dec_state)), "H_e": str(result.H_e), "n_scoring": str(len(_scoring(result)))},
        shown=_peaks(result),
        answer=answer,
    )


@claim("scoring:window")
def window(state: LinkState, positions: Sequence[str]) -> ClaimResult:
    """A local window keeps exactly `positions`: every other position's weight is exactly 0, and the kept ones
    share all of it (local-m; local-p's Gaussian leaves less than 1, so this claim is about local-m)."""
    config = config_of(state)
    result = compare(config)
    read = result.shown(config.focus).read
    kept = [position_label(j) for j in range(result.S) if bool(read.mask[0, j])]
    outside = [float(read.weights[0, j]) for j in range(result.S) if not bool(read.mask[0, j])]
    holds = (
        result.window is not None
        and kept == list(positions)
        and all(w == 0 for w in outside)
        and abs(float(read.weights.sum()) - 1) < 1e-9
    )
    w = result.window
    values = {"positions": ", ".join(kept), "weights": vec(read.weights[0]), "n_out": str(len(outside))}
    if w is not None:
        values |= {"p": num(w.center), "lo": num(w.lo), "hi": num(w.hi)}
    return ClaimResult(holds, values, shown=(vec(read.weights[0]),))


@claim("scoring:keys_values")
def keys_values(state: LinkState, maps: str) -> ClaimResult:
    """The function in focus maps `maps` ("both": s and every h_j into A numbers; "keys": only the h_j; "none"),
    and whatever the keys' size, its context has the values' size H_e (the Keys-vs-values tab's lines)."""
    config = config_of(state)
    result = compare(config)
    f = result.get(config.focus)
    if f.read is None:
        return ClaimResult(False, {"function": config.focus})
    read = f.read
    keys, values = str(tuple(read.keys.shape)), str(tuple(read.values.shape))  # (B, S, A) or (B, S, H_d), (B, S, H_e)
    context = read.context[0]  # (H_e,)
    return ClaimResult(
        f.maps == maps and context.shape[0] == result.H_e,
        {"keys": keys, "values": values, "A": str(config.attn_size), "H_e": str(result.H_e), "context": vec(context)},
        shown=(keys, values, vec(context)),
    )
