"""Where `outputs[:, -1]` and `h_n[-1]` come from, and whether they are equal for the inputs on screen.

h_n has one row per (layer, direction), layer by layer, forward then backward: row k is layer k // K + 1's
direction k % K. Each row is that direction's *final* state for every sentence: the forward direction reads left
to right and ends at the last position it ran (S - 1, or the sentence's last real step when packed); the backward
direction reads right to left and ends at position 0. `outputs` holds only the top layer, every position, the
forward H features then the backward H. So `outputs[:, -1]` is [forward at S - 1 | backward at S - 1] and
`h_n[-1]` is the top layer's last direction's final state: the same cell only with one direction and no PAD
position read differently (a packed run leaves zeros in `outputs` at PAD positions).

Shapes: B batch, S steps, L layers, K directions, Hout = P or H. No streamlit.
"""

from __future__ import annotations

from dataclasses import dataclass

from s2s_core.shapes.checks import compare
from s2s_core.shapes.compute import ShapesResult


@dataclass(frozen=True)
class StateRow:
    """One row of h_n traced along the followed sentence: which layer and direction, where it ran, where it ends."""

    row: int  # index into h_n: 0 .. L·K - 1
    layer: int  # 1-based
    backward: bool
    first: int  # the first position this direction ran (0 for every direction)
    last: int  # the last position it ran: S - 1, or length - 1 in a packed run
    final: int  # where its final state (h_n[row]) is: `last` going forward, 0 going backward


@dataclass(frozen=True)
class LastStepReading:
    """The page's question, `outputs[:, -1]` vs `h_n[-1]`, read from the real tensors, with their provenance."""

    lhs: str  # "outputs[:, -1]" or "outputs[-1]" (time first)
    sentence: int  # the sentence the picture follows (0-based): the shortest one, where PAD shows
    length: int
    S: int
    K: int
    Hout: int
    num_layers: int
    packed: bool
    rows: tuple[StateRow, ...]  # (L·K,) in h_n's order
    equal: bool  # torch.allclose on the real outputs[:, -1] and h_n[-1] (never assumed from the settings)
    max_abs_diff: float | None  # None when their shapes differ
    note: str  # catalog key shapes.picture.why.<note>: why they are (not) equal here

    def is_top(self, row: StateRow) -> bool:
        """A row of the top layer: the one whose states `outputs` holds."""
        return row.layer == self.num_layers

    @property
    def compared(self) -> StateRow:
        """The row h_n[-1] is: the top layer's last direction (backward when bidirectional)."""
        return self.rows[-1]


def why_note(*, equal: bool, bidirectional: bool, padded: bool, packed: bool, layers: int) -> str:
    """Which sentence explains the comparison: chosen first by the measured equality, then by what makes it so."""
    if equal:
        if padded:
            return "equal_through_pad"  # both ran through the PAD steps: equal, and both past the true end
        return "equal_layers" if layers > 1 else "equal"
    if bidirectional:
        return "differ_bidirectional"
    return "differ_packed_pad" if padded and packed else "differ"


def last_step_reading(r: ShapesResult) -> LastStepReading:
    """Compare the real `outputs[:, -1]` with `h_n[-1]` and trace every row of h_n along the shortest sentence."""
    c = r.config
    last = r.outputs[:, -1] if c.batch_first else r.outputs[-1]  # (B, K·Hout): the last position of every sentence
    equal, diff = compare(last, r.h_n[-1])  # h_n[-1]: (B, Hout)
    b = min(range(c.B), key=lambda i: (c.lengths[i], i))  # the shortest sentence (the first, without PAD)
    n = c.lengths[b]
    ran_to = n - 1 if c.packed else c.S - 1  # a packed run stops at the sentence's end; otherwise PAD runs too
    rows = []
    for k in range(c.num_layers * c.K):
        backward = k % c.K == 1
        rows.append(StateRow(k, k // c.K + 1, backward, 0, ran_to, 0 if backward else ran_to))
    note = why_note(equal=equal, bidirectional=c.bidirectional, padded=c.padded, packed=c.packed, layers=c.num_layers)
    return LastStepReading(
        lhs="outputs[:, -1]" if c.batch_first else "outputs[-1]",
        sentence=b,
        length=n,
        S=c.S,
        K=c.K,
        Hout=c.Hout,
        num_layers=c.num_layers,
        packed=c.packed,
        rows=tuple(rows),
        equal=equal,
        max_abs_diff=diff,
        note=note,
    )
