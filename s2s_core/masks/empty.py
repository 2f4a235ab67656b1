"""Why an all-PAD (empty) source must be filtered out before the model, shown with PyTorch's own results.

Shapes: S source length, H hidden.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch.nn.utils.rnn import pack_padded_sequence

from s2s_core import caps
from s2s_core.masks.fields import DEFAULT_PAIRS
from s2s_core.validate import check_int

FALLBACK_S = max(len(s.split()) for s, _ in DEFAULT_PAIRS)  # the demo's S when no batch runs: the default's


@dataclass(frozen=True)
class EmptySourceDemo:
    """What goes wrong, live, if a length-0 source reached the model."""

    S: int  # padded length of the imagined batch
    weights: tuple[float, ...]  # (S,) masked softmax when every score is -inf: 0/0 = NaN
    wrapped_to: int  # the 0-based position that index length - 1 = -1 actually picks (S - 1): Python wraps
    pack_error: str  # pack_padded_sequence's own message for a length of 0


def empty_source_demo(S: int) -> EmptySourceDemo:
    """Mask every position of a length-S source, as an all-PAD sentence would, and watch what breaks."""
    S = check_int(S, "masks.field.pairs", 1, caps.MAX_SEQ_LEN)
    # 1) Attention: every score becomes -inf, so softmax computes exp(-inf) / sum(exp(-inf)) = 0 / 0.
    scores = torch.zeros(S, dtype=torch.float64)  # (S,)
    weights = torch.softmax(scores.masked_fill(torch.ones(S, dtype=torch.bool), float("-inf")), dim=0)  # (S,)
    # 2) The "true last state" index: length 0 gives -1, which Python reads as "the last position".
    positions = torch.arange(S)  # (S,)
    wrapped_to = int(positions[torch.tensor(0) - 1])
    # 3) PyTorch's packing refuses a length of 0 outright.
    try:
        pack_padded_sequence(torch.zeros(2, S, 1), torch.tensor([S, 0]), batch_first=True, enforce_sorted=False)
        message = ""
    except RuntimeError as err:
        message = str(err)
    return EmptySourceDemo(S=S, weights=tuple(weights.tolist()), wrapped_to=wrapped_to, pack_error=message)
