"""A learner's own weights: the `state_dict` of a single-layer nn.RNN, nn.LSTM or nn.GRU, read from an uploaded
file without ever running code from it, checked key by key, and rebuilt as PyTorch's own module.

    own = load_weights(raw_bytes, "lstm")   # OwnWeights(kind, E, H, values); InputError naming what is wrong
    own.module                              # nn.LSTM(E, H, batch_first=True, float64) holding the learner's weights

The file is read by `torch.load(..., weights_only=True)`: PyTorch's restricted unpickler, which builds tensors and
plain containers only and refuses any other global, so a pickle that would run code is an error, not a run. Before
that, the bytes are capped (MAX_FILE_BYTES) and a zip archive (PyTorch's format) is checked by its directory: a
bounded number of entries whose declared sizes add up to at most MAX_UNPACKED_BYTES, so a small file that would
unpack to gigabytes (a zip bomb) is refused unread. Then: a dict of tensors; exactly the four parameters of one
layer in one direction (a common prefix such as `encoder.` from a wrapper module is dropped); shapes that agree with
one another and fit the page's caps; finite values within MAX_ABS_VALUE. Nothing is written to disk.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

import torch
from torch import nn

from s2s_core import caps
from s2s_core.errors import InputError
from s2s_core.safe_load import Refused, load_untrusted

MAX_FILE_BYTES = 2 * 1024 * 1024  # the upload
MAX_UNPACKED_BYTES = 4 * 1024 * 1024  # what a zip archive may declare its entries unpack to, in all
MAX_ENTRIES = 32  # entries of a zip archive: a state_dict of four tensors has about ten
MAX_SIZE = 8  # E and H: the RNN, LSTM and GRU pages' caps (s2s_core/rnn/fields.py, s2s_core/gated/fields.py)
FIELD = "errors.own_weights.field"  # the field every message names

# kind -> (module class, gate blocks stacked in its weights)
KINDS: dict[str, tuple[type[nn.Module], int]] = {"rnn": (nn.RNN, 1), "lstm": (nn.LSTM, 4), "gru": (nn.GRU, 3)}
KEYS = ("weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0")
_LAYER = re.compile(r"_l(\d+)(_reverse)?$")  # nn.RNN / LSTM / GRU name parameters weight_ih_l<k>[_reverse]


@dataclass(frozen=True)
class OwnWeights:
    """A learner's checked parameters, as plain numbers: hashable and exact, so it is part of a page's config (a
    cache key) and the same file gives the same key; `module` rebuilds PyTorch's own module from them."""

    kind: str  # "rnn", "lstm" or "gru"
    E: int  # input size
    H: int  # hidden size
    values: tuple[tuple[float, ...], ...]  # the four parameters of KEYS, each flattened row by row, float64

    def tensors(self) -> dict[str, torch.Tensor]:
        """The parameters by name: weight_ih_l0 (kH, E), weight_hh_l0 (kH, H), bias_ih_l0 and bias_hh_l0 (kH,)."""
        kH = KINDS[self.kind][1] * self.H
        shapes = ((kH, self.E), (kH, self.H), (kH,), (kH,))
        return {
            key: torch.tensor(flat, dtype=torch.float64).reshape(shape)
            for key, flat, shape in zip(KEYS, self.values, shapes, strict=True)
        }

    @property
    def module(self) -> nn.Module:
        """PyTorch's own module of this kind, float64, batch_first, holding these weights (a fresh one per call)."""
        module = KINDS[self.kind][0](self.E, self.H, batch_first=True, dtype=torch.float64)
        with torch.no_grad():
            for key, value in self.tensors().items():
                getattr(module, key).copy_(value)
        return module


def _refuse(why: str, **params: object) -> InputError:
    return InputError(f"errors.own_weights.{why}", FIELD, **params)


def read_state_dict(raw: object) -> dict[str, torch.Tensor]:
    """The uploaded bytes as a dict of tensors, or an InputError; never runs code from the file (safe_load.py)."""
    try:
        loaded = load_untrusted(
            raw, max_bytes=MAX_FILE_BYTES, max_entries=MAX_ENTRIES, max_unpacked=MAX_UNPACKED_BYTES, zip_only=False
        )
    except Refused as refused:
        raise _refuse("not_weights" if refused.why == "unreadable" else refused.why, **refused.params) from None
    if not isinstance(loaded, Mapping) or not loaded:
        raise _refuse("not_a_state_dict")
    if not all(isinstance(k, str) and isinstance(v, torch.Tensor) for k, v in loaded.items()):
        raise _refuse("not_a_state_dict")
    return dict(loaded)


def _without_prefix(state: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """A wrapper module's state_dict ("encoder.weight_ih_l0", ...) read as the layer's own, when every key shares it."""
    prefixes = {k.rsplit(".", 1)[0] if "." in k else "" for k in state}
    if len(prefixes) == 1 and (prefix := prefixes.pop()):
        return {k[len(prefix) + 1 :]: v for k, v in state.items()}
    return state


def check_parameters(state: dict[str, torch.Tensor], kind: str) -> tuple[dict[str, torch.Tensor], int, int]:
    """The four parameters of one layer and one direction, shapes agreeing and within the caps, finite: (the
    parameters as float64, E, H)."""
    state = _without_prefix(state)
    names = sorted(state)
    layers = [m for n in names if (m := _LAYER.search(n))]
    if any(m.group(2) for m in layers):
        raise _refuse("bidirectional")
    if any(m.group(1) != "0" for m in layers):
        raise _refuse("layers", layers=1 + max(int(m.group(1)) for m in layers))
    missing = [k for k in KEYS if k not in state]
    extra = [k for k in names if k not in KEYS]
    if missing or extra:
        raise _refuse("keys", missing=", ".join(missing) or "-", extra=", ".join(extra)[:200] or "-")
    k = KINDS[kind][1]
    w_ih, w_hh, b_ih, b_hh = (state[key] for key in KEYS)
    if w_ih.dim() != 2 or w_hh.dim() != 2 or b_ih.dim() != 1 or b_hh.dim() != 1:
        raise _refuse("shapes", shapes=_shapes(state))
    kH, E = w_ih.shape
    if kH % k or kH == 0 or E == 0:
        raise _refuse("shapes", shapes=_shapes(state))
    H = kH // k
    if tuple(w_hh.shape) != (kH, H) or tuple(b_ih.shape) != (kH,) or tuple(b_hh.shape) != (kH,):
        raise _refuse("shapes", shapes=_shapes(state))
    if E > MAX_SIZE or H > MAX_SIZE:
        raise _refuse("too_large", E=E, H=H, limit=MAX_SIZE)
    params = {}
    for key in KEYS:
        value = state[key]
        if not value.is_floating_point():
            raise _refuse("not_float", name=key)
        value = value.detach().to(torch.float64)
        if not bool(torch.isfinite(value).all()):
            raise _refuse("not_finite", name=key)
        if float(value.abs().max()) > caps.MAX_ABS_VALUE:
            raise _refuse("too_far", name=key, limit=caps.MAX_ABS_VALUE)
        params[key] = value
    return params, E, H


def load_weights(raw: object, kind: str) -> OwnWeights:
    """An uploaded state_dict as the checked weights of a single-layer module of `kind` (module docstring)."""
    if kind not in KINDS:
        raise _refuse("kind", kind=str(kind)[:20])
    return from_state_dict(read_state_dict(raw), kind)


def from_state_dict(state: Mapping[str, torch.Tensor], kind: str) -> OwnWeights:
    """A state_dict already in memory (a notebook's module.state_dict(): s2s_core/show), checked the same way."""
    if kind not in KINDS:
        raise _refuse("kind", kind=str(kind)[:20])
    params, E, H = check_parameters(dict(state), kind)
    return OwnWeights(kind, E, H, tuple(tuple(params[key].flatten().tolist()) for key in KEYS))


def _shapes(state: Mapping[str, torch.Tensor]) -> str:
    return ", ".join(f"{k} {tuple(v.shape)}" for k, v in state.items())[:200]
