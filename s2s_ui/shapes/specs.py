"""The shapes page's results and charts, cached by value (frozen configs, never tensors): every tab fetches what
it shows from here, so no tab depends on another having run."""

from __future__ import annotations

from typing import Any

from s2s_core.catalog import words
from s2s_core.shapes import ShapesConfig, ShapesResult, run_shapes
from s2s_core.shapes.bridge import BridgeConfig, BridgeResult, bridge_view
from s2s_core.shapes.charts import PACKED_LABELS, PADDING_LABELS, packed_chart, padding_diff_chart, padding_error_chart
from s2s_core.shapes.checks import EqualityCheck, equality_checks
from s2s_core.shapes.code import script
from s2s_core.shapes.failures import FailureDemo, failure_demo
from s2s_core.shapes.frames import packed_frame, padding_error_frame, padding_states_frame
from s2s_core.shapes.padding import PaddingResult, padding_view
from s2s_core.shapes.picture import picture_frames, shapes_chart
from s2s_core.shapes.quiz import ShapeQuestion, make_question
from s2s_ui.cache import cached_result
from s2s_ui.charts import cached_spec


@cached_result(max_entries=128)
def compute(config: ShapesConfig) -> ShapesResult:
    return run_shapes(config)


@cached_result(max_entries=128)
def padding(config: ShapesConfig) -> PaddingResult:
    return padding_view(compute(config))


@cached_result(max_entries=128)
def checks(config: ShapesConfig) -> tuple[EqualityCheck, ...]:
    return equality_checks(compute(config))


@cached_result(max_entries=128)
def code(config: ShapesConfig) -> str:
    return script(compute(config))


@cached_result(max_entries=128)
def bridge(config: ShapesConfig, decoder: BridgeConfig) -> BridgeResult:
    return bridge_view(compute(config), decoder)


@cached_result(max_entries=128)
def failure(config: ShapesConfig, kind: str) -> FailureDemo | None:
    return failure_demo(config, kind)


@cached_result(max_entries=256)
def question(number: int) -> ShapeQuestion:
    return make_question(number)


@cached_spec(max_entries=128)
def picture_spec(config: ShapesConfig, language: str, answered: bool) -> Any:
    """The blocks picture with the panel that traces where the two compared slices come from; once the question
    is answered, whether they are equal and why (both read from the real tensors: s2s_core/shapes/origin.py)."""
    return shapes_chart(picture_frames(compute(config)), config, language, answered)


@cached_spec(max_entries=128)
def padding_specs(config: ShapesConfig, language: str) -> Any:
    """The padding tab's two charts: each reading's error per sentence, and the state's difference after PAD."""
    view, labels = padding(config), words(language, "shapes.padding.chart", PADDING_LABELS)
    return {
        "errors": padding_error_chart(padding_error_frame(view), labels),
        "diff": padding_diff_chart(padding_states_frame(view), labels | {"title": labels["diff_title"]}),
    }


@cached_spec(max_entries=128)
def packed_spec(config: ShapesConfig, language: str) -> Any:
    """The packing tab's grid: which sentence's token fills each row of packed.data, step by step."""
    return packed_chart(packed_frame(compute(config)), words(language, "shapes.packed.chart", PACKED_LABELS))
