"""The Training lab's charts and decodes, cached by value: a finished job's id names its model for good."""

from __future__ import annotations

from collections.abc import Sequence

from s2s_core.catalog import words
from s2s_core.training import DecodeResult, EvalPoint, SourceInput, TrainConfig, TrainResult, decode, what_if
from s2s_core.training.charts import (
    LABELS,
    accuracy_chart,
    attention_heatmap,
    bottleneck_chart,
    loss_chart,
    survival_chart,
)
from s2s_core.training.code import script
from s2s_core.training.compute import Survival, copy_survival, map_point, untrained_map
from s2s_core.training.frames import (
    METRICS,
    SURVIVAL_ITEMS,
    attention_frame,
    bottleneck_frame,
    eval_frame,
    loss_frame,
    point_frame,
    survival_frame,
)
from s2s_core.training.loop import TrainRun
from s2s_core.training.trace import MapPoint
from s2s_ui import charts
from s2s_ui.cache import cached_result
from s2s_ui.i18n import lang


def chart_labels() -> dict[str, str]:
    """The Training lab's chart words in the learner's language (s2s_core/training/charts.py LABELS)."""
    return words(lang(), "training.chart", LABELS)


def map_labels() -> dict[str, str]:
    """The map's words: its rows are output steps."""
    labels = chart_labels()
    return labels | {"step": labels["out_step"]}


def draw(where, spec: dict) -> None:
    charts.draw(where, spec)  # finished: text >= 11 px in the theme's colour, a description, labelled marks


def curve_specs(
    losses: Sequence[tuple[int, float, float]], evals: Sequence[EvalPoint], labels: dict[str, str]
) -> dict[str, dict]:
    """The loss and held-out accuracy curves (so far, while training; in full, when done)."""
    specs = {"loss": loss_chart(loss_frame(losses), labels).to_dict(validate=False)}
    if evals:
        names = {m: labels[f"m_{m}"] for m in METRICS}
        specs["accuracy"] = accuracy_chart(eval_frame(evals, names), labels).to_dict(validate=False)
    return specs


@charts.cached_spec(max_entries=64)
def training_specs(job_id: int, labels: dict[str, str], _result: TrainResult) -> dict[str, dict]:
    return curve_specs(_result.run.losses, _result.run.evals, labels)


@cached_result(max_entries=256)
def decoded(job_id: int, source: SourceInput, override: tuple | None, _result: TrainResult) -> DecodeResult:
    return decode(_result, source, override)


@cached_result(max_entries=256)
def what_if_decoded(job_id: int, source: SourceInput, override: tuple, _result: TrainResult) -> DecodeResult:
    return what_if(_result, source, decoded(job_id, source, None, _result), override)


@charts.cached_spec(max_entries=256)
def map_spec(job_id: int, source: SourceInput, override: tuple | None, labels: dict[str, str], _result: TrainResult):
    return attention_heatmap(attention_frame(decoded(job_id, source, override, _result)), labels)


@charts.cached_spec(max_entries=256)
def bottleneck_spec(
    job_ids: tuple[int, int], names: tuple[str, str], labels: dict[str, str], _runs: tuple[TrainRun, TrainRun]
):
    frame = bottleneck_frame({names[0]: _runs[0], names[1]: _runs[1]})
    return bottleneck_chart(frame, labels)


@cached_result(max_entries=64)
def survival(job_id: int, _result: TrainResult) -> tuple[Survival, ...]:
    """The names task: how often the finished model's outputs keep the name and the number, by source length."""
    return copy_survival(_result.config, _result.run.model)


@charts.cached_spec(max_entries=64)
def survival_spec(
    job_ids: tuple[int, int], names: tuple[str, str], labels: dict[str, str], _points: tuple[tuple, tuple]
):
    items = {item: labels[f"item_{item}"] for item in SURVIVAL_ITEMS}
    return survival_chart(survival_frame({names[0]: _points[0], names[1]: _points[1]}, items), labels)


@cached_result(max_entries=256)
def code_for(config: TrainConfig, source: SourceInput | None) -> str:
    return script(config, source)  # reads and stitches the core's source files: worth keeping


@cached_result(max_entries=64)
def untrained(config: TrainConfig, source: SourceInput) -> MapPoint:
    """The seeded model before its first step on the learner's source (a few milliseconds, but every rerun)."""
    return untrained_map(config, source)


@cached_result(max_entries=256)
def trained_point(job_id: int, source: SourceInput, _result: TrainResult) -> MapPoint:
    """The finished model on the learner's source, drawn like a checkpoint of its trace."""
    return map_point(_result.config, _result.run.model, source, _result.run.steps_done)


@charts.cached_spec
def point_spec(point: MapPoint, labels: dict[str, str]):
    """The map of one checkpoint (the untrained model, a replay's moment, or the trained model)."""
    return attention_heatmap(point_frame(point), labels)
