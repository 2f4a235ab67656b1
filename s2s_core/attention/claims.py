"""The attention page's claims for lessons (s2s_core/lessons/claims.py): computed on a step's link state.

`config_of` reads a state as the page reads its controls (pages/attention.py `read_inputs`): the two tables, the
mode and the PAD positions, through the same `parse_config`.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from s2s_core.attention import fields
from s2s_core.attention.compute import AttentionConfig, attention_weighting, parse_config
from s2s_core.attention.frames import position_label, step_label
from s2s_core.fmt import num, vec
from s2s_core.lessons.claims import ClaimResult, LinkState, claim


def config_of(state: LinkState) -> AttentionConfig:
    sources = [list(r) for r in state.value(fields.SOURCES)]
    steps = [list(r) for r in state.value(fields.STEPS)]
    pad = set(state.value(fields.PAD) or ())
    return parse_config(
        sources, steps, state.value(fields.MODE), [position_label(s) in pad for s in range(len(sources))]
    )


@claim("attention:context")
def context(state: LinkState, step: int, equals: Sequence[float]) -> ClaimResult:
    """The context of decoder step `step` (1-based) equals `equals` (to the page's rounding)."""
    result = attention_weighting(config_of(state))
    got = result.contexts[step - 1]  # (D,)
    text = vec(got)
    return ClaimResult(
        bool(torch.allclose(got.double(), torch.tensor(equals, dtype=torch.float64), atol=5e-3)),
        {"context": text, "step": step_label(step - 1)},
        shown=(text,),
    )


@claim("attention:heaviest")
def heaviest(state: LinkState, step: int, position: str) -> ClaimResult:
    """At decoder step `step` the heaviest weight is on source `position` ("s3")."""
    result = attention_weighting(config_of(state))
    weights = result.weights[step - 1]  # (S,)
    top = int(torch.argmax(weights))
    return ClaimResult(
        position_label(top) == position,
        {"position": position_label(top), "weight": num(float(weights[top])), "step": step_label(step - 1)},
        shown=(vec(weights),),
    )


@claim("attention:pad_weight_zero")
def pad_weight_zero(state: LinkState, position: str) -> ClaimResult:
    """Every decoder step gives the PAD position `position` weight 0 (the answer "zero"; else "kept")."""
    config = config_of(state)
    result = attention_weighting(config)
    s = int(position.removeprefix("s")) - 1
    zero = bool(config.pad[s]) and bool((result.weights[:, s] == 0).all())  # (T,)
    return ClaimResult(
        zero, {"position": position}, shown=tuple(vec(w) for w in result.weights), answer="zero" if zero else "kept"
    )
