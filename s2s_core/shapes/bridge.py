"""Encoder -> decoder bridge: turn the encoder's h_n (and c_n) into a decoder's initial state.

Shapes: B batch, L/K/Hout the encoder's layers, directions and h size; Ld, Hd the decoder's
layers and hidden size (the decoder is unidirectional, same cell type, input size E).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from s2s_core.shapes import fields
from s2s_core.shapes.compute import ShapesResult
from s2s_core.shapes.failures import call_error
from s2s_core.shapes.model import make_layer, run_layer, seeded


@dataclass(frozen=True)
class BridgeConfig:
    """The decoder the encoder's state must fit (hashable: a cache key)."""

    layers: int = 1
    hidden: int = 6


@dataclass(frozen=True)
class BridgeStep:
    """One line of the bridge: the code and the real shape it produces."""

    key: str  # catalog: shapes.bridge.step.<key>
    code: str
    shape: tuple[int, ...]


@dataclass(frozen=True)
class BridgeResult:
    steps: tuple[BridgeStep, ...]  # h path
    cell_steps: tuple[BridgeStep, ...]  # c path (LSTM only)
    naive_error: str | None  # what PyTorch says to decoder(y, h_n) without a bridge (None: accepted)
    naive_error_type: str | None
    h_0: torch.Tensor  # (Ld, B, Hd)
    decoder_output: torch.Tensor  # (B, 1, Hd) or (1, B, Hd): one decoder step from the bridged state
    decoder_h_n: torch.Tensor  # (Ld, B, Hd)
    needs_linear: bool  # K·Hout != Hd (or K·H != Hd for the cell state)
    h_linear: bool = False  # the h path has the linear map (and its tanh): K·Hout != Hd
    h_bounded: bool = True  # the encoder's h lies in (-1, 1): every cell here but an LSTM with proj_size
    h_max: float = 0.0  # max |h_n| of the encoder, measured

    @property
    def linear_note(self) -> str | None:
        """Which note the linear map gets: h mapped (and the encoder's h bounded or not), or only c mapped."""
        if not self.needs_linear:
            return None
        if not self.h_linear:
            return "shapes.bridge.linear_note_cell"
        return "shapes.bridge.linear_note" if self.h_bounded else "shapes.bridge.linear_note_proj"


def parse_bridge(layers: object, hidden: object) -> BridgeConfig:
    """The decoder's layers and hidden size, each checked against its field."""
    return BridgeConfig(layers=fields.DEC_LAYERS.check(layers), hidden=fields.DEC_HIDDEN.check(hidden))


def _bridge_path(
    state: torch.Tensor, L: int, K: int, Ld: int, Hd: int, name: str, squash: bool
) -> tuple[list[BridgeStep], torch.Tensor, nn.Linear | None]:
    """(L·K, B, n) -> (Ld, B, Hd) by view, concat, layer pick and (if sizes differ) a linear map."""
    B, n = state.shape[1], state.shape[2]
    target = name.replace("_n", "_0")  # h_n -> h_0, c_n -> c_0
    steps = [BridgeStep("start", name, tuple(state.shape))]
    # 1) Split the stacked axis into its two meanings: layer and direction.
    s = state.view(L, K, B, n)  # (L, K, B, n)
    steps.append(BridgeStep("view", f"s = {name}.view({L}, {K}, {B}, {n})", tuple(s.shape)))
    # 2) Join the directions along the features: one vector per layer that has read both ways.
    s = torch.cat([s[:, k] for k in range(K)], dim=-1)  # (L, B, K·n)
    code = "s = torch.cat([s[:, 0], s[:, 1]], dim=-1)" if K == 2 else "s = s[:, 0]"
    steps.append(BridgeStep("concat" if K == 2 else "drop_k", code, tuple(s.shape)))
    # 3) Match the number of layers: keep the top Ld layers, or hand the top layer to each.
    if Ld < L:
        s = s[L - Ld :]  # (Ld, B, K·n)
        steps.append(BridgeStep("top_layers", f"s = s[{L - Ld}:]", tuple(s.shape)))
    elif Ld > L:
        s = s[-1:].repeat(Ld, 1, 1)  # (1, B, K·n) -> (Ld, B, K·n)
        steps.append(BridgeStep("repeat_top", f"s = s[-1:].repeat({Ld}, 1, 1)", tuple(s.shape)))
    # 4) Match the size: a learned linear map when K·n differs from the decoder's hidden size.
    linear = None
    if K * n != Hd:
        linear = nn.Linear(K * n, Hd)
        s = linear(s)  # (Ld, B, Hd)
        if squash:
            s = torch.tanh(s)  # h lives in (-1, 1) like any tanh-squashed state
        lin = f"nn.Linear({K * n}, {Hd})(s)"
        steps.append(
            BridgeStep("linear", f"{target} = torch.tanh({lin})" if squash else f"{target} = {lin}", tuple(s.shape))
        )
    else:
        steps.append(BridgeStep("as_is", f"{target} = s", tuple(s.shape)))
    return steps, s, linear


@torch.inference_mode()
def bridge_view(r: ShapesResult, d: BridgeConfig) -> BridgeResult:
    """Bridge h_n (and c_n), then run one decoder step from it to prove the shapes are accepted."""
    c = r.config
    L, K = c.num_layers, c.K

    def build():
        h_steps, h_0, lin_h = _bridge_path(r.h_n, L, K, d.layers, d.hidden, "h_n", squash=True)
        c_steps, c_0, lin_c = ([], None, None)
        if r.c_n is not None:
            c_steps, c_0, lin_c = _bridge_path(r.c_n, L, K, d.layers, d.hidden, "c_n", squash=False)
        decoder = make_layer(c.cell, c.E, d.hidden, num_layers=d.layers, batch_first=c.batch_first).eval()
        return h_steps, h_0, c_steps, c_0, decoder, (lin_h is not None or lin_c is not None)

    # The bridge and the decoder get their own seed, so the encoder's weights stay those of the page.
    h_steps, h_0, c_steps, c_0, decoder, needs_linear = seeded(c.seed + 1, build)
    y = r.x[:, :1] if c.batch_first else r.x[:1]  # (B, 1, E) / (1, B, E): one step as a stand-in start token
    naive = (r.h_n, r.c_n) if r.c_n is not None else r.h_n
    err_type, err = call_error(lambda: decoder(y, naive))
    out, h_n, _ = run_layer(decoder, y, (h_0, c_0) if c_0 is not None else h_0)  # (B, 1, Hd), (Ld, B, Hd)
    return BridgeResult(
        steps=tuple(h_steps),
        cell_steps=tuple(c_steps),
        naive_error=err,
        naive_error_type=err_type,
        h_0=h_0,
        decoder_output=out,
        decoder_h_n=h_n,
        needs_linear=needs_linear,
        h_linear=h_steps[-1].key == "linear",
        # h = o ⊙ tanh(c) is in (-1, 1) (tanh for the RNN and a convex mix of tanh values for the GRU); with
        # proj_size the LSTM's h is W_hr·(o ⊙ tanh(c)), a linear map of it, with no bound of its own.
        h_bounded=not (c.cell == "LSTM" and c.proj_size > 0),
        h_max=float(r.h_n.abs().max()),
    )
