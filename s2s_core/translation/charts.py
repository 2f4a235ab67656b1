"""The Translation lab's charts: the attention map with each English word's true Korean source outlined, and the
three cells' training curves side by side. Altair only (no streamlit): s2s_ui/translation/specs.py caches them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import altair as alt
import pandas as pd

from s2s_core.chartkit import ordered
from s2s_core.fmt import NUM_D3, PCT_D3
from s2s_core.training.charts import attention_heatmap, series_style
from s2s_core.training.compute import SourceInput
from s2s_core.training.frames import point_frame
from s2s_core.training.loop import TrainRun
from s2s_core.training.tasks import KO_EN, reference
from s2s_core.training.trace import MapPoint
from s2s_core.translation.lab import true_sources

TRUTH_COLOUR = "#D55E00"  # the target / decoder role's vermillion on every page: the English word's own source, dashed
# translation.chart.*: the words truth_map adds to the Training lab's map words, and the words cells_charts takes.
TRUTH_LABELS = ("truth",)
CELLS_LABELS = ("step", "loss", "exact", "cell", "loss_title", "exact_title")


def truth_cells(point: MapPoint) -> tuple[tuple[int, int], ...]:
    """(output step, source position) of each English word the model got right whose Korean source the grammar
    knows: the cells a good map lights up. A wrong word's row is left unmarked (its source would mislead)."""
    expected = reference(KO_EN, list(point.source))
    aligned = true_sources(SourceInput(tuple(point.source)))
    if expected is None or aligned is None:
        return ()
    return tuple(
        (t, s)
        for t, (word, s) in enumerate(zip(expected, aligned, strict=True))
        if s is not None and t < len(point.output) and point.output[t] == word
    )


def truth_map(point: MapPoint, labels: Mapping[str, str]) -> alt.TopLevelMixin:
    """The Training lab's map of one decoded sentence, with a dashed frame on each true source cell."""
    frame = point_frame(point)
    marked = set(truth_cells(point))
    heat = attention_heatmap(frame, labels)
    if frame.empty or not marked:
        return heat
    frame = frame.assign(truth=[(t, s) in marked for t, s in zip(frame["t"], frame["s"], strict=True)])
    frames_ = (
        alt.Chart(frame)
        .transform_filter("datum.truth")
        .mark_rect(filled=False, stroke=TRUTH_COLOUR, strokeWidth=3, strokeDash=[5, 3])
        .encode(
            # The map's own order (source left to right, output steps top to bottom), named as its cells name it:
            # left to Vega, the categories of an earlier sentence can come first after an edit (t8 · <eos> on top).
            x=alt.X("position:N", sort=ordered(frame["position"])),
            y=alt.Y("step:N", sort=ordered(frame["step"])),
            tooltip=[
                alt.Tooltip("step:N", title=labels["step"]),
                alt.Tooltip("position:N", title=labels["truth"]),
            ],
        )
    )
    return heat + frames_


def _curves_chart(frame: pd.DataFrame, field: str, labels: Mapping[str, str], *, share: bool) -> alt.Chart:
    names = list(dict.fromkeys(frame["cell"]))
    y_scale = alt.Scale(domain=[0, 1]) if share else alt.Scale(zero=True)
    return (
        alt.Chart(frame)
        .mark_line(strokeWidth=2, point=share)
        .encode(
            x=alt.X("step:Q", title=labels["step"]),
            y=alt.Y(
                f"{field}:Q", title=labels[field], scale=y_scale, axis=alt.Axis(format=PCT_D3 if share else NUM_D3)
            ),
            **series_style("cell", names),
            tooltip=[
                alt.Tooltip("cell:N", title=labels["cell"]),
                alt.Tooltip("step:Q", title=labels["step"]),
                alt.Tooltip(f"{field}:Q", title=labels[field], format=PCT_D3 if share else NUM_D3),
            ],
        )
        .properties(height=220, width="container", title=labels[f"{field}_title"])
    )


def cells_charts(names: Sequence[str], runs: Sequence[TrainRun], labels: Mapping[str, str]) -> dict[str, alt.Chart]:
    """Training loss and held-out exact match against the step, one line per cell (names in the runs' order)."""
    losses = [
        {"cell": n, "step": s, "loss": loss} for n, run in zip(names, runs, strict=True) for s, loss, _ in run.losses
    ]
    exact = [
        {"cell": n, "step": e.step, "exact": e.free_exact}
        for n, run in zip(names, runs, strict=True)
        for e in run.evals
    ]
    return {
        "loss": _curves_chart(pd.DataFrame(losses), "loss", labels, share=False),
        "exact": _curves_chart(pd.DataFrame(exact), "exact", labels, share=True),
    }
