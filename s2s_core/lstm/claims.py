"""The LSTM page's claims for lessons (s2s_core/lessons/claims.py): computed on a step's link state.

`config_of` reads a state as the page reads its controls (s2s_ui/gated.read_inputs and read_override): the
sequence, E, H and the seed through `parse_config`, the gate overrides through `parse_forces`
(s2s_core/gated/claims_common.read_config). Numbers are written as the page writes them (s2s_core/fmt.py).
"""

from __future__ import annotations

from s2s_core.fmt import num, vec
from s2s_core.gated.claims_common import gate_open, held_from, module_check, read_config, shown_run
from s2s_core.gated.frames import largest_states
from s2s_core.lessons.claims import ClaimResult, LinkState, claim
from s2s_core.lstm import fields
from s2s_core.lstm.compute import FREEZE_FROM, LstmConfig, LstmResult, lstm_gates, parse_config
from s2s_core.lstm.frames import reading


def config_of(state: LinkState) -> LstmConfig:
    return read_config(state, fields.GATED, parse_config)


def result_of(state: LinkState) -> LstmResult:
    return lstm_gates(config_of(state))


@claim("lstm:gate_open")
def gate(state: LinkState, gate: str, step: int, component: int) -> ClaimResult:
    """Gate `gate` ("f") is above 0.5 at `step` in `component` (1-based), as the picture's reading line counts it:
    "f > 0.5 in component 2". {kept} is that line's list of kept components (f > 0.5) at the step."""
    result = result_of(state)
    out = gate_open(result, gate, step, component)
    kept = reading(shown_run(result), step - 1)["kept"]
    return ClaimResult(out.holds, {**out.values, "kept": kept}, shown=out.shown)


@claim("lstm:c_beyond_h")
def c_beyond_h(state: LinkState) -> ClaimResult:
    """The cell state goes past ±1 while h stays inside it (h = o⊙tanh(c), o ≤ 1): the "h vs c" tab's numbers."""
    largest = largest_states(result_of(state).run)  # the natural run, as the tab computes it
    max_c, max_h = num(largest["max_c"]), num(largest["max_h"])
    return ClaimResult(largest["max_c"] > 1 > largest["max_h"], {"max_c": max_c, "max_h": max_h}, shown=(max_c, max_h))


@claim("lstm:old_cell_kept")
def old_cell_kept(state: LinkState, step: int, expect: str) -> ClaimResult:
    """How much of c_(t-1) survives into c_t at `step` of the run the picture shows: "none" (f⊙c_(t-1) is zero:
    c_t is only i⊙g), "all" (f = 1: all of it) or "part". Holds when that is `expect`; the question's answer.
    values: {c_prev}, {ig} (i⊙g), {c} (c_t); shown: the Override tab's last c, when a gate is forced."""
    result = result_of(state)
    run = shown_run(result)
    t = step - 1
    f = run.gates["f"].value[t]  # (H,)
    kept = f * run.c_prev[t]  # (H,) what the forget gate lets through
    ig = run.gates["i"].value[t] * run.gates["g"].value[t]  # (H,)
    answer = "none" if float(kept.abs().max()) == 0.0 else "all" if bool((f == 1).all()) else "part"
    values = {"c_prev": vec(run.c_prev[t]), "ig": vec(ig), "c": vec(run.c[t]), "step": result.labels[t]}
    shown = (vec(run.c[-1]),) if result.forced is not None else ()
    return ClaimResult(answer == expect, values, shown=shown, answer=answer)


@claim("lstm:cell_frozen")
def cell_frozen(state: LinkState, start: int = FREEZE_FROM) -> ClaimResult:
    """In the run the picture shows, c stays c_(start-1) at every step from `start` on (the freeze: f = 1, i = 0).
    values: {c1} the held cell, {last} the last step; shown: the Override tab's last c."""
    result = result_of(state)
    run = shown_run(result)
    held = vec(run.c[start - 2])
    values = {"c1": held, "last": str(run.c.shape[0])}
    return ClaimResult(result.forced is not None and held_from(run.c, start), values, shown=(vec(run.c[-1]),))


@claim("lstm:module_check")
def module(state: LinkState, params: int) -> ClaimResult:
    """The hand loop equals nn.LSTM (output, h_n, c_n) and nn.LSTM holds `params` = 4·(H·E + H·H + 2·H) parameters;
    {h_n} and {c_n} are the module's final states, as the Check tab writes them."""
    result = result_of(state)
    c_n = vec(result.torch_c_n)
    out = module_check(result, params, shown=(vec(result.torch_h_n), c_n))
    return ClaimResult(out.holds, {**out.values, "c_n": c_n}, shown=out.shown)
