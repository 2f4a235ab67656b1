"""Tidy pandas frames for the shapes page (long format, ready for Altair and st.dataframe)."""

from __future__ import annotations

import pandas as pd

from s2s_core.shapes.compute import ShapesResult, axis_size
from s2s_core.shapes.padding import PaddingResult


def shape_text(shape: tuple[int, ...]) -> str:
    """(2, 3, 6) -> "(2, 3, 6)"; a 1-D shape keeps no trailing comma: (3,) -> "(3)"."""
    return "(" + ", ".join(str(n) for n in shape) + ")"


def axes_text(axes: tuple[str, ...]) -> str:
    return "(" + ", ".join(axes) + ")"


def sentence_label(b: int) -> str:
    """0-based batch row -> "#1", "#2", ... (the label used in every table and chart)."""
    return f"#{b + 1}"


def shapes_table(r: ShapesResult) -> pd.DataFrame:
    """One row per tensor: its name, named axes, and the shape read from the real tensor."""
    return pd.DataFrame([{"tensor": s.name, "axes": axes_text(s.axes), "shape": shape_text(s.shape)} for s in r.shapes])


def shapes_frame(r: ShapesResult) -> pd.DataFrame:
    """One row per (tensor, axis): symbol, real size, what the axis means; the chart draws these."""
    rows = []
    for order, s in enumerate(r.shapes):
        for dim, (symbol, size, role) in enumerate(zip(s.axes, s.shape, s.roles, strict=True)):
            rows.append(
                {
                    "tensor": s.name,
                    "order": order,
                    "dim": dim,
                    "symbol": symbol,
                    "size": size,
                    "expected": axis_size(r.config, symbol),
                    "role": role,
                    "label": f"{symbol} = {size}",
                }
            )
    return pd.DataFrame(rows)


def padding_states_frame(p: PaddingResult) -> pd.DataFrame:
    """One row per (sentence, unit): the state after PAD steps, the true last state, their difference."""
    rows = []
    B, Hout = p.true_last.shape
    for b in range(B):
        for j in range(Hout):
            rows.append(
                {
                    "sentence": sentence_label(b),
                    "length": p.lengths[b],
                    "unit": f"h{j + 1}",
                    "through_pad": float(p.through_pad[b, j]),
                    "true_last": float(p.true_last[b, j]),
                    "difference": float(p.difference[b, j]),
                }
            )
    return pd.DataFrame(rows)


METHODS = ("through_pad", "gathered", "packed")


def padding_error_frame(p: PaddingResult) -> pd.DataFrame:
    """One row per (sentence, method): max |state - true last state|; the fixes should sit at 0."""
    errors = {"through_pad": p.through_pad_err, "gathered": p.gathered_err, "packed": p.packed_err}
    return pd.DataFrame(
        [
            {"sentence": sentence_label(b), "length": p.lengths[b], "method": m, "max_abs_diff": errors[m][b]}
            for b in range(len(p.lengths))
            for m in METHODS
        ]
    )


def packed_frame(r: ShapesResult) -> pd.DataFrame:
    """One row per (sentence, step): token id, PAD or real, and which row of packed.data holds it.

    PackedSequence stores time step by time step, and within a step the sentences in sorted_indices
    order (longest first), keeping only those still running: that is what batch_sizes counts.
    """
    c = r.config
    row_of: dict[tuple[int, int], int] = {}
    row = 0
    for t, n_running in enumerate(r.batch_sizes):
        for b in r.sorted_indices[:n_running]:
            row_of[(b, t)] = row
            row += 1
    rows = []
    for b in range(c.B):
        for t in range(c.S):
            packed_row = row_of.get((b, t))
            rows.append(
                {
                    "sentence": sentence_label(b),
                    "step": t + 1,
                    "token": int(r.ids[b, t]),
                    "pad": packed_row is None,
                    "packed_row": packed_row,
                    "label": "PAD" if packed_row is None else str(packed_row),
                }
            )
    return pd.DataFrame(rows)
