"""LSTM gates: hand steps == nn.LSTM / nn.LSTMCell with copied weights, overrides, bad input, frames, charts."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from torch import nn

from s2s_core.errors import InputError
from s2s_core.fmt import vec
from s2s_core.gated.charts import LABELS as GATED_LABELS
from s2s_core.gated.charts import gate_heatmaps, override_lines, step_charts
from s2s_core.gated.fields import DEFAULT_SENTENCES, MAX_E, MAX_H, MAX_S, step_or_text
from s2s_core.gated.forcing import Force, forces_from
from s2s_core.gated.frames import first_difference, keeps_moving, weight_rows
from s2s_core.gated.inputs import SequenceSpec, default_sentence, input_vectors, parse_sizes, token_vector
from s2s_core.lstm import LstmConfig, lstm_gates, parse_config
from s2s_core.lstm.charts import LABELS as CHART_LABELS
from s2s_core.lstm.charts import RUNS, figure
from s2s_core.lstm.compute import (
    FREEZE,
    FREEZE_FROM,
    GATES,
    frozen_config,
    hand_lstm,
    lstm_weights,
    make_lstm,
    split_gates,
)
from s2s_core.lstm.diagram import WORDS as DIAGRAM_WORDS
from s2s_core.lstm.diagram import lstm_cell_dot
from s2s_core.lstm.fields import GATED
from s2s_core.lstm.frames import (
    equations,
    gates_frame,
    h_answer,
    override_frame,
    reading,
    states_frame,
    step_bars,
    step_table,
)

LABELS = {k: k for k in GATED_LABELS}  # the keys the shared gated charts read


def _random_x(S: int, E: int, seed: int) -> torch.Tensor:
    return torch.randn(S, E, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)  # (S, E)


@settings(max_examples=40, deadline=None)
@given(S=st.integers(1, MAX_S), E=st.integers(1, MAX_E), H=st.integers(1, MAX_H), seed=st.integers(0, 10_000))
def test_hand_loop_equals_nn_lstm_with_copied_weights(S, E, H, seed):
    # A module with PyTorch's own default init (not ours), its weights split by gate and run by hand.
    torch.manual_seed(seed)
    lstm = nn.LSTM(E, H, batch_first=True, dtype=torch.float64)
    x = _random_x(S, E, seed)
    run = hand_lstm(x, split_gates(lstm))
    with torch.no_grad():
        out, (h_n, c_n) = lstm(x.unsqueeze(0))  # (1, S, H), (1, 1, H), (1, 1, H)
    assert torch.allclose(run.h, out[0])
    assert torch.allclose(run.h[-1], h_n[0, 0])
    assert torch.allclose(run.c[-1], c_n[0, 0])


@settings(max_examples=30, deadline=None)
@given(S=st.integers(1, 6), E=st.integers(1, MAX_E), H=st.integers(1, MAX_H), seed=st.integers(0, 10_000))
def test_every_step_equals_nn_lstmcell(S, E, H, seed):
    """Not only the final state: c_t and h_t at each step match LSTMCell fed the same weights."""
    lstm = make_lstm(E, H, seed)
    cell = nn.LSTMCell(E, H, dtype=torch.float64)
    with torch.no_grad():
        cell.weight_ih.copy_(lstm.weight_ih_l0)
        cell.weight_hh.copy_(lstm.weight_hh_l0)
        cell.bias_ih.copy_(lstm.bias_ih_l0)
        cell.bias_hh.copy_(lstm.bias_hh_l0)
    x = _random_x(S, E, seed)
    run = hand_lstm(x, split_gates(lstm))
    h = c = torch.zeros(1, H, dtype=torch.float64)  # (1, H)
    with torch.no_grad():
        for t in range(S):
            h, c = cell(x[t : t + 1], (h, c))  # (1, E) -> (1, H), (1, H)
            assert torch.allclose(run.h[t], h[0]) and torch.allclose(run.c[t], c[0])


@settings(max_examples=30, deadline=None)
@given(
    E=st.integers(1, MAX_E),
    H=st.integers(1, MAX_H),
    seed=st.integers(0, 10_000),
    words=st.lists(st.sampled_from(["나는", "책을", "읽는다", "cat", "a", "도서관에서"]), min_size=1, max_size=MAX_S),
)
def test_page_result_passes_its_own_check(E, H, seed, words):
    config = parse_config("sentence", " ".join(words), None, E, H, seed)
    result = lstm_gates(config)
    assert result.max_abs_diff < 1e-9
    assert result.run.h.shape == (len(words), H)
    assert result.n_params == sum(p.numel() for p in make_lstm(E, H, seed).parameters()) == 4 * (H * E + H * H + 2 * H)


def test_decomposition_is_the_modules_own_rows():
    result = lstm_gates(LstmConfig())
    H = result.run.h.shape[1]
    stacked = torch.cat([result.weights[g].W_x for g in GATES])  # (4H, E)
    assert torch.equal(stacked, result.weight_ih)
    assert torch.equal(result.weights["f"].W_h, result.weight_hh[H : 2 * H])
    # The gate values really are what the formulas say.
    run = result.run
    assert torch.all((run.gates["f"].value > 0) & (run.gates["f"].value < 1))
    assert torch.allclose(run.c, run.gates["f"].value * run.c_prev + run.gates["i"].value * run.gates["g"].value)
    assert torch.allclose(run.h, run.gates["o"].value * torch.tanh(run.c))
    assert torch.allclose(run.h_prev[1:], run.h[:-1]) and torch.allclose(run.c_prev[1:], run.c[:-1])


def test_forget_one_input_zero_keeps_the_cell_constant():
    config = parse_config(
        "sentence", "나는 도서관에서 책을 읽는다", None, 3, 4, 0, {"f": ([2, 3, 4], 1), "i": ([2, 3, 4], 0)}
    )
    result = lstm_gates(config)
    forced = result.forced
    assert forced is not None
    for t in (1, 2, 3):
        assert torch.equal(forced.c[t], forced.c[0])
    assert not torch.equal(result.run.c[3], result.run.c[0])  # without the override it does change
    assert torch.allclose(forced.c[0], result.run.c[0])  # step 1 untouched
    assert result.max_abs_diff < 1e-9  # the check always compares the natural run


def test_forcing_one_step_changes_only_later_steps():
    config = parse_config("sentence", "나는 도서관에서 책을 읽는다", None, 3, 4, 0, {"f": ([2], 0)})
    result = lstm_gates(config)
    natural, forced = result.run, result.forced
    assert torch.equal(forced.c[0], natural.c[0]) and torch.equal(forced.h[0], natural.h[0])
    assert torch.allclose(forced.c[1], natural.gates["i"].value[1] * natural.gates["g"].value[1])  # old cell erased
    assert not torch.allclose(forced.c[3], natural.c[3])  # the change travels downstream
    assert torch.all(forced.gates["f"].value[1] == 0)


def test_output_gate_zero_hides_h_but_the_cell_carries_on():
    config = parse_config("table", "", [["1", "0"], ["0", "1"], ["1", "1"]], 2, 3, 5, {"o": ([1, 2], 0.0)})
    result = lstm_gates(config)
    forced = result.forced
    assert torch.all(forced.h[:2] == 0)
    assert torch.allclose(forced.c[0], result.run.c[0])  # c does not depend on o at the same step
    assert not torch.allclose(forced.c[2], result.run.c[2])  # but later gates read h, so c differs later


def test_same_word_same_vector_even_when_other_words_change():
    a = input_vectors(SequenceSpec(tokens=("나는", "책을"), E=3, seed=1))
    b = input_vectors(SequenceSpec(tokens=("오늘", "나는", "책을"), E=3, seed=1))
    assert torch.equal(a[0], b[1]) and torch.equal(a[1], b[2])
    assert torch.equal(token_vector("책을", 3, 1), a[1])
    assert not torch.equal(token_vector("책을", 3, 2), a[1])


def test_table_mode_uses_the_typed_vectors():
    config = parse_config("table", "ignored", [["1", "2"], ["-1", "0.5"]], 7, 2, 0)
    assert config.seq.E == 2 and config.seq.S == 2
    result = lstm_gates(config)
    assert torch.equal(result.x, torch.tensor([[1.0, 2.0], [-1.0, 0.5]], dtype=torch.float64))
    assert result.labels == ("t1", "t2")


@pytest.mark.parametrize(
    "args, key, field",
    [
        (("sentence", "", None, 3, 4, 0), "errors.empty_text", "lstm.field.sentence"),
        (("sentence", "   ", None, 3, 4, 0), "errors.empty_text", "lstm.field.sentence"),
        (("sentence", "<pad> <pad>", None, 3, 4, 0), "errors.all_pad", "lstm.field.sentence"),
        (("sentence", " ".join(["a"] * (MAX_S + 1)), None, 3, 4, 0), "errors.too_many_tokens", "lstm.field.sentence"),
        (("sentence", "a b", None, MAX_E + 1, 4, 0), "errors.out_of_range", "lstm.field.E"),
        (("sentence", "a b", None, 3, MAX_H + 1, 0), "errors.out_of_range", "lstm.field.H"),
        (("sentence", "a b", None, 3, 0, 0), "errors.out_of_range", "lstm.field.H"),
        (("sentence", "a b", None, 3, 4, -1), "errors.out_of_range", "lstm.field.seed"),
        (("sentence", "a b", None, 3, "x", 0), "errors.not_an_integer", "lstm.field.H"),
        (("table", "", [], 3, 4, 0), "errors.empty_table", "lstm.field.vectors"),
        (("table", "", None, 3, 4, 0), "errors.empty_table", "lstm.field.vectors"),
        (("table", "", [["1", "abc"]], 2, 4, 0), "errors.not_a_number", "lstm.field.vectors"),
        (("table", "", [["1", "nan"]], 2, 4, 0), "errors.nan", "lstm.field.vectors"),
        (("table", "", [["1", "inf"]], 2, 4, 0), "errors.too_large", "lstm.field.vectors"),
        (("table", "", [["1", ""]], 2, 4, 0), "errors.empty_cell", "lstm.field.vectors"),
        (("table", "", [["1"] * (MAX_E + 1)], 2, 4, 0), "errors.too_many_cols", "lstm.field.vectors"),
        (("table", "", [["1"]] * (MAX_S + 1), 1, 4, 0), "errors.too_many_rows", "lstm.field.vectors"),
        (("bogus", "a", None, 3, 4, 0), "errors.bad_choice", "lstm.field.source"),
    ],
)
def test_bad_input_gets_a_named_message(args, key, field):
    with pytest.raises(InputError) as err:
        parse_config(*args)
    assert (err.value.key, err.value.field) == (key, field)


@pytest.mark.parametrize(
    "forces, key",
    [
        ({"f": ([5], 1)}, "errors.out_of_range"),  # the sentence has 4 steps
        ({"f": ([0], 1)}, "errors.out_of_range"),
        ({"f": ([2], 2)}, "errors.out_of_range"),  # a gate lives in [0, 1]
        ({"f": ([2], "nan")}, "errors.nan"),
        ({"g": ([2], 1)}, "errors.bad_choice"),  # the candidate is not a gate
    ],
)
def test_bad_overrides(forces, key):
    with pytest.raises(InputError) as err:
        parse_config("sentence", "나는 도서관에서 책을 읽는다", None, 3, 4, 0, forces)
    assert err.value.key == key and err.value.field == "lstm.field.force"


cell = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=6), st.none(), st.integers())


@settings(max_examples=50, deadline=None)
@given(
    rows=st.lists(st.lists(cell, min_size=0, max_size=10), max_size=14),
    sentence=st.one_of(st.text(max_size=60), st.none(), st.integers()),
    source=st.sampled_from(["sentence", "table", "x"]),
    E=st.one_of(st.integers(-3, 12), st.text(max_size=3)),
    H=st.one_of(st.integers(-3, 12), st.floats()),
    seed=st.one_of(st.integers(-5, 2**32), st.none()),
)
def test_any_input_either_works_or_raises_input_error(rows, sentence, source, E, H, seed):
    try:
        config = parse_config(source, sentence, rows, E, H, seed)
    except InputError:
        return
    result = lstm_gates(config)
    assert result.max_abs_diff < 1e-9


def test_frames_equations_and_reading():
    config = parse_config("sentence", "나는 도서관에서 책을 읽는다", None, 3, 4, 0, {"f": ([2], 1)})
    result = lstm_gates(config)
    run = result.run
    frame = gates_frame(run, result.labels, config.forces)
    assert len(frame) == 4 * 4 * 4 and set(frame["gate"]) == set(GATES)
    assert frame[(frame["gate"] == "f") & frame["forced"]]["t"].unique().tolist() == [2]
    assert list(step_table(run, 1).columns) == ["#", "i", "f", "g", "o", "c_(t-1)", "c_t", "h_t"]
    gates, states = step_bars(run, 0)
    assert len(gates) == 3 * 4 and len(states) == 4 * 4
    assert len(states_frame(run, result.labels)) == 2 * 4 * 4
    lines = equations(result, run, 2)
    assert lines[-3].startswith("c_t = f⊙c_(t-1) + i⊙g = ") and lines[-3].endswith(vec(run.c[2]))
    assert lines[-1].startswith("h_t = o⊙tanh(c_t) = ") and lines[-1].endswith(vec(run.h[2]))
    assert lines[4].startswith("i = σ(W_ii·x_t + b_ii + W_hi·h_(t-1) + b_hi) = σ(")
    read = reading(run, 0)
    f0 = run.gates["f"].value[0]
    assert read["kept"] == ", ".join(str(k + 1) for k in range(4) if f0[k] > 0.5)
    both = override_frame(run, result.forced, result.labels, {"natural": "N", "forced": "F"})
    assert set(both["run"]) == {"N", "F"} and len(both) == 2 * 2 * 4 * 4


def test_charts_build_valid_specs():
    config = parse_config("sentence", "나는 책을", None, 2, 3, 0, {"i": ([1], 0)})
    result = lstm_gates(config)
    titles = {g: g for g in GATES}
    assert all(c.to_dict() for c in gate_heatmaps(gates_frame(result.run, result.labels), GATES, titles, LABELS))
    assert all(c.to_dict() for c in step_charts(*step_bars(result.run, 0), LABELS))
    frame = override_frame(result.run, result.forced, result.labels, {"natural": "N", "forced": "F"})
    assert all(c.to_dict() for c in override_lines(frame, {"c": "c", "h": "h"}, LABELS))


def test_freezing_the_cell_holds_c_but_not_h():
    """The page's question: f = 1, i = 0 from step 2 keeps c at c_1, yet o still moves h (graded live)."""
    config = parse_config("sentence", DEFAULT_SENTENCES["en"], None, 3, 4, 0)
    forces = forces_from(FREEZE, config.seq.S, FREEZE_FROM)
    assert forces == (Force("i", (1, 2, 3), 0.0), Force("f", (1, 2, 3), 1.0))
    frozen = lstm_gates(
        parse_config("sentence", DEFAULT_SENTENCES["en"], None, 3, 4, 0, {"f": ([2, 3, 4], 1), "i": ([2, 3, 4], 0)})
    )
    assert frozen.forced is not None and config.seq.S == 4
    assert all(torch.equal(frozen.forced.c[t], frozen.forced.c[0]) for t in range(4))
    assert keeps_moving(frozen.forced.h) and not keeps_moving(frozen.forced.c)
    assert forces_from(FREEZE, 1, FREEZE_FROM) == ()
    # The question's run and its grading live in the core: the page only shows the answer's words.
    assert frozen_config(config).forces == forces
    assert h_answer(lstm_gates(frozen_config(config)).forced) == "moves"
    assert frozen_config(parse_config("sentence", "a", None, 3, 4, 0)) is None  # one step: nothing to freeze


def test_defaults_per_language_and_sizes_alone():
    assert len(DEFAULT_SENTENCES["en"].split()) == len(DEFAULT_SENTENCES["ko"].split()) == 4  # try-this links fit both
    assert default_sentence("en") == "I read a book" and default_sentence("xx") == DEFAULT_SENTENCES["ko"]
    assert parse_sizes(GATED, "3", 4, 0) == (3, 4, 0)
    with pytest.raises(InputError) as err:
        parse_sizes(GATED, 3, 99, 0)
    assert err.value.field == "lstm.field.H"
    w_ih, w_hh = lstm_weights(3, 4, 0)
    result = lstm_gates(LstmConfig())
    assert torch.equal(w_ih, result.weight_ih) and torch.equal(w_hh, result.weight_hh)


def test_diagram_escapes_quotes():
    dot = lstm_cell_dot(dict.fromkeys(DIAGRAM_WORDS, 'say "hi"'))
    assert '\\"hi\\"' in dot and dot.startswith("digraph")


def test_config_is_hashable():
    config = parse_config("sentence", "a b", None, 2, 2, 0, {"f": ([1], 1), "i": ([], 0)})
    assert hash(config) == hash(parse_config("sentence", "a b", None, 2, 2, 0, {"f": ([1], 1)}))
    assert config.forces == (Force("f", (0,), 1.0),)


def test_weight_rows_and_first_difference():
    config = parse_config("sentence", "나는 도서관에서 책을 읽는다", None, 3, 2, 0, {"o": ([3], 0)})
    result = lstm_gates(config)
    table = weight_rows(result.weight_ih, GATES, "block")
    assert table["block"].tolist() == ["i1", "i2", "f1", "f2", "g1", "g2", "o1", "o2"]
    assert list(table.columns) == ["block", "x1", "x2", "x3"]
    assert first_difference(result.run, result.forced) == 2  # o at step 3 changes h there, c only later
    assert first_difference(result.run, result.run) is None


def test_the_cell_picture_draws_the_runs_own_numbers_and_marks_a_forced_gate():
    import altair as alt

    from s2s_core.gated.picture import STEP_PARAM, WORDS, cell_chart
    from s2s_core.lstm.picture import picture_data

    # 1) Natural run: every column is the run's own vector; the products are f⊙c_(t-1) and i⊙g, c_t their sum.
    config = parse_config("sentence", "I read a book", None, 3, 4, 0)
    result = lstm_gates(config)
    pic = picture_data(result, config, {"natural": "computed", "forced": "forced"})
    run = result.run

    def column(frame, label, step):
        rows = frame[(frame["block"] == label) & (frame["step"] == step)].sort_values("k")
        return torch.tensor(rows["value"].tolist(), dtype=torch.float64)

    for t in range(4):
        f, i, o = (run.gates[n].value[t] for n in ("f", "i", "o"))
        assert torch.allclose(column(pic.cells, "c_t", t + 1), run.c[t])
        assert torch.allclose(column(pic.cells, "f⊙c_(t-1)", t + 1), f * run.c_prev[t])
        assert torch.allclose(column(pic.cells, "i⊙g", t + 1) + column(pic.cells, "f⊙c_(t-1)", t + 1), run.c[t])
        assert torch.allclose(column(pic.cells, "h_t", t + 1), o * torch.tanh(run.c[t]))
        assert torch.allclose(column(pic.cells, "i", t + 1), i)
    assert not pic.cells["forced"].any() and set(pic.wires["path"]) == {"computed"}
    strip = pic.strip[(pic.strip["row"] == "c2")].sort_values("step")
    assert torch.allclose(torch.tensor(strip["value"].tolist(), dtype=torch.float64), run.c[:, 1])
    # 2) Forced run (f = 0 at step 3): the picture shows that run, f's column and wire dashed at step 3 only.
    forced_config = parse_config("sentence", "I read a book", None, 3, 4, 0, {"f": ([3], 0)})
    forced = lstm_gates(forced_config)
    pic = picture_data(forced, forced_config, {"natural": "computed", "forced": "forced"}, before=result)
    assert torch.allclose(column(pic.cells, "c_t", 3), forced.forced.c[2])
    assert torch.allclose(column(pic.cells, "c_t", 3), column(pic.cells, "i⊙g", 3))  # nothing of c_2 is kept
    f_cols = pic.columns[pic.columns["block"] == "f"].set_index("step")["path"]
    assert f_cols[3] == "forced" and f_cols[2] == "computed"
    assert set(pic.wires[pic.wires["step"] == 3]["path"]) == {"computed", "forced"}
    assert not pic.cells[pic.cells["block"] == "i"]["forced"].any()
    # 3) The previous input (the computed run) sits in the strip's `before`; the spec is valid Vega-Lite.
    c_before = pic.strip[(pic.strip["row"] == "c1")].sort_values("step")["before"].tolist()
    assert c_before == pytest.approx(run.c[:, 0].tolist())
    param = alt.selection_point(name=STEP_PARAM, fields=["step"], value=[{"step": 2}])
    spec = cell_chart(pic, {k: k for k in WORDS} | {"natural": "computed"}, param).to_dict(validate=True)
    assert spec["title"]["text"] == "title" and spec["description"] == "description"


def test_every_figure_builds_valid_specs_with_the_page_words():
    """The page hands `figure` the words of LABELS, gate titles by GATES and run names by RUNS: every kind builds."""
    config = parse_config("sentence", DEFAULT_SENTENCES["en"], None, 3, 4, 0, {"f": ([2, 3], 1)})
    result = lstm_gates(config)
    labels, titles, runs = {k: k for k in CHART_LABELS}, {g: g for g in GATES}, {k: k for k in RUNS}
    counts = {"step": 2, "gates": 4, "override": 2, "forced_gates": 3}  # bars + states; i f g o; c, h; i f o
    for kind, n in counts.items():
        charts = figure(kind, result, config.forces, 1, labels, titles, runs)
        assert len(charts) == n and all(c.to_dict() for c in charts), kind
    with pytest.raises(ValueError):
        figure("forced_gates", lstm_gates(LstmConfig()), (), 0, labels, titles, runs)  # no forced run


def test_the_fields_are_todays_link_keys_and_the_cores_caps():
    """One declaration: the link keys links have always carried, and the caps parse_config checks with."""
    inputs = [f"lstm_{k}" for k in ("source", "sentence", "x", "E", "H", "seed", "step", "inspect")]
    forces = [f"lstm_force_{g}{end}" for g in ("i", "f", "o") for end in ("", "_to")]
    assert [f.key for f in GATED.all] == [*inputs, *forces, "lstm_tabs"]
    assert (GATED.E.hi, GATED.H.hi, GATED.E.default, GATED.H.default) == (MAX_E, MAX_H, 3, 4)
    assert [GATED.override(g).to.default for g in GATED.forceable] == [0, 1, 0]  # f = 1, i = 0: freeze one click away
    assert GATED.sentence.default_for("en") == DEFAULT_SENTENCES["en"] == default_sentence("en")
    with pytest.raises(InputError) as err:  # the core's check is the field's own
        parse_config("sentence", "a b", None, GATED.E.hi + 1, 4, 0)
    assert err.value.field == GATED.E.label == "lstm.field.E"
    assert [step_or_text(part) for part in ["2", "3", "9", "x"]] == [2, 3, 9, "x"]  # a link's steps, read one by one


def test_the_diagrams_colour_words_name_their_hues():
    """The sentence beside each cell diagram names its paths' colours (ui.colour.* keys in LEGEND) next to the hex
    the diagram draws them with: each word's hue range holds that colour's hue."""
    import colorsys

    from s2s_core.gru import diagram as gru_diagram
    from s2s_core.lstm import diagram as lstm_diagram

    hues = {"ui.colour.blue": (190, 250), "ui.colour.teal": (170, 190), "ui.colour.orange": (20, 45)}

    def hue(hex_colour: str) -> float:
        r, g, b = (int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
        return colorsys.rgb_to_hsv(r, g, b)[0] * 360

    drawn = {
        (lstm_diagram.LEGEND["c_colour"], lstm_diagram.C_PATH),
        (lstm_diagram.LEGEND["h_colour"], lstm_diagram.H_PATH),
        (gru_diagram.LEGEND["h_colour"], gru_diagram.H_PATH),
    }
    for key, colour in drawn:
        lo, hi = hues[key]
        assert lo <= hue(colour) <= hi, (key, colour)
    assert lstm_diagram.C_PATH in lstm_diagram.lstm_cell_dot(dict.fromkeys(lstm_diagram.WORDS, "x"))
