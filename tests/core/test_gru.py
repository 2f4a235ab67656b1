"""GRU: hand steps == nn.GRU / nn.GRUCell with copied weights, z overrides, parameter counts, bad input, frames."""

from __future__ import annotations

from dataclasses import replace

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from torch import nn

from s2s_core.errors import InputError
from s2s_core.fmt import vec
from s2s_core.gated.charts import gate_heatmaps, override_lines, step_charts
from s2s_core.gated.fields import MAX_E, MAX_H, MAX_S
from s2s_core.gated.forcing import forces_from
from s2s_core.gru import GruConfig, gru_gates, parse_config
from s2s_core.gru.charts import LABELS as CHART_LABELS
from s2s_core.gru.charts import PARAMS_LABELS, RUNS, figure, params_chart
from s2s_core.gru.compare import compare
from s2s_core.gru.compute import GATES, RESET_SHUT, gru_weights, hand_gru, make_gru, shut_config, split_gates
from s2s_core.gru.diagram import WORDS as DIAGRAM_WORDS
from s2s_core.gru.diagram import gru_cell_dot
from s2s_core.gru.frames import (
    COLUMNS,
    comparison_table,
    equations,
    gates_frame,
    mix_parts,
    old_state_reaches,
    override_frame,
    params_frame,
    reading,
    states_frame,
    step_bars,
    step_table,
)

LABELS = {k: k for k in (*CHART_LABELS, *PARAMS_LABELS)}  # the keys the page's chart builders read
SENTENCE = "나는 도서관에서 책을 읽는다"


def _random_x(S: int, E: int, seed: int) -> torch.Tensor:
    return torch.randn(S, E, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)  # (S, E)


@settings(max_examples=40, deadline=None)
@given(S=st.integers(1, MAX_S), E=st.integers(1, MAX_E), H=st.integers(1, MAX_H), seed=st.integers(0, 10_000))
def test_hand_loop_equals_nn_gru_with_copied_weights(S, E, H, seed):
    torch.manual_seed(seed)
    gru = nn.GRU(E, H, batch_first=True, dtype=torch.float64)  # PyTorch's own default init
    x = _random_x(S, E, seed)
    run = hand_gru(x, split_gates(gru))
    with torch.no_grad():
        out, h_n = gru(x.unsqueeze(0))  # (1, S, H), (1, 1, H)
    assert torch.allclose(run.h, out[0])
    assert torch.allclose(run.h[-1], h_n[0, 0])


@settings(max_examples=30, deadline=None)
@given(S=st.integers(1, 6), E=st.integers(1, MAX_E), H=st.integers(1, MAX_H), seed=st.integers(0, 10_000))
def test_every_step_equals_nn_grucell(S, E, H, seed):
    gru = make_gru(E, H, seed)
    cell = nn.GRUCell(E, H, dtype=torch.float64)
    with torch.no_grad():
        cell.weight_ih.copy_(gru.weight_ih_l0)
        cell.weight_hh.copy_(gru.weight_hh_l0)
        cell.bias_ih.copy_(gru.bias_ih_l0)
        cell.bias_hh.copy_(gru.bias_hh_l0)
    x = _random_x(S, E, seed)
    run = hand_gru(x, split_gates(gru))
    h = torch.zeros(1, H, dtype=torch.float64)  # (1, H)
    with torch.no_grad():
        for t in range(S):
            h = cell(x[t : t + 1], h)  # (1, E) -> (1, H)
            assert torch.allclose(run.h[t], h[0])


@settings(max_examples=30, deadline=None)
@given(
    E=st.integers(1, MAX_E),
    H=st.integers(1, MAX_H),
    seed=st.integers(0, 10_000),
    words=st.lists(st.sampled_from(["나는", "책을", "읽는다", "cat", "a"]), min_size=1, max_size=MAX_S),
)
def test_page_result_passes_its_own_check(E, H, seed, words):
    result = gru_gates(parse_config("sentence", " ".join(words), None, E, H, seed))
    assert result.max_abs_diff < 1e-9
    assert result.n_params == sum(p.numel() for p in make_gru(E, H, seed).parameters()) == 3 * (H * E + H * H + 2 * H)


@settings(max_examples=40, deadline=None)
@given(E=st.integers(1, MAX_E), H=st.integers(1, MAX_H))
def test_parameter_counts_equal_the_modules(E, H):
    comp = compare(E, H)
    for cell, module in (("rnn", nn.RNN), ("gru", nn.GRU), ("lstm", nn.LSTM)):
        assert comp.totals[cell] == sum(p.numel() for p in module(E, H).parameters()) == comp.formula[cell]
    assert comp.totals["lstm"] * 3 == comp.totals["gru"] * 4  # four blocks vs three, same sizes


def test_the_formulas_hold_on_the_page_result():
    run = gru_gates(GruConfig()).run
    r, z, n = (run.gates[g] for g in GATES)
    assert torch.allclose(run.h, (1 - z.value) * n.value + z.value * run.h_prev)
    assert torch.allclose(n.pre, n.x_part + r.value * n.h_part)
    assert torch.allclose(run.h_prev[1:], run.h[:-1])
    assert torch.all((z.value > 0) & (z.value < 1))


def test_update_gate_one_keeps_h_constant():
    config = parse_config("sentence", SENTENCE, None, 3, 4, 0, {"z": ([2, 3, 4], 1)})
    result = gru_gates(config)
    for t in (1, 2, 3):
        assert torch.equal(result.forced.h[t], result.forced.h[0])
    assert result.max_abs_diff < 1e-9


def test_reset_shut_everywhere_still_carries_the_old_state_through_z():
    """The page's question: r = 0 at every step, yet z⊙h_(t-1) still reaches h_t (graded live); not at step 1."""
    config = parse_config("sentence", SENTENCE, None, 3, 4, 0)
    assert shut_config(config) == replace(config, forces=forces_from(RESET_SHUT, config.seq.S))
    shut = gru_gates(shut_config(config)).forced
    kept, taken = mix_parts(shut, 3)
    assert torch.allclose(kept + taken, shut.h[3]) and float(kept.abs().max()) > 1e-3
    assert old_state_reaches(shut)  # the graded answer: yes, through z
    assert not old_state_reaches(gru_gates(shut_config(parse_config("sentence", "a", None, 3, 4, 0))).forced)
    kept, taken = mix_parts(shut, 0)
    assert float(kept.abs().max()) == 0 and torch.allclose(taken, shut.h[0])  # h_0 = 0: nothing to carry
    w_ih, _ = gru_weights(3, 4, 0)
    assert torch.equal(w_ih, gru_gates(config).weight_ih)


def test_reset_zero_makes_the_candidate_ignore_the_old_state():
    config = parse_config("sentence", SENTENCE, None, 3, 4, 0, {"r": ([2], 0)})
    result = gru_gates(config)
    n = result.forced.gates["n"]
    assert torch.allclose(n.value[1], torch.tanh(n.x_part[1]))
    assert torch.equal(result.forced.h[0], result.run.h[0])
    assert not torch.allclose(result.forced.h[3], result.run.h[3])


@pytest.mark.parametrize(
    "args, key, field",
    [
        (("sentence", "", None, 3, 4, 0), "errors.empty_text", "gru.field.sentence"),
        (("sentence", "a", None, 3, MAX_H + 1, 0), "errors.out_of_range", "gru.field.H"),
        (("sentence", "a", None, MAX_E + 1, 4, 0), "errors.out_of_range", "gru.field.E"),
        (("table", "", [], 3, 4, 0), "errors.empty_table", "gru.field.vectors"),
        (("table", "", [["x"]], 1, 4, 0), "errors.not_a_number", "gru.field.vectors"),
        (("table", "", [["-inf"]], 1, 4, 0), "errors.too_large", "gru.field.vectors"),
        (("table", "", [["NaN"]], 1, 4, 0), "errors.nan", "gru.field.vectors"),
    ],
)
def test_bad_input_gets_a_named_message(args, key, field):
    with pytest.raises(InputError) as err:
        parse_config(*args)
    assert (err.value.key, err.value.field) == (key, field)


@pytest.mark.parametrize(
    "forces, key",
    [
        ({"z": ([9], 1)}, "errors.out_of_range"),
        ({"z": ([1], -0.5)}, "errors.out_of_range"),
        ({"n": ([1], 1)}, "errors.bad_choice"),
        ({"f": ([1], 1)}, "errors.bad_choice"),  # an LSTM gate
    ],
)
def test_bad_overrides(forces, key):
    with pytest.raises(InputError) as err:
        parse_config("sentence", SENTENCE, None, 3, 4, 0, forces)
    assert err.value.key == key and err.value.field == "gru.field.force"


cell = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=6), st.none(), st.integers())


@settings(max_examples=40, deadline=None)
@given(
    rows=st.lists(st.lists(cell, min_size=0, max_size=10), max_size=14),
    sentence=st.one_of(st.text(max_size=60), st.none()),
    source=st.sampled_from(["sentence", "table"]),
    E=st.integers(-2, 12),
    H=st.integers(-2, 12),
    seed=st.integers(-5, 2**32),
)
def test_any_input_either_works_or_raises_input_error(rows, sentence, source, E, H, seed):
    try:
        config = parse_config(source, sentence, rows, E, H, seed)
    except InputError:
        return
    assert gru_gates(config).max_abs_diff < 1e-9


def test_frames_charts_and_comparison():
    config = parse_config("sentence", SENTENCE, None, 3, 4, 0, {"z": ([3], 1)})
    result = gru_gates(config)
    run = result.run
    frame = gates_frame(run, result.labels, config.forces)
    assert len(frame) == 3 * 4 * 4
    assert frame[frame["forced"]]["gate"].unique().tolist() == ["z"]
    assert list(step_table(run, 0).columns) == ["#", "r", "z", "n", "h_(t-1)", "h_t"]
    lines = equations(result, run, 1)
    assert lines[-1].startswith("h_t = (1 − z)⊙n + z⊙h_(t-1) = ") and lines[-1].endswith(vec(run.h[1]))
    z1 = run.gates["z"].value[1]
    read = reading(run, 1)
    assert read["kept"] == ", ".join(str(k + 1) for k in range(4) if z1[k] > 0.5)
    assert all(c.to_dict() for c in gate_heatmaps(frame, GATES, {g: g for g in GATES}, LABELS, tanh_gates=("n",)))
    assert all(c.to_dict() for c in step_charts(*step_bars(run, 0), LABELS))
    assert len(states_frame(run, result.labels)) == 4 * 4
    both = override_frame(run, result.forced, result.labels, {"natural": "N", "forced": "F"})
    assert all(c.to_dict() for c in override_lines(both, {"h": "h"}, LABELS))
    comp = compare(3, 4)
    table = comparison_table(comp, {k: k for k in COLUMNS})
    assert table["params"].tolist() == [36, 108, 144]
    assert table["formula"].tolist()[2] == "4·(4·3 + 4·4 + 2·4) = 144"
    assert params_frame(comp)["numel"].sum() == 36 + 108 + 144
    assert params_chart(params_frame(comp), LABELS).to_dict()
    assert gru_cell_dot({k: k for k in DIAGRAM_WORDS}).startswith("digraph")


def test_the_cell_picture_draws_the_runs_own_numbers_and_marks_a_forced_gate():
    import altair as alt

    from s2s_core.gated.picture import STEP_PARAM, WORDS, cell_chart
    from s2s_core.gru.picture import LAYOUT, picture_data

    words = {k: k for k in WORDS} | {"word": "x_t =", "natural": "computed"}  # every word the picture reads
    config = parse_config("sentence", "I read a book", None, 3, 4, 0)
    result = gru_gates(config)
    run = result.run

    def column(frame, label, step):
        rows = frame[(frame["block"] == label) & (frame["step"] == step)].sort_values("k")
        return torch.tensor(rows["value"].tolist(), dtype=torch.float64)

    # 1) Natural run: h_t = z⊙h_(t-1) + (1−z)⊙n, each term a column of the picture; no cell line at all.
    pic = picture_data(result, config, words)
    for t in range(4):
        z, n = run.gates["z"].value[t], run.gates["n"].value[t]
        assert torch.allclose(column(pic.cells, "z⊙h_(t-1)", t + 1), z * run.h_prev[t])
        assert torch.allclose(column(pic.cells, "(1−z)⊙n", t + 1), (1 - z) * n)
        assert torch.allclose(column(pic.cells, "h_t", t + 1), run.h[t])
    assert LAYOUT.strip == ("h",) and not any(b.label.startswith("c") for b in LAYOUT.blocks)
    # 2) Forced run (z = 1 at steps 2-4): h_t is h_(t-1); z's column, 1−z's and their wires dashed there only.
    forced_config = parse_config("sentence", "I read a book", None, 3, 4, 0, {"z": ([2, 3, 4], 1)})
    forced = gru_gates(forced_config)
    pic = picture_data(forced, forced_config, words, before=result)
    assert torch.allclose(column(pic.cells, "h_t", 4), forced.forced.h[0])
    paths = pic.columns[pic.columns["block"].isin(["z", "1−z"])].groupby("step")["path"].agg(set)
    assert paths[1] == {"computed"} and paths[2] == {"forced"}
    assert pic.strip.sort_values("step")["before"].iloc[0] == pytest.approx(float(run.h[0, 0]))
    param = alt.selection_point(name=STEP_PARAM, fields=["step"], value=[{"step": 2}])
    cell_chart(pic, words, param).to_dict(validate=True)


def test_every_figure_builds_valid_specs_with_the_page_words():
    """The page hands `figure` the words of LABELS, gate titles by GATES and run names by RUNS: every kind builds."""
    config = parse_config("sentence", SENTENCE, None, 3, 4, 0, {"z": ([2, 3], 1)})
    result = gru_gates(config)
    labels, titles, runs = {k: k for k in CHART_LABELS}, {g: g for g in GATES}, {k: k for k in RUNS}
    counts = {"step": 2, "gates": 3, "override": 1, "forced_gates": 2}  # bars + states; z, r, n; h; z, r
    for kind, n in counts.items():
        charts = figure(kind, result, config.forces, 1, labels, titles, runs)
        assert len(charts) == n and all(c.to_dict() for c in charts), kind
    with pytest.raises(ValueError):
        figure("override", gru_gates(GruConfig()), (), 0, labels, titles, runs)  # no forced run to compare
    assert params_chart(params_frame(compare(3, 4)), {k: k for k in PARAMS_LABELS}).to_dict()


def test_the_fields_are_todays_link_keys():
    """One declaration, built for "gru": the keys links have always carried; the tab ids in the page's order."""
    from s2s_core.gru.fields import FIELDS, GATED

    inputs = [f"gru_{k}" for k in ("source", "sentence", "x", "E", "H", "seed", "step", "inspect")]
    forces = [f"gru_force_{g}{end}" for g in ("r", "z") for end in ("", "_to")]
    assert [f.key for f in FIELDS] == [*inputs, *forces, "gru_tabs"]
    assert GATED.tab.options == ("override", "steps", "gates", "compare", "tables", "check", "code", "notice")
    assert [GATED.override(g).to.default for g in GATED.forceable] == [0, 1]  # z = 1: freeze h one click away


@pytest.mark.parametrize("ns", ["lstm", "gru"])
def test_both_cells_offer_the_names_the_shared_page_pieces_read(ns):
    """s2s_ui/gated.Cell reads these names from each cell's compute and frames modules."""
    import importlib

    model, frames = (importlib.import_module(f"s2s_core.{ns}.{m}") for m in ("compute", "frames"))
    assert all(hasattr(model, name) for name in ("parse_config", "GATES", "SIGMOIDS", "FREEZE", "FREEZE_FROM"))
    assert all(callable(getattr(frames, name)) for name in ("equations", "step_table", "reading"))
    assert set(model.FREEZE) <= set(importlib.import_module(f"s2s_core.{ns}.fields").FORCEABLE)
    carried = {"lstm": ("c", "h"), "gru": ("h",)}
    assert carried[ns] == frames.STATES


def test_the_reset_question_is_not_asked_where_there_is_no_history():
    """One word: h_(t-1) is h_0 = 0, so nothing can be kept whatever r does. The old page asked anyway and graded
    "No, r = 0 cuts it off" right; the core now says the question does not apply (kind "empty")."""
    from s2s_core.gru.frames import reset_quiz

    one = gru_gates(shut_config(parse_config("sentence", "a", None, 3, 4, 0))).forced
    quiz = reset_quiz(one)
    assert quiz.kind == "empty" and quiz.answer is None
    assert float(quiz.kept.abs().max()) == 0 and torch.allclose(quiz.taken, one.h[0])
    many = reset_quiz(gru_gates(shut_config(parse_config("sentence", SENTENCE, None, 3, 4, 0))).forced)
    assert many.kind == "carried" and many.answer == "yes" and float(many.kept.abs().max()) > 1e-3


def test_update_gate_zero_takes_the_candidate_and_keeps_nothing():
    """The "z = 0" case: h_t = (1 − z)⊙n + z⊙h_(t-1) is the candidate n alone (PyTorch's GRU): z = 0 keeps nothing."""
    forced = gru_gates(parse_config("sentence", SENTENCE, None, 3, 4, 0, {"z": ([1, 2, 3, 4], 0)})).forced
    assert torch.equal(forced.gates["z"].value, torch.zeros_like(forced.h))
    assert torch.equal(forced.h, forced.gates["n"].value)
    kept, _ = mix_parts(forced, 3)
    assert float(kept.abs().max()) == 0
