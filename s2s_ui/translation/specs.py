"""The Translation lab's charts and core results, cached by value (a finished job's id names its model for good):
the attention map with each English word's true Korean source outlined, and the three cells' curves."""

from __future__ import annotations

from collections.abc import Sequence

from s2s_core.training import SourceInput, TrainResult
from s2s_core.training.trace import MapPoint
from s2s_core.translation.charts import cells_charts, truth_map
from s2s_core.translation.lab import Alignment, Recurrence, alignment_score, hand_check, recurrence
from s2s_ui import charts
from s2s_ui.cache import cached_result


@charts.cached_spec
def truth_map_spec(point: MapPoint, labels: dict[str, str]):
    """The map of one decoded sentence with the true source cells outlined (s2s_core/translation/charts.py)."""
    return truth_map(point, labels)


@cached_result(max_entries=64)
def alignment(job_id: int, _result: TrainResult) -> Alignment | None:
    return alignment_score(_result)


@cached_result(max_entries=256)
def chain(job_id: int, source: SourceInput, _result: TrainResult) -> Recurrence:
    return recurrence(_result, source)


@cached_result(max_entries=256)
def attention_check(job_id: int, source: SourceInput, _result: TrainResult) -> float | None:
    """max |formula - module| of the attention weights on one typed sentence (s2s_core/translation/lab.py)."""
    return hand_check(_result, source)


@charts.cached_spec
def cells_specs(job_ids: tuple[int, ...], names: tuple[str, ...], labels: dict[str, str], _runs: Sequence) -> dict:
    """The three cells' loss and exact-match curves, cached by the jobs that trained them."""
    return cells_charts(names, _runs, labels)
