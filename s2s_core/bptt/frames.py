"""Tidy frames for the backprop-through-time page (long format, ready for Altair), built from a BpttResult."""

from __future__ import annotations

import math

import pandas as pd

from s2s_core.bptt.compute import CELLS, PARAM_NAMES, BpttResult, CellGrad, ClipResult, band
from s2s_core.fmt import sci

CELL_NAMES = {"rnn": "RNN", "lstm": "LSTM", "gru": "GRU"}
LAW = "ρ^k"  # the reference line's series name (a formula, the same in every language)
LSTM_CELL = "LSTM cell"  # the LSTM's cell-state gradient ‖∂L/∂cell_t‖ (PyTorch's own word: cell)


def grad_frame(result: BpttResult) -> pd.DataFrame:
    """One row per (series, steps back) with a nonzero norm: a log scale cannot draw 0 (the cut shows as a rule)."""
    rows = []
    series: list[tuple[str, tuple[float, ...], str]] = [(CELL_NAMES[c.cell], c.norms, c.cell) for c in result.cells]
    lstm = result.by_cell("lstm")
    if lstm.cell_norms is not None:
        series.append((LSTM_CELL, lstm.cell_norms, "lstm"))
    series.append((LAW, result.rho_law, "law"))
    for name, norms, cell in series:
        for k, v in enumerate(norms):
            if v > 0:
                rows.append(
                    {
                        "series": name,
                        "cell": cell,
                        "k": k,
                        "t": result.config.T - k,
                        "norm": v,
                        "ratio": v / norms[0] if norms[0] > 0 else None,
                        "focus": cell == result.config.cell,
                    }
                )
    return pd.DataFrame(rows)


def cuts_frame(result: BpttResult) -> pd.DataFrame:
    """Where detach() cut the graph, in steps back."""
    return pd.DataFrame({"k": list(result.cuts), "t": [result.config.T - k for k in result.cuts]})


def milestone_steps(T: int) -> list[int]:
    """A few steps back worth a row in the table: 0, 1, 5, 10, 20, 40 and the first step."""
    return sorted({k for k in (0, 1, 5, 10, 20, 40) if k < T} | {T - 1})


def milestones_frame(result: BpttResult, k_title: str) -> pd.DataFrame:
    """Wide table: rows = steps back, columns = cells, cells = ‖∂L/∂h‖ (scientific notation)."""
    rows = []
    for k in milestone_steps(result.config.T):
        row: dict[str, object] = {k_title: k}
        for c in result.cells:
            row[CELL_NAMES[c.cell]] = sci(c.norms[k])
        row[LAW] = sci(result.rho_law[k])
        rows.append(row)
    return pd.DataFrame(rows)


def clip_frame(grad: ClipResult, before: str, after: str, total: str) -> pd.DataFrame:
    """Norms per parameter and in total, before and after clip_grad_norm_ (labels translated by the caller).

    'base' is where the bars start on the log scale (a power of ten under every value and max_norm),
    because a log axis has no 0 to start from.
    """
    rows = []
    for name, b, a in zip(PARAM_NAMES, grad.param_before, grad.param_after, strict=True):
        rows += [{"param": name, "when": before, "norm": b}, {"param": name, "when": after, "norm": a}]
    rows += [
        {"param": total, "when": before, "norm": grad.total_before},
        {"param": total, "when": after, "norm": grad.total_after},
    ]
    frame = pd.DataFrame(rows)
    smallest = min([v for v in frame["norm"] if v > 0] + [grad.max_norm])
    return frame.assign(base=10.0 ** math.floor(math.log10(smallest)))


def cell_order() -> list[str]:
    return [CELL_NAMES[c] for c in CELLS] + [LSTM_CELL, LAW]


def ratio_band(ratio: float) -> str:
    """The quiz's three answers: 'vanish' (< 1/100 of the last step), 'same', or 'explode' (> 100×)."""
    return band(ratio)


def reach(grad: CellGrad) -> int:
    """How many steps back (counting the last step) the gradient reaches with the truncation: the first 0."""
    zeros = [k for k, v in enumerate(grad.norms) if v == 0]
    return zeros[0] if zeros else len(grad.norms)


def parts_frame(clipped: ClipResult, T: int, before: str, after: str) -> pd.DataFrame:
    """One row per (before/after clipping, steps back) with a nonzero part of ∂L/∂W_hh (a log scale cannot draw 0)."""
    rows = []
    for when, parts in ((before, clipped.part_before), (after, clipped.part_after)):
        for k, v in enumerate(parts):
            if v > 0:
                rows.append({"when": when, "k": k, "t": T - k, "norm": v, "ratio": v / parts[0] if parts[0] else None})
    return pd.DataFrame(rows, columns=["when", "k", "t", "norm", "ratio"])
