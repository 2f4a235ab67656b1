"""The backprop page's cached work: one result per config and the charts' finished specs, keyed by value (Altair
costs far more than the math). The specs are validated in tests/core/test_bptt.py, so drawn here unvalidated."""

from __future__ import annotations

from typing import Any

from s2s_core.bptt import BpttConfig, BpttResult, backprop_through_time, clip
from s2s_core.bptt.charts import CLIP_LABELS, GRAD_LABELS, WHEN_LABELS, clip_chart, grad_chart, parts_chart
from s2s_core.bptt.frames import CELL_NAMES, clip_frame, cuts_frame, grad_frame, parts_frame
from s2s_core.bptt.picture import LEGEND, WORDS, gradient_picture, picture_data
from s2s_core.catalog import translate, words
from s2s_ui.cache import cached_result
from s2s_ui.charts import cached_spec

CHART = "bptt.chart"


@cached_result(max_entries=128)
def compute(config: BpttConfig) -> BpttResult:
    return backprop_through_time(config)


@cached_spec(max_entries=128)
def picture_spec(config: BpttConfig, before: BpttConfig | None, max_norm: float, language: str) -> Any:
    """The chain with the gradient flowing back (s2s_core/bptt/picture.py)."""
    result = compute(config)
    clipped = clip(result.by_cell(config.cell), max_norm)
    previous = compute(before) if before is not None else None
    names = words(language, "bptt.picture", WORDS) | {
        "title": translate(language, "bptt.picture.title", cell=CELL_NAMES[config.cell]),
        "subtitle": translate(language, "bptt.picture.subtitle", rho=f"{config.rho:g}", T=config.T),
        "clip_title": translate(language, "bptt.picture.clip_title", max_norm=f"{max_norm:g}"),
        "description": translate(
            language, "bptt.picture.description", **{end: translate(language, key) for end, key in LEGEND.items()}
        ),
    }
    return gradient_picture(picture_data(config, result, clipped, previous), names)


@cached_spec(max_entries=128)
def grad_spec(config: BpttConfig, language: str) -> Any:
    """‖∂L/∂h‖ against steps back for every cell."""
    result = compute(config)
    return grad_chart(grad_frame(result), cuts_frame(result), words(language, CHART, GRAD_LABELS))


@cached_spec(max_entries=128)
def clip_spec(config: BpttConfig, max_norm: float, language: str) -> Any:
    """The clipping charts for one max_norm: per-parameter bars, and each step's part of ∂L/∂W_hh."""
    clipped = clip(compute(config).by_cell(config.cell), max_norm)
    labels = words(language, CHART, CLIP_LABELS)
    when = words(language, CHART, WHEN_LABELS)
    parts_labels = labels | {"description": translate(language, f"{CHART}.parts_description")}
    return {
        "params": clip_chart(clip_frame(clipped, when["before"], when["after"], when["total"]), max_norm, labels),
        "parts": parts_chart(parts_frame(clipped, config.T, when["before"], when["after"]), max_norm, parts_labels),
    }
