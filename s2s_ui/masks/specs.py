"""The masks page's cached results and finished chart specs, shared by the picture and every tab.

Building Altair specs is the slow part of a rerun, so the finished Vega-Lite dicts are cached by value (and not
re-validated here: tests/core/test_masks.py validates every chart against the schema). The language is an
argument, so each language's words are cached apart.
"""

from __future__ import annotations

from typing import Any

from s2s_core.catalog import translate, words
from s2s_core.chartkit import step_param
from s2s_core.masks import MasksConfig, MasksResult, compute_masks
from s2s_core.masks.charts import LABELS, batch_charts, sentence_charts
from s2s_core.masks.empty import EmptySourceDemo, empty_source_demo
from s2s_core.masks.picture import WORDS, masks_picture
from s2s_ui.cache import cached_result
from s2s_ui.charts import cached_spec

STEP_PARAM = "masks_pick_sel"  # the picture's sentence slider (a selection inside the chart)


@cached_result(max_entries=256)
def compute(config: MasksConfig) -> MasksResult:
    return compute_masks(config)


@cached_result(max_entries=32)
def empty_demo(S: int) -> EmptySourceDemo:
    return empty_source_demo(S)


@cached_spec(max_entries=256)
def batch_specs(config: MasksConfig, language: str) -> Any:
    """The whole batch: padded grids and per-token loss."""
    return dict(batch_charts(compute(config), config, words(language, "masks.chart", LABELS)))


@cached_spec(max_entries=256)
def sentence_specs(config: MasksConfig, b: int, language: str) -> Any:
    """Sentence b (0-based): attention masked vs unmasked, PAD share, final states."""
    return dict(sentence_charts(compute(config), config, b, words(language, "masks.chart", LABELS)))


@cached_spec(max_entries=256)
def picture_spec(
    config: MasksConfig,
    before: MasksConfig | None,
    rejected: tuple[tuple[int, str], ...],
    language: str,
    answered: bool,
    first: int,
) -> Any:
    """The grid with its two mask overlays and the chosen sentence's weights (answered: the counts may show)."""
    label = translate(language, "masks.picture.sentence", row="").strip()
    step = step_param(STEP_PARAM, len(config.rows), first, label)
    previous = (compute(before), before) if before is not None else None
    return masks_picture(
        compute(config), config, rejected, words(language, "masks.picture", WORDS), step, answered, previous
    )
