"""Wrong inputs on purpose: the real error PyTorch raises (or the silent surprise when it raises none).

Shapes: B batch, S steps, E embedding, Hout = P or H, L·K rows of h_n.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch
from torch.nn.utils.rnn import pack_padded_sequence

from s2s_core.shapes import fields
from s2s_core.shapes.compute import ShapesConfig, modules_for
from s2s_core.shapes.fields import KINDS  # noqa: F401 (the failure field's options, kept importable from here)
from s2s_core.shapes.model import run_layer, token_ids

# The errors a wrong shape makes PyTorch raise; anything else is a bug and must surface in tests.
_EXPECTED = (RuntimeError, ValueError, TypeError, AttributeError, IndexError)


@dataclass(frozen=True)
class FailureDemo:
    kind: str
    code: str  # the wrong call, with the learner's sizes
    raised: bool
    error_type: str | None  # e.g. "RuntimeError"
    message: str | None  # PyTorch's own words, verbatim (shown as code, never as markdown)
    note: str  # catalog: shapes.fail.<kind>.<note>
    silent: tuple[tuple[str, tuple[int, ...]], ...] = ()  # shapes that came out when nothing was raised
    states: tuple[tuple[str, tuple[int, ...]], ...] = ()  # wrong_h0: the initial states this layer accepts
    dropped: str | None = None  # input_2d: the axis x[0] takes away, "batch" (batch_first) or "time" (not)
    fix_code: str | None = None  # input_2d: one sentence with its batch axis kept, in x and in the states
    fixed: tuple[tuple[str, tuple[int, ...]], ...] = ()  # input_2d: the shapes the fix gave, run just now


def call_error(fn: Callable[[], Any]) -> tuple[str | None, str | None]:
    """(error type, message) of what fn raises, or (None, None) when it runs."""
    try:
        fn()
    except _EXPECTED as err:
        return type(err).__name__, str(err)
    return None, None


def _demo(kind: str, code: str, fn: Callable[[], Any], quiet_note: str, silent=()) -> FailureDemo:
    err_type, message = call_error(fn)
    raised = err_type is not None
    return FailureDemo(
        kind, code, raised, err_type, message, "raised" if raised else quiet_note, () if raised else tuple(silent)
    )


def _shape_list(*pairs: tuple[str, torch.Tensor]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    return tuple((name, tuple(t.shape)) for name, t in pairs)


def _input_2d(c: ShapesConfig, layer: torch.nn.RNNBase, x: torch.Tensor) -> FailureDemo:
    """x[0], a 2-D input: PyTorch reads it as ONE unbatched sequence of its first axis. With batch_first that is
    sentence 1 without its batch axis; without it, x is (S, B, E) and x[0] is time step 1 of every sentence, so the
    time axis is the one gone. The fix keeps a batch axis of size 1 on the right axis, in x and in the states."""
    LK, B, Hout = c.num_layers * c.K, c.B, c.Hout
    lstm = c.cell == "LSTM"
    one = x[0]  # (S, E) with batch_first, (B, E) without
    h0 = torch.zeros(LK, B, Hout)  # (L·K, B, Hout): a batched state
    state = (h0, torch.zeros(LK, B, c.H)) if lstm else h0
    out, h_n, _ = run_layer(layer, one)  # what happens silently without h_0
    silent = _shape_list(("x[0]", one), ("outputs", out), ("h_n", h_n))
    code = f"rnn(x[0], {'(h_0, c_0)' if lstm else 'h_0'})  # x[0]: {tuple(one.shape)}"
    demo = _demo("input_2d", code, lambda: layer(one, state), "never")
    dropped = "batch" if c.batch_first else "time"
    # The fix: sentence 1 as a batch of one, sliced on the batch axis (first with batch_first, second without).
    x_code = "x[0:1]" if c.batch_first else "x[:, 0:1]"
    x_one = x[0:1] if c.batch_first else x[:, 0:1]  # (1, S, E) / (S, 1, E)
    h_one = h0[:, 0:1]  # (L·K, 1, Hout): the states keep (L·K, B, ·) whatever batch_first says
    fix_state = (h_one, state[1][:, 0:1]) if lstm else h_one
    fix_code = f"rnn({x_code}, {'(h_0[:, 0:1], c_0[:, 0:1])' if lstm else 'h_0[:, 0:1]'})"
    fix_out, fix_h, _ = run_layer(layer, x_one, fix_state)  # runs: the shapes below are real
    fixed = _shape_list((x_code, x_one), ("outputs", fix_out), ("h_n", fix_h))
    note = f"raised_{dropped}" if demo.raised else demo.note
    return FailureDemo(
        "input_2d", code, demo.raised, demo.error_type, demo.message, note, silent, (), dropped, fix_code, fixed
    )


@torch.inference_mode()
def failure_demo(c: ShapesConfig, kind: str) -> FailureDemo | None:
    """Run the chosen wrong call on the page's own layer; None for "none"."""
    kind = fields.FAILURE.check(kind)
    if kind == "none":
        return None
    embedding, layer = modules_for(c)
    x = embedding(token_ids(c.B, c.S, c.lengths))  # (B, S, E)
    if not c.batch_first:
        x = x.transpose(0, 1)  # (S, B, E)
    LK, B, Hout = c.num_layers * c.K, c.B, c.Hout
    lead = (B, c.S) if c.batch_first else (c.S, B)
    if kind == "wrong_e":
        # 1) One feature too many: the layer was built for input_size = E.
        bad = torch.zeros(*lead, c.E + 1)  # (B, S, E+1)
        return _demo(kind, f"rnn(torch.zeros{(*lead, c.E + 1)})", lambda: layer(bad), "never")
    if kind == "wrong_h0":
        # 2) h_0 laid out batch-first, as if batch_first applied to states too (it does not).
        h0, c0 = torch.zeros(B, LK, Hout), torch.zeros(B, LK, c.H)  # (B, L·K, Hout), (B, L·K, H)
        state = (h0, c0) if c.cell == "LSTM" else h0
        code = f"rnn(x, {'(h_0, c_0)' if c.cell == 'LSTM' else 'h_0'})  # h_0: torch.zeros{(B, LK, Hout)}"
        demo = _demo(kind, code, lambda: layer(x, state), "coincide")
        # The right layout, checked by running it: (L·K, B, Hout), Hout = P with proj_size; c_0 keeps H.
        good_h0, good_c0 = torch.zeros(LK, B, Hout), torch.zeros(LK, B, c.H)  # (L·K, B, Hout), (L·K, B, H)
        layer(x, (good_h0, good_c0) if c.cell == "LSTM" else good_h0)
        states = _shape_list(("h_0", good_h0), *((("c_0", good_c0),) if c.cell == "LSTM" else ()))
        # With proj_size, h_0 is not (L·K, B, H): the note that names the axes must say P.
        note = "raised_proj" if demo.raised and c.proj_size else demo.note
        return FailureDemo(demo.kind, demo.code, demo.raised, demo.error_type, demo.message, note, (), states)
    if kind == "input_2d":
        return _input_2d(c, layer, x)
    # 3) enforce_sorted=True (the default) wants the lengths longest first.
    lengths = c.lengths
    if all(a >= b for a, b in itertools.pairwise(lengths)):
        lengths = tuple(min(i + 1, c.S) for i in range(B))  # ascending on purpose
    ln = torch.tensor(lengths)  # (B,)
    code = (
        f"pack_padded_sequence(x, lengths=torch.tensor({list(lengths)}), batch_first={c.batch_first}, "
        "enforce_sorted=True)"
    )
    return _demo(
        kind, code, lambda: pack_padded_sequence(x, ln, batch_first=c.batch_first, enforce_sorted=True), "sorted"
    )
