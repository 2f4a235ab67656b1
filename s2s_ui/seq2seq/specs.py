"""The encoder–decoder page's run and charts, cached by value (frozen configs, never tensors): the picture and
every tab fetch what they show from here, so no tab depends on another having run.

Building Altair specs is the slow part of a rerun, so the finished Vega-Lite dicts are cached (validated against
the schema in tests/core/test_seq2seq.py instead of on every rerun).
"""

from __future__ import annotations

from typing import Any

from s2s_core.seq2seq import Seq2SeqConfig, Seq2SeqResult, run
from s2s_core.seq2seq.charts import LABELS, TOPK_LABELS, page_charts, topk_chart
from s2s_core.seq2seq.frames import topk_frame
from s2s_core.seq2seq.picture import STEP_PARAM, WORDS, model_picture, picture_frames
from s2s_ui.cache import cached_result
from s2s_ui.catalog import translate, words
from s2s_ui.charts import cached_spec
from s2s_ui.steps import step_param


@cached_result(max_entries=128)
def compute(config: Seq2SeqConfig) -> Seq2SeqResult:
    return run(config)


@cached_spec(max_entries=128)
def chart_specs(config: Seq2SeqConfig, language: str) -> Any:
    """The tabs' charts by name: outputs, h_n (and c_n), the decoder's states, the bottleneck."""
    labels = words(language, "seq2seq.chart", LABELS)
    return dict(page_charts(compute(config), config.directions, config.enc_layers, labels))


@cached_spec(max_entries=128)
def picture_spec(config: Seq2SeqConfig, before: Seq2SeqConfig | None, language: str, first: int) -> Any:
    """The main picture (both chains and their waist), its step control starting at `first`."""
    result = compute(config)
    frames = picture_frames(result, config.directions, compute(before) if before is not None else None)
    dec = result.decoding
    param = None if dec is None else step_param(STEP_PARAM, len(dec.steps), first, translate(language, "steps.label"))
    return model_picture(frames, words(language, "seq2seq.picture", WORDS), param)


@cached_spec(max_entries=256)
def topk_spec(config: Seq2SeqConfig, step: int, language: str) -> Any:
    """The k most likely next words at decoder step `step` (0-based), the chosen one highlighted."""
    chosen = compute(config).decoding.steps[step]
    title = translate(language, "seq2seq.chart.topk_title", k=len(chosen.top), step=step + 1)
    return topk_chart(topk_frame(chosen), words(language, "seq2seq.chart", TOPK_LABELS) | {"title": title})
