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


def figure(
    kind: str,
    result: LstmResult,
    forces: tuple[Force, ...],
    step: int,
    labels: dict[str, str],
    gate_titles: dict[str, str],
    runs: dict[str, str],
) -> list[alt.TopLevelMixin]:
    """The charts of one figure, drawn one under the other: a step's bars (0-based `step`), every step's gates,
    the natural vs the forced run's c and h, or the forced run's gates (`forces` marked)."""
    run = result.run
    if kind == "step":
        return gated_charts.step_charts(*step_bars(run, step), labels)
    if kind == "gates":
        return gated_charts.gate_heatmaps(gates_frame(run, result.labels), HEATMAPS, gate_titles, labels)
    if result.forced is None:
        raise ValueError(f"figure {kind!r} needs a forced run")
    if kind == "override":
        frame = override_frame(run, result.forced, result.labels, runs)
        return gated_charts.override_lines(frame, {"c": labels["c_over"], "h": labels["h_over"]}, labels)
    if kind == "forced_gates":
        frame = gates_frame(result.forced, result.labels, forces)
        return gated_charts.gate_heatmaps(frame, FORCEABLE, gate_titles, labels)
    raise ValueError(f"unknown figure {kind!r}")
