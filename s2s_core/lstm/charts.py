"""The LSTM page's figures: the gated pages' charts (s2s_core/gated/charts.py) over i, f, g, o, c and h."""

from __future__ import annotations

import altair as alt

from s2s_core.gated import charts as gated_charts
from s2s_core.gated.forcing import Force
from s2s_core.lstm.compute import LstmResult
from s2s_core.lstm.fields import FORCEABLE
from s2s_core.lstm.frames import gates_frame, override_frame, step_bars

LABELS = (*gated_charts.LABELS, "c_over", "h_over")  # lstm.chart.*: the words of every figure below
RUNS = ("natural", "forced")  # lstm.*: the two runs' names in the override lines
HEATMAPS = ("f", "i", "g", "o")  # the heatmaps' order: f, which decides what c keeps, first


FIGURES = gated_charts.Figures(
    step_bars, gates_frame, override_frame, HEATMAPS, FORCEABLE, over=("c", "h"), tanh_gates=("g",)
)


def figure(
    kind: str,
    result: LstmResult,
    forces: tuple[Force, ...],
    step: int,
    labels: dict[str, str],
    gate_titles: dict[str, str],
    runs: dict[str, str],
) -> list[alt.TopLevelMixin]:
    """One of the page's figures (s2s_core/gated/charts.figure), over this cell's gates and states."""
    return gated_charts.figure(FIGURES, kind, result, forces, step, labels, gate_titles, runs)
