"""How the app writes numbers: one small set of formatters for every page, frame, chart and script.

Which one to use
- ``num(x)``   any value read in text or a table (a gate, a state, a weight, a score, a loss).
- ``signed(x)`` a change, with its sign: ``+0.1234``, ``-0.5``, ``0``.
- ``vec(v)``   a vector of such values: ``[0.2603, -0.4071, 1]``.
- ``prob(p)``  a probability; an exact 0 is "0", ``None`` (undefined, 0/0) is "—".
- ``pct(p)``   a share of 1 as a percentage: ``64%``, ``98.4%``, ``0.16%``.
- ``short(x)`` two significant digits, only for a label printed inside a small chart mark where num() would
               overlap its neighbour on a phone (the add-k bars); the mark's tooltip still gives num().
- ``two(x)``   two decimals, trailing zeros dropped (``sign=True``: ``+0.45``): a number in a compact table that
               repeats what a picture's marks print with ``TWO_D3`` / ``SIGNED_TWO_D3`` (Bahdanau vs Luong's
               scores, exps and weights, where S positions share a phone's width).
- ``seconds(x)`` a time in seconds (a training time, a time limit): one decimal, ``3.2``, ``20``;
               ``seconds_text(x)`` an estimate still to wait, whole seconds rounded up, never below ``1``.
- ``sci(x)``   a size that spans decades: a max |difference| against PyTorch, a gradient norm, a change
               the bottleneck shrinks to 1e-7: ``2.2e-16``.
- ``NUM_D3`` / ``SCI_D3`` / ``PCT_D3`` / ``TWO_D3`` / ``SIGNED_TWO_D3``: the same rules as d3-format strings, for
  Vega-Lite text marks, tooltips and axes. A number printed inside a heatmap cell uses s2s_core.chartkit.cell_label:
  NUM_D3 where the cell is wide enough, ``CELL_D3`` (2 decimals) where several columns share a phone's width.

The precision: 4 decimals, trailing zeros dropped (the value Python's ``round(x, 4)`` holds)
- Every page's code expander prints ``round(x, DIGITS)`` (see each ``s2s_core/<ns>/code.py``), so a number on
  the page and the same number printed by the learner's script agree digit for digit: ``0.2603``, ``3.4``
  (Python adds ``.0`` to a whole number: the page's ``1`` is the script's ``1.0``). Dropping trailing zeros
  keeps the seed's worked example as the note writes it (``[3.4, 2.2]``, not ``[3.4000, 2.2000]``), and it is
  what ``NUM_D3`` (d3's ``~`` flag) does in the charts, so a chart's label and the text beside it agree.
- The values shown are of order 1 (gates and probabilities in [0, 1], tanh states in (-1, 1), weights drawn
  from U(-1/√H, 1/√H), scores of a few units), so a fixed number of decimals (not significant digits) reads
  the same in every row of a table. Four of them show the softmax's 1/3 as 0.3333 and a gate's change of a
  thousandth, which three would blur; five would only add float noise and lengthen the filled-in formulas.
- A value is never shown as "-0"; ±∞ are written "∞" / "−∞" (a masked score, the log of a zero
  probability); NaN "nan".
- Whether a hand computation equals PyTorch is never read off ``num``: that is ``sci`` of the max |difference|,
  which shows 1e-16 as 1e-16, not as 0.0.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import torch

DIGITS = 4  # decimals of num(): the scripts print round(x, DIGITS) too
TINY_PROB = 1e-4  # below this (and above 0) a probability would round to 0.0: written with an exponent
NUM_D3 = f".{DIGITS}~f"  # num() in d3-format: 4 decimals, trailing zeros dropped
SCI_D3 = ".1e"
CELL_D3 = ".2~f"  # inside a heatmap cell too narrow for NUM_D3 (s2s_core.chartkit.cell_label decides)
PCT_D3 = ".1~%"  # pct() from 1 % up: one decimal, trailing zero dropped
TWO_D3 = ".2~f"  # two() on a chart mark: 2 decimals, trailing zeros dropped
SIGNED_TWO_D3 = "+" + TWO_D3  # two(x, sign=True) on a chart mark: +0.45, −1.05


def num(x: float) -> str:
    """4 decimals, trailing zeros dropped: 0.2603, -1.5, 3.4, 1; never '-0'; '∞', '−∞', 'nan'."""
    x = float(x)
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    text = f"{x:.{DIGITS}f}".rstrip("0").rstrip(".")  # NaN formats as 'nan' and is left alone
    return "0" if text == "-0" else text


def signed(x: float) -> str:
    """num() of a change with its sign written out: +0.1234, -0.5; no change is '0'."""
    text = num(x)
    return "+" + text if float(x) > 0 and text != "0" else text


def vec(values: torch.Tensor | Iterable[float]) -> str:
    """[0.2603, -0.4071, 1]: num() of each component."""
    items = values.tolist() if isinstance(values, torch.Tensor) else list(values)
    return "[" + ", ".join(num(v) for v in items) + "]"


def sci(x: float) -> str:
    """Two significant digits with an exponent: 2.2e-16, 1.8e+03; an exact 0 stays '0' (a cut gradient, an exact
    match)."""
    x = float(x)
    if x == 0:
        return "0"
    if math.isinf(x) or math.isnan(x):
        return num(x)
    return f"{x:.1e}"


def short(x: float) -> str:
    """Two significant digits for a label inside a small chart mark: 0.11, 0.087, 1e-05 (the tooltip gives num())."""
    return f"{float(x):.2g}"


def two(x: float, *, sign: bool = False) -> str:
    """A number in a compact table, as a picture's marks print it (TWO_D3 / SIGNED_TWO_D3): 2 decimals, trailing
    zeros dropped, never '-0'; sign=True writes '+' before a positive value. ±∞ and NaN as num() writes them (a
    score outside a window stays '−∞')."""
    x = float(x)
    if math.isinf(x) or math.isnan(x):
        return num(x)
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    if text == "-0":
        text = "0"
    return "+" + text if sign and text != "0" and x > 0 else text


def seconds(x: float) -> str:
    """A time in seconds as both labs write it everywhere (training time, a time limit, an estimate): num() of the
    value to one decimal (3.2, 20, 0.4); a tenth is as fine as a once-a-second poll can tell."""
    return num(round(float(x), 1))


def seconds_text(x: float | None) -> str:
    """An estimate, rounded up to whole seconds and never below 1 ("about 1 s" rather than "about 0 s"); no
    estimate yet (None) reads as 1."""
    return seconds(max(1, math.ceil(x or 0)))


def prob(p: float | None) -> str:
    """num(p), but an exact 0 is '0' (an unseen n-gram: the zero the page is about, as sci() writes it), a
    nonzero p below 1e-4 has an exponent (1.2e-05, not 0.0); None (0/0, undefined) -> '—'."""
    if p is None:
        return "—"
    return sci(p) if float(p) < TINY_PROB else num(p)


def pct(p: float) -> str:
    """A share of 1 as a percentage: one decimal from 1 % up, trailing zero dropped (64%, 98.4%, 3.2%); two
    significant digits below, never an exponent (0.16%, 0.00016%); below a millionth of a percent
    '< 0.000001%'."""
    value = 100 * float(p)
    if value == 0:
        return "0%"
    if value >= 1:
        return f"{value:.1f}".rstrip("0").rstrip(".") + "%"
    if value < 1e-6:
        return "< 0.000001%"
    digits = max(1, 1 - math.floor(math.log10(value)))
    return f"{value:.{digits}f}%"


def rounded(values: torch.Tensor | Iterable[float]) -> list[float]:
    """Each value rounded to DIGITS (a table column of floats that st.dataframe shows as num() would)."""
    items = values.tolist() if isinstance(values, torch.Tensor) else list(values)
    return [round(float(v), DIGITS) + 0.0 for v in items]


def script_defs(*names: str) -> str:
    """num / vec / sci written out as plain Python for a generated script, so it prints finite values exactly as
    the page writes them (a script prints ±∞ as Python does: inf, -inf)."""
    defs = {
        "num": (
            f'def num(x):\n    text = f"{{x:.{DIGITS}f}}".rstrip("0").rstrip(".")\n'
            '    return "0" if text == "-0" else text\n'
        ),
        "vec": 'def vec(v):\n    return "[" + ", ".join(num(a) for a in v.tolist()) + "]"\n',
        "sci": 'def sci(x):\n    return "0" if x == 0 else f"{x:.1e}"\n',
    }
    wanted = set(names) | ({"num"} if "vec" in names else set())
    return "\n\n".join(defs[n] for n in defs if n in wanted)
