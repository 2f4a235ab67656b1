"""The RNN page's cached run and its finished chart specs, cached by value (s2s_ui/cache.py, s2s_ui/charts.py)."""

from __future__ import annotations

from typing import Any

from s2s_core.catalog import translate, words
from s2s_core.chartkit import step_param
from s2s_core.rnn import RnnConfig, RnnResult, unroll
from s2s_core.rnn.charts import LABELS, step_chart
from s2s_core.rnn.frames import step_frame
from s2s_core.rnn.picture import STEP_PARAM, picture_data, picture_words, unroll_picture
from s2s_ui.cache import cached_result
from s2s_ui.charts import cached_spec


@cached_result(max_entries=256)
def compute(config: RnnConfig) -> RnnResult:
    return unroll(config)


@cached_spec(max_entries=256)
def chart_spec(config: RnnConfig, before: RnnConfig | None, language: str, first_step: int) -> Any:
    """The picture's finished Vega-Lite spec, cached by value (building it in Altair costs far more than the math).

    Not validated here (to_dict(validate=False)): tests/core/test_rnn.py validates the picture's structure.
    """
    result = compute(config)
    previous = compute(before) if before is not None else None
    param = step_param(STEP_PARAM, len(result.tokens), first_step, translate(language, "steps.label"))
    return unroll_picture(picture_data(result, previous), picture_words(language), param)


@cached_spec(max_entries=256)
def step_bars_spec(config: RnnConfig, step: int, language: str) -> Any:
    """One step's terms as bars (the step's details, under the picture)."""
    return step_chart(step_frame(compute(config), step), words(language, "rnn.chart", LABELS))
