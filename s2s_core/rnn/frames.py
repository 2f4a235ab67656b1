"""Tidy frames and formula text for the RNN page, built from an RnnResult (no streamlit)."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import torch

from s2s_core.fmt import num
from s2s_core.rnn.compute import RnnResult

TERMS = ("W_x·x_t", "W_h·h_(t-1)", "b", "sum", "h_t")  # the bars of one step, in formula order


def unit_label(i: int) -> str:
    return f"h{i + 1}"


def step_frame(result: RnnResult, step: int) -> pd.DataFrame:
    """The terms of one step per hidden unit: W_x·x_t, W_h·h_(t-1), b, their sum, and h_t = tanh(sum)."""
    parts = (result.wx[step], result.wh[step], result.weights.b, result.pre[step], result.h[step])
    rows = []
    for term, values in zip(TERMS, parts, strict=True):
        for i, v in enumerate(values.tolist()):
            rows.append({"term": term, "unit": unit_label(i), "value": float(v)})
    return pd.DataFrame(rows)


def weights_table(matrix: torch.Tensor, col_prefix: str) -> list[list[str]]:
    """A weight matrix as rows of text cells (an editable table's defaults, and the read-only view)."""
    if matrix.dim() == 1:
        matrix = matrix.unsqueeze(1)  # (H,) -> (H, 1): b as a column, lined up with the rows of W
    return [[num(v) for v in row] for row in matrix.tolist()]


def _bmatrix(rows: list[list[float]]) -> str:
    return r"\begin{bmatrix}" + r" \\ ".join(" & ".join(num(v) for v in row) for row in rows) + r"\end{bmatrix}"


def _col(v: torch.Tensor) -> str:
    return _bmatrix([[float(a)] for a in v.tolist()])


def formula_latex(result: RnnResult, step: int) -> list[str]:
    """The step's formula with its numbers filled in, as four LaTeX blocks (no user text inside).

    Each product is split over two lines (matrix times vector, then the result) so a phone can show it.
    """
    t = step + 1
    w = result.weights
    x_t, h_prev = rf"x_{{{t}}}", rf"h_{{{t - 1}}}"
    return [
        rf"\begin{{aligned}} W_x\,{x_t} &= {_bmatrix(w.W_x.tolist())}{_col(result.x[step])} \\ "
        rf"&= {_col(result.wx[step])} \end{{aligned}}",
        rf"\begin{{aligned}} W_h\,{h_prev} &= {_bmatrix(w.W_h.tolist())}{_col(result.h_prev[step])} \\ "
        rf"&= {_col(result.wh[step])} \end{{aligned}}",
        rf"\begin{{aligned}} & W_x\,{x_t} + W_h\,{h_prev} + b \\ "
        rf"&= {_col(result.wx[step])} + {_col(result.wh[step])} + {_col(w.b)} \\ "
        rf"&= {_col(result.pre[step])} \end{{aligned}}",
        rf"h_{{{t}}} = \tanh{_col(result.pre[step])} = {_col(result.h[step])}",
    ]


def unit_expansion(result: RnnResult, step: int, unit: int) -> str:
    """One number of W_x·x_t written out: 'w·x + w·x + … = value' (rounded for reading)."""
    row = result.weights.W_x[unit].tolist()
    x = result.x[step].tolist()
    parts = " + ".join(f"{_paren(a)}×{_paren(b)}" for a, b in zip(row, x, strict=True))
    return f"{parts} = {num(float(result.wx[step, unit]))}"


def _paren(v: float) -> str:
    text = num(v)
    return f"({text})" if text.startswith("-") else text


def repeated_tokens(tokens: tuple[str, ...]) -> list[tuple[str, list[int]]]:
    """Tokens that occur more than once, with their 1-based steps (the same x_t at each)."""
    steps: dict[str, list[int]] = {}
    for t, tok in enumerate(tokens, start=1):
        steps.setdefault(tok, []).append(t)
    return [(tok, ts) for tok, ts in steps.items() if len(ts) > 1]


@dataclass(frozen=True)
class RepeatReading:
    """The first word that comes back, and whether its states h_t differ (chooses the notice's sentence)."""

    token: str
    steps: tuple[int, ...]  # 1-based steps where it occurs
    differ: bool  # some two of its h_t differ: the state handed in changed what the step computes


def repeat_reading(result: RnnResult) -> RepeatReading | None:
    """None when no word comes back; else whether the same x_t gave different h_t here (with W_h = 0, or when
    W_h·h_(t-1) happens to be the same at those steps, they are equal bit for bit)."""
    repeats = repeated_tokens(result.tokens)
    if not repeats:
        return None
    token, steps = repeats[0]
    first = result.h[steps[0] - 1]  # (H,)
    differ = any(not torch.equal(result.h[t - 1], first) for t in steps[1:])
    return RepeatReading(token, tuple(steps), differ)


def memoryless(result: RnnResult) -> bool:
    """W_h is all zeros: nothing is handed from one step to the next (the page's "No memory" case)."""
    return not bool(result.weights.W_h.any())


def notice_keys(result: RnnResult) -> dict[str, str]:
    """The notices whose sentence depends on the live result, by role: "carried" (notice 2, how a state reaches
    the next) and "repeat" (a word that comes back), each an "rnn.*" key chosen by what this run computed."""
    reading = repeat_reading(result)
    if reading is None:
        repeat = "rnn.notice_repeat_hint"
    else:
        repeat = "rnn.notice_repeat" if reading.differ else "rnn.notice_repeat_same"
    return {"carried": "rnn.notice_2_none" if memoryless(result) else "rnn.notice_2", "repeat": repeat}


def saturated(result: RnnResult, step: int) -> bool:
    """Some h at this step is exactly ±1 in 64-bit floating point: tanh of a sum beyond about ±19 rounds to ±1,
    so "strictly between −1 and 1" (true in exact arithmetic) is not what the numbers on screen show."""
    return bool((result.h[step].abs() == 1).any())


def squash_range(result: RnnResult, step: int) -> dict[str, str]:
    """Range of the sum and of h_t at one step (tanh squeezes the first into the second)."""
    pre, h = result.pre[step], result.h[step]
    return {
        "lo": num(float(pre.min())),
        "hi": num(float(pre.max())),
        "hlo": num(float(h.min())),
        "hhi": num(float(h.max())),
    }
