"""The GRU page's claims for lessons (s2s_core/lessons/claims.py): computed on a step's link state.

`config_of` reads a state as the page reads its controls (s2s_ui/gated.read_inputs and read_override), through
the same `parse_config` and `parse_forces` (s2s_core/gated/claims_common.read_config). Numbers are written as
the page writes them (s2s_core/fmt.py).
"""

from __future__ import annotations

from s2s_core.fmt import vec
from s2s_core.gated.claims_common import gate_open, held_from, module_check, read_config, shown_run
from s2s_core.gru import fields
from s2s_core.gru.compare import compare
from s2s_core.gru.compute import FREEZE_FROM, GruConfig, GruResult, gru_gates, parse_config
from s2s_core.gru.frames import reading
from s2s_core.lessons.claims import ClaimResult, LinkState, claim


def config_of(state: LinkState) -> GruConfig:
    return read_config(state, fields.GATED, parse_config)


def result_of(state: LinkState) -> GruResult:
    return gru_gates(config_of(state))


@claim("gru:gate_open")
def gate(state: LinkState, gate: str, step: int, component: int) -> ClaimResult:
    """Gate `gate` ("z") is above 0.5 at `step` in `component` (1-based): for z, that component mostly keeps the
    old h. {kept} is the reading line's list of such components (z > 0.5) at the step."""
    result = result_of(state)
    out = gate_open(result, gate, step, component)
    kept = reading(shown_run(result), step - 1)["kept"]
    return ClaimResult(out.holds, {**out.values, "kept": kept}, shown=out.shown)


@claim("gru:h_frozen")
def h_frozen(state: LinkState, start: int = FREEZE_FROM) -> ClaimResult:
    """In the run the picture shows, h stays h_(start-1) at every step from `start` on (z = 1: the freeze). With
    no cell state, holding h is the whole memory. values: {h1} the held h, {last}; shown: the Override tab's h."""
    result = result_of(state)
    run = shown_run(result)
    held = vec(run.h[start - 2])
    values = {"h1": held, "last": str(run.h.shape[0])}
    return ClaimResult(result.forced is not None and held_from(run.h, start), values, shown=(vec(run.h[-1]),))


@claim("gru:params")
def param_counts(state: LinkState, gru: int, lstm: int) -> ClaimResult:
    """nn.GRU and nn.LSTM at the page's E and H hold `gru` and `lstm` parameters (the Compare tab's numbers). The
    answer: how the GRU's count compares with the LSTM's ("three_quarters", "half", "same"; else "other")."""
    config = config_of(state)
    totals = compare(config.seq.E, config.H).totals
    n_gru, n_lstm = totals["gru"], totals["lstm"]
    # The question's options, by the ratio of the two counts (3 blocks against 4: 3/4 at every E and H).
    ratios = {(3, 4): "three_quarters", (1, 2): "half", (1, 1): "same"}
    answer = next((a for (p, q), a in ratios.items() if q * n_gru == p * n_lstm), "other")
    values = {"gru": str(n_gru), "lstm": str(n_lstm), "E": str(config.seq.E), "H": str(config.H)}
    return ClaimResult((n_gru, n_lstm) == (gru, lstm), values, shown=(str(n_gru), str(n_lstm)), answer=answer)


@claim("gru:module_check")
def module(state: LinkState, params: int) -> ClaimResult:
    """The hand loop equals nn.GRU (output and h_n) and nn.GRU holds `params` = 3·(H·E + H·H + 2·H) parameters;
    {h_n} is the only final state it returns (no c_n), as the Check tab writes it."""
    result = result_of(state)
    return module_check(result, params, shown=(vec(result.torch_h_n),))
