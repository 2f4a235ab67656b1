"""Padding on the shapes page: the state after PAD steps vs the true last state, and the two fixes.

Shapes: B batch, Hout = P or H, L·K rows of h_n ordered layer by layer, forward then backward
(so h_n[-K] is the top layer's forward direction and h_n[-1] the top layer's last direction).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from s2s_core.shapes.compute import ShapesResult

GATHER_TOL = 1e-5  # above this max |difference|, gathering at lengths - 1 did not reach the true last state


@dataclass(frozen=True)
class PaddingResult:
    """Top-layer forward states per sentence and how far each way of reading them is from the truth."""

    lengths: tuple[int, ...]  # (B,)
    true_last: torch.Tensor  # (B, Hout): state at the true last token (sentence run alone)
    through_pad: torch.Tensor  # (B, Hout): padded run's h_n[-K], after the PAD steps
    difference: torch.Tensor  # (B, Hout): through_pad - true_last
    through_pad_err: tuple[float, ...]  # (B,) max |through_pad - true_last| per sentence
    gathered_err: tuple[float, ...]  # (B,) max |padded outputs at t = lengths - 1 (forward half) - true_last|
    packed_err: tuple[float, ...]  # (B,) max |packed h_n (and c_n) - sentence alone|, all layers and directions
    backward_pad_err: tuple[float, ...]  # (B,) bidirectional: padded run's backward h_n vs alone (else 0)
    gather_max_diff: float  # the on-screen check: gathering == the true last state
    packed_max_diff: float  # the on-screen check: packing == the true last state
    gather_exact: bool  # gathering reached the true last state (not so below a bidirectional layer, with PAD)

    @property
    def backward_max_diff(self) -> float:
        """How far the padded run's backward h_n is from the sentence alone, at worst (0 when unidirectional)."""
        return max(self.backward_pad_err)

    @property
    def backward_misses(self) -> bool:
        """The backward direction read PAD steps first, so its h_n missed the sentence alone (worth a note)."""
        return self.backward_max_diff > GATHER_TOL


def _per_sentence_max(a: torch.Tensor, b: torch.Tensor, batch_dim: int) -> tuple[float, ...]:
    """max |a - b| over every axis except the batch axis."""
    d = (a - b).abs().movedim(batch_dim, 0).flatten(1)  # (B, rest)
    return tuple(float(v) for v in d.max(dim=1).values)


def padding_view(r: ShapesResult) -> PaddingResult:
    """Compare the straight-through run, gathering at lengths - 1 and packing with the sentence-alone run."""
    c = r.config
    K, Hout = c.K, c.Hout
    # 1) Truth: each sentence run alone; the top layer's forward direction is row -K of h_n.
    true_last = r.alone_h_n[-K]  # (B, Hout)
    # 2) Straight through PAD: h_n kept running after the sentence ended.
    through_pad = r.padded_h_n[-K]  # (B, Hout)
    # 3) Fix 1, gather: read the padded outputs at each sentence's last real step (forward half only:
    #    the backward half at that step has already read every PAD step on its way in).
    last = torch.tensor(c.lengths) - 1  # (B,)
    rows = torch.arange(c.B)  # (B,)
    out = r.padded_outputs  # (B, S, K·Hout) or (S, B, K·Hout)
    gathered = (out[rows, last] if c.batch_first else out[last, rows])[:, :Hout]  # (B, Hout)
    # 4) Fix 2, pack: h_n (and c_n) of the packed run, every layer and direction.
    packed_err = _per_sentence_max(r.packed_h_n, r.alone_h_n, 1)
    if r.packed_c_n is not None:
        packed_err = tuple(
            max(a, b) for a, b in zip(packed_err, _per_sentence_max(r.packed_c_n, r.alone_c_n, 1), strict=True)
        )
    backward = _per_sentence_max(r.padded_h_n[-1:], r.alone_h_n[-1:], 1) if c.bidirectional else (0.0,) * c.B
    gathered_err = _per_sentence_max(gathered, true_last, 0)
    return PaddingResult(
        lengths=c.lengths,
        true_last=true_last,
        through_pad=through_pad,
        difference=through_pad - true_last,  # (B, Hout)
        through_pad_err=_per_sentence_max(through_pad, true_last, 0),
        gathered_err=gathered_err,
        packed_err=packed_err,
        backward_pad_err=backward,
        gather_max_diff=max(gathered_err),
        packed_max_diff=max(packed_err),
        gather_exact=max(gathered_err) <= GATHER_TOL,
    )


def padding_notice(padded: bool, p: PaddingResult) -> str:
    """Which 'what to notice' line fits the padding chart: no PAD at all, both fixes exact, or only packing."""
    if not padded:
        return "n4_no_pad"
    return "n4" if p.gather_exact else "n4_gather_fails"
