"""The shared cell picture (s2s_core/gated/picture.py) for both cells: the flow's arrowheads, the line legend only
while a gate is forced, and a step that moves in the browser without a filter (every step's value in its row)."""

from __future__ import annotations

import json

import altair as alt
import pytest
import torch

from s2s_core.gated.picture import STEP_PARAM, WORDS, cell_chart, step_signal
from s2s_core.gru import gru_gates
from s2s_core.gru import parse_config as gru_config
from s2s_core.gru.picture import LAYOUT as GRU_LAYOUT
from s2s_core.gru.picture import picture_data as gru_picture
from s2s_core.lstm import lstm_gates
from s2s_core.lstm import parse_config as lstm_config
from s2s_core.lstm.picture import LAYOUT as LSTM_LAYOUT
from s2s_core.lstm.picture import picture_data as lstm_picture

WORDS_EN = {k: k for k in WORDS} | {"word": "x_t =", "natural": "computed"}
CELLS = {
    "lstm": (lstm_config, lstm_gates, lstm_picture, LSTM_LAYOUT, {"f": ([3], 0)}, "c_t"),
    "gru": (gru_config, gru_gates, gru_picture, GRU_LAYOUT, {"z": ([3], 1)}, "h_t"),
}


def spec_of(ns: str, forces: dict | None = None) -> tuple[dict, object]:
    make, run, picture, *_ = CELLS[ns]
    config = make("sentence", "I read a book", None, 3, 4, 0, *([forces] if forces else []))
    result = run(config)
    param = alt.selection_point(name=STEP_PARAM, fields=["step"], value=[{"step": 2}])
    return cell_chart(picture(result, config, WORDS_EN), WORDS_EN, param).to_dict(validate=True), result


def layers_named(spec: dict, name: str) -> list[dict]:
    return [layer for layer in spec["layer"] if layer.get("name") == name]


def rows_of(spec: dict, layer: dict) -> list[dict]:
    data = layer.get("data", {})
    return data["values"] if "values" in data else spec["datasets"].get(data.get("name"), [])


@pytest.mark.parametrize("ns", sorted(CELLS))
def test_each_flowing_wire_ends_in_a_head_pointing_its_way(ns):
    layout = CELLS[ns][3]
    spec, _ = spec_of(ns)
    (heads,) = layers_named(spec, "flow_heads")
    rows = rows_of(spec, heads)
    assert len(rows) == sum(w.head for w in layout.wires) >= 6
    assert {r["shape"] for r in rows} <= {"triangle-right", "triangle-left", "triangle-up", "triangle-down"}
    for wire, row in zip([w for w in layout.wires if w.head], rows, strict=True):
        assert row["x"] == wire.x2  # at the end the flow arrives at, moved back against the way it runs
        if row["shape"] == "triangle-right":
            assert wire.x2 > wire.x and row["dx"] < 0
        elif row["shape"] == "triangle-up":
            assert row["dy"] > 0 and wire.row2 <= wire.row
    # the carried state's line arrives at the kept part, the let-in part and the new state: three heads on it
    assert sum(r["colour"] == layout.carried_colour and r["size"] > 55 for r in rows) == 3


@pytest.mark.parametrize("ns", sorted(CELLS))
def test_the_line_legend_stands_only_while_a_gate_is_forced(ns):
    natural, _ = spec_of(ns)
    assert "strokeDash" not in json.dumps(natural)  # no dashed line, no legend for one
    forced, _ = spec_of(ns, CELLS[ns][4])
    dashes = [layer["encoding"]["strokeDash"] for layer in forced["layer"] if "strokeDash" in layer["encoding"]]
    assert dashes and all(d["scale"]["domain"] == ["computed", "forced"] for d in dashes)
    assert natural["height"] < forced["height"]  # the band under the strip is there only for the legend


@pytest.mark.parametrize("ns", sorted(CELLS))
def test_a_step_is_picked_by_lookup_not_by_a_filter(ns):
    """No layer filters on the step (a filter re-makes its marks at every move); each stepped layer picks the
    step's value from its row, and those rows hold the run's own numbers at every step."""
    spec, result = spec_of(ns, CELLS[ns][4])
    text = json.dumps(spec)
    assert '"param": "step_sel"}' not in text.replace('"param": "step_sel", "value"', "")  # no step filter
    signal = step_signal(alt.selection_point(name=STEP_PARAM))
    assert signal == "step_sel_step" and f"' + {signal}]" in text
    state = CELLS[ns][5]
    rows = [r for layer in spec["layer"] for r in rows_of(spec, layer) if r.get("block") == state and "k" in r]
    run = result.forced
    expected = run.c if ns == "lstm" else run.h
    for t in range(4):
        got = [r[f"value{t + 1}"] for r in sorted(rows, key=lambda r: r["k"])]
        assert torch.allclose(torch.tensor(got, dtype=torch.float64), expected[t].double())
