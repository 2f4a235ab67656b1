"""The shapes page's config, its validation, and the real forward pass whose tensors the page reads.

Shapes: B batch, S steps, E embedding, H hidden, P proj_size (0 = none), L num_layers,
K num_directions (2 if bidirectional), Hout = P if P > 0 else H (the size of h and of outputs).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import torch
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from s2s_core.errors import InputError
from s2s_core.shapes import fields
from s2s_core.shapes.model import Cell, run_layer, seeded_modules, token_ids
from s2s_core.validate import check_int


@dataclass(frozen=True)
class ShapesConfig:
    """Everything the page's inputs decide (hashable: a cache key). Defaults = the study note's §8 example."""

    cell: Cell = fields.CELL.default
    B: int = fields.B.default
    S: int = fields.S.default
    E: int = fields.E.default
    H: int = fields.H.default
    num_layers: int = fields.NUM_LAYERS.default
    bidirectional: bool = fields.BIDIRECTIONAL.default
    batch_first: bool = fields.BATCH_FIRST.default
    proj_size: int = fields.PROJ_SIZE.default
    lengths: tuple[int, ...] = (3, 3)  # (B,) true length of each sentence; S means no padding
    packed: bool = fields.PACKED.default
    seed: int = fields.SEED.default

    @property
    def K(self) -> int:
        return 2 if self.bidirectional else 1

    @property
    def Hout(self) -> int:
        return self.proj_size if self.proj_size > 0 else self.H

    @property
    def padded(self) -> bool:
        return any(n < self.S for n in self.lengths)


@dataclass(frozen=True)
class NamedShape:
    """One tensor on screen: the code that names it, its axes as symbols, and its real shape."""

    name: str  # "outputs", "h_n", ...
    axes: tuple[str, ...]  # ("B", "S", "K·H")
    shape: tuple[int, ...]  # read from the real tensor
    roles: tuple[str, ...]  # "batch" | "time" | "feature" | "stack" | "rows" per axis


@dataclass(frozen=True)
class ShapesResult:
    """The real tensors of one forward pass (padded, and packed) plus their named shapes."""

    config: ShapesConfig
    ids: torch.Tensor  # (B, S) token ids, 0 = PAD
    x: torch.Tensor  # (B, S, E) or (S, B, E): the layer's input
    outputs: torch.Tensor  # (B, S, K·Hout) / (S, B, K·Hout): the page's run (packed runs padded back)
    h_n: torch.Tensor  # (L·K, B, Hout)
    c_n: torch.Tensor | None  # (L·K, B, H) for LSTM
    padded_outputs: torch.Tensor  # the run straight through PAD steps (same as outputs when not packed)
    padded_h_n: torch.Tensor  # (L·K, B, Hout)
    packed_h_n: torch.Tensor  # (L·K, B, Hout): states at each sentence's true end
    packed_c_n: torch.Tensor | None
    packed_data: torch.Tensor  # (ΣS, E) the input's PackedSequence.data
    batch_sizes: tuple[int, ...]  # (max len,) how many sentences are still running at each step
    sorted_indices: tuple[int, ...]  # (B,) longest first
    unsorted_indices: tuple[int, ...]  # (B,) the inverse permutation
    alone_h_n: torch.Tensor  # (L·K, B, Hout): each sentence run by itself, no PAD at all (the reference)
    alone_c_n: torch.Tensor | None  # (L·K, B, H)
    shapes: tuple[NamedShape, ...]


def parse_lengths(text: Any, B: int, S: int) -> tuple[int, ...]:
    """ "3, 2" -> (3, 2); missing lengths mean "full" (S); 0, > S or more than B lengths are rejected."""
    field = fields.LENGTHS.label
    raw = fields.LENGTHS.check(text)  # the text cap
    parts = [p for p in raw.replace(",", " ").replace(";", " ").split() if p]
    if len(parts) > B:
        raise InputError("shapes.error.too_many_lengths", field, count=len(parts), B=B)
    out = []
    for row, part in enumerate(parts, start=1):
        n = check_int(part, field, -(10**9), 10**9)
        if n < 1:
            raise InputError("shapes.error.length_not_positive", field, row=row, value=n)
        if n > S:
            raise InputError("shapes.error.length_over_s", field, row=row, value=n, S=S)
        out.append(n)
    return tuple(out) + (S,) * (B - len(out))


def parse_settings(
    *,
    cell: Any = fields.CELL.default,
    B: Any = fields.B.default,
    S: Any = fields.S.default,
    E: Any = fields.E.default,
    H: Any = fields.H.default,
    num_layers: Any = fields.NUM_LAYERS.default,
    bidirectional: Any = fields.BIDIRECTIONAL.default,
    batch_first: Any = fields.BATCH_FIRST.default,
    proj_size: Any = fields.PROJ_SIZE.default,
    packed: Any = fields.PACKED.default,
    seed: Any = fields.SEED.default,
) -> ShapesConfig:
    """Every input but the lengths, checked against its field (the first problem raises InputError naming it);
    every sentence has the full length S. A bad lengths field stops only what needs the lengths (`with_lengths`).
    """
    cell = fields.CELL.check(cell)
    B, S, E, H = fields.B.check(B), fields.S.check(S), fields.E.check(E), fields.H.check(H)
    num_layers = fields.NUM_LAYERS.check(num_layers)
    proj = fields.PROJ_SIZE.check(proj_size)
    # PyTorch needs 0 <= proj_size < hidden_size, and only LSTM has a projection.
    if cell == "LSTM" and proj >= H:
        raise InputError("shapes.error.proj_too_large", fields.PROJ_SIZE.label, value=proj, H=H)
    return ShapesConfig(
        cell=cell,
        B=B,
        S=S,
        E=E,
        H=H,
        num_layers=num_layers,
        bidirectional=fields.BIDIRECTIONAL.check(bidirectional),
        batch_first=fields.BATCH_FIRST.check(batch_first),
        proj_size=proj if cell == "LSTM" else 0,
        lengths=(S,) * B,
        packed=fields.PACKED.check(packed),
        seed=fields.SEED.check(seed),
    )


def with_lengths(config: ShapesConfig, text: Any) -> ShapesConfig:
    """The settings with the lengths field read against their B and S (raises InputError naming the lengths)."""
    return replace(config, lengths=parse_lengths(text, config.B, config.S))


def parse_config(*, lengths: Any = fields.LENGTHS.default, **settings: Any) -> ShapesConfig:
    """Validate raw widget / URL values (keyword arguments of `parse_settings`, and the lengths text)."""
    return with_lengths(parse_settings(**settings), lengths)


def _named_shapes(c: ShapesConfig, r: dict[str, Any]) -> tuple[NamedShape, ...]:
    """Named axes for every tensor; the sizes come from the tensors themselves."""
    h = "P" if c.proj_size else "H"
    # Always the general formula (K = 1 when unidirectional), as in the docs: the 1 is the lesson.
    feat, stack = f"K·{h}", "L·K"
    bt, bt_roles = (("B", "S"), ("batch", "time")) if c.batch_first else (("S", "B"), ("time", "batch"))
    out = [
        NamedShape("ids", ("B", "S"), tuple(r["ids"].shape), ("batch", "time")),
        NamedShape("x", (*bt, "E"), tuple(r["x"].shape), (*bt_roles, "feature")),
        NamedShape("outputs", (*bt, feat), tuple(r["outputs"].shape), (*bt_roles, "feature")),
        NamedShape("h_n", (stack, "B", h), tuple(r["h_n"].shape), ("stack", "batch", "feature")),
    ]
    if r["c_n"] is not None:
        out.append(NamedShape("c_n", (stack, "B", "H"), tuple(r["c_n"].shape), ("stack", "batch", "feature")))
    if c.packed:
        out += [
            NamedShape("packed.data", ("ΣS", "E"), tuple(r["packed_data"].shape), ("rows", "feature")),
            NamedShape("packed_out.data", ("ΣS", feat), tuple(r["packed_out_data"].shape), ("rows", "feature")),
            NamedShape("batch_sizes", ("max(len)",), (len(r["batch_sizes"]),), ("time",)),
        ]
    return tuple(out)


def axis_size(c: ShapesConfig, symbol: str) -> int:
    """What a named axis should measure under config c (the tests compare it with the real tensors)."""
    values = {
        "B": c.B,
        "S": c.S,
        "E": c.E,
        "H": c.H,
        "P": c.proj_size,
        "L": c.num_layers,
        "L·K": c.num_layers * c.K,
        "K·H": c.K * c.H,
        "K·P": c.K * c.proj_size,
        "ΣS": sum(c.lengths),
        "max(len)": max(c.lengths),
    }
    return values[symbol]


def _one_sentence(x: torch.Tensor, b: int, n: int, batch_first: bool) -> torch.Tensor:
    """Sentence b's first n steps as a batch of one, in the layer's own layout."""
    return x[b : b + 1, :n] if batch_first else x[:n, b : b + 1]  # (1, n, E) or (n, 1, E)


def modules_for(c: ShapesConfig) -> tuple[torch.nn.Embedding, torch.nn.RNNBase]:
    """The page's embedding and recurrent layer for this configuration (seeded: the same weights every run)."""
    return seeded_modules(
        c.seed,
        c.cell,
        c.E,
        c.H,
        num_layers=c.num_layers,
        bidirectional=c.bidirectional,
        batch_first=c.batch_first,
        proj_size=c.proj_size,
    )


@torch.inference_mode()
def run_shapes(c: ShapesConfig) -> ShapesResult:
    """Embed the ids, run the layer straight through PAD and packed, and read every shape."""
    embedding, layer = modules_for(c)
    # 1) Token ids -> vectors; batch_first=False wants time first, so swap the first two axes.
    ids = token_ids(c.B, c.S, c.lengths)  # (B, S)
    x = embedding(ids)  # (B, S, E)
    if not c.batch_first:
        x = x.transpose(0, 1)  # (S, B, E)
    return explain_shapes(c, layer, x, ids)


@torch.inference_mode()
def explain_shapes(c: ShapesConfig, layer: torch.nn.RNNBase, x: torch.Tensor, ids: torch.Tensor) -> ShapesResult:
    """Any recurrent layer that `c` describes (the page's seeded one, or a practitioner's: s2s_core/show) on x,
    (B, S, E) or (S, B, E) in the layer's layout, with ids (B, S) marking PAD as 0: every shape, padded and packed.
    """
    # 2) Straight through: every sentence runs all S steps, PAD steps included.
    p_out, p_h, p_c = run_layer(layer, x)  # (B, S, K·Hout), (L·K, B, Hout), (L·K, B, H)
    # 3) Packed: each sentence stops at its true length (enforce_sorted=False sorts for us).
    lengths = torch.tensor(c.lengths, dtype=torch.long)  # (B,)
    packed = pack_padded_sequence(x, lengths, batch_first=c.batch_first, enforce_sorted=False)
    k_out, k_h, k_c = run_layer(layer, packed)  # PackedSequence, (L·K, B, Hout), (L·K, B, H)
    k_padded, _ = pad_packed_sequence(k_out, batch_first=c.batch_first, total_length=c.S)  # like p_out
    # 4) The reference: each sentence alone, cut at its true length, so no PAD step ever runs.
    alone = [run_layer(layer, _one_sentence(x, b, n, c.batch_first)) for b, n in enumerate(c.lengths)]
    a_h = torch.cat([h for _, h, _ in alone], dim=1)  # B x (L·K, 1, Hout) -> (L·K, B, Hout)
    a_c = torch.cat([cc for _, _, cc in alone], dim=1) if p_c is not None else None  # (L·K, B, H)
    tensors = {
        "ids": ids,
        "x": x,
        "outputs": k_padded if c.packed else p_out,
        "h_n": k_h if c.packed else p_h,
        "c_n": k_c if c.packed else p_c,
        "packed_data": packed.data,
        "packed_out_data": k_out.data,  # (ΣS, E), (ΣS, K·Hout)
        "batch_sizes": tuple(int(n) for n in packed.batch_sizes),
    }
    return ShapesResult(
        config=c,
        ids=ids,
        x=x,
        outputs=tensors["outputs"],
        h_n=tensors["h_n"],
        c_n=tensors["c_n"],
        padded_outputs=p_out,
        padded_h_n=p_h,
        packed_h_n=k_h,
        packed_c_n=k_c,
        packed_data=packed.data,
        batch_sizes=tensors["batch_sizes"],
        sorted_indices=tuple(int(i) for i in packed.sorted_indices),
        unsorted_indices=tuple(int(i) for i in packed.unsorted_indices),
        alone_h_n=a_h,
        alone_c_n=a_c,
        shapes=_named_shapes(c, tensors),
    )
