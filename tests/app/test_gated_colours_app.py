"""The LSTM and GRU pages name the colours their charts draw: every colour word in the picture's description and
in the gates tab's caption is read off the scale of the chart it describes (issue 24 §1)."""

from __future__ import annotations

import json

import altair as alt
import pytest

from s2s_core.catalog import translate
from s2s_core.chartkit import colour_ends
from tests.app.conftest import all_text, open_page, open_tab


def _scales(spec: dict) -> dict[str, dict]:
    """The colour scales that colour a `value` field by a scheme, by scheme name, from every layer."""
    found: dict[str, dict] = {}
    for layer in [spec, *spec.get("layer", [])]:
        colour = layer.get("encoding", {}).get("color", {})
        scale = colour.get("scale", {})
        if colour.get("field") == "value" and "scheme" in scale:
            found[scale["scheme"]] = scale
    return found


def _ends(lang: str, scale: dict) -> tuple[str, str]:
    return tuple(translate(lang, f"ui.colour.{c}") for c in colour_ends(alt.Scale(**scale)))


def _ranges(lang: str, gate: tuple[str, str], value: tuple[str, str]) -> list[str]:
    """How a sentence writes the two scales' ends next to their numbers, in each language."""
    if lang == "en":
        return [f"{gate[0]} (0) to {gate[1]} (1)", f"{value[0]} (−1) to {value[1]} (1)"]
    return [f"0({gate[0]})부터 1({gate[1]})", f"−1({value[0]})부터 1({value[1]})"]


@pytest.mark.parametrize("ns", ["lstm", "gru"])
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_colour_words_are_the_ends_of_the_scales_drawn(ns, lang):
    # 1) The picture: gates on one scale, every other value on the other, and its description names both.
    at = open_page(ns, lang)
    assert not at.exception
    spec = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    scales = _scales(spec)
    gate, value = _ends(lang, scales["greens"]), _ends(lang, scales["redblue"])
    assert gate[0] != gate[1] and value[0] != value[1]
    for phrase in _ranges(lang, gate, value):
        assert phrase in spec["description"], (phrase, spec["description"])
    # 2) The gates tab: its heatmaps' scales, and the caption above them.
    open_tab(at, ns, f"{ns}.tab_gates", lang)
    heatmaps = {}
    for chart in at.get("vega_lite_chart"):
        heatmaps |= _scales(json.loads(chart.proto.spec))
    gate, value = _ends(lang, heatmaps["greens"]), _ends(lang, heatmaps["redblue"])
    caption = translate(
        lang,
        f"{ns}.all_steps_caption",
        gate_low=gate[0],
        gate_high=gate[1],
        value_low=value[0],
        value_high=value[1],
    )
    assert caption in all_text(at) and "{" not in caption
