"""Core tests for the shapes page: every shape and equality it states comes from real tensors."""

from __future__ import annotations

import ast
import contextlib
import itertools
import json
from pathlib import Path

import altair as alt
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import s2s_core.shapes as shapes_pkg
from s2s_core import caps
from s2s_core.errors import InputError
from s2s_core.shapes import ShapesConfig, fields, parse_config, parse_lengths, parse_settings, run_shapes, with_lengths
from s2s_core.shapes.bridge import BridgeConfig, bridge_view, parse_bridge
from s2s_core.shapes.charts import (
    PACKED_LABELS,
    PADDING_LABELS,
    packed_chart,
    padding_diff_chart,
    padding_error_chart,
)
from s2s_core.shapes.checks import equality_checks, last_step, predict_answer
from s2s_core.shapes.compute import axis_size
from s2s_core.shapes.failures import KINDS, failure_demo
from s2s_core.shapes.frames import (
    packed_frame,
    padding_error_frame,
    padding_states_frame,
    shapes_frame,
    shapes_table,
)
from s2s_core.shapes.model import seeded_modules, token_ids
from s2s_core.shapes.padding import GATHER_TOL, padding_notice, padding_view
from s2s_core.shapes.picture import FILLED, WORDS
from s2s_core.shapes.quiz import first_tries, grade, make_question, parse_shape, score
from s2s_core.shapes.seed_example import seed_example


def _grid():
    """cell × layers × bidirectional × batch_first × proj_size × (no PAD / PAD / PAD + packed)."""
    for cell, L, bi, bf, pad in itertools.product(
        ("RNN", "LSTM", "GRU"), (1, 2), (False, True), (False, True), ("full", "padded", "packed")
    ):
        for proj in (0, 2) if cell == "LSTM" else (0,):
            lengths = (4, 2, 1) if pad != "full" else (4, 4, 4)
            yield ShapesConfig(
                cell=cell,
                B=3,
                S=4,
                E=3,
                H=5,
                num_layers=L,
                bidirectional=bi,
                batch_first=bf,
                proj_size=proj,
                lengths=lengths,
                packed=pad == "packed",
                seed=7,
            )


GRID = list(_grid())


def _ids(c: ShapesConfig) -> str:
    return (
        f"{c.cell}-L{c.num_layers}-{'bi' if c.bidirectional else 'uni'}-{'bf' if c.batch_first else 'tf'}"
        f"-P{c.proj_size}-{'packed' if c.packed else 'pad' if c.padded else 'full'}"
    )


# --- the study note's §8 facts ---------------------------------------------------------------------


def test_seed_section8_lstm_shapes_exactly():
    ex = seed_example()
    assert ex.embedding == (2, 3, 4)
    assert ex.outputs == (2, 3, 6)
    assert ex.hidden == (1, 2, 6) and ex.cell == (1, 2, 6)
    assert ex.last_output_equals_hidden is True


def test_page_defaults_reproduce_the_seed_example():
    r = run_shapes(ShapesConfig())
    ex = seed_example()
    assert r.ids.tolist() == [[1, 2, 3], [4, 5, 6]]
    assert torch.equal(r.outputs, ex.outputs_tensor)  # same weights, same numbers, not just shapes
    shapes = {s.name: s.shape for s in r.shapes}
    assert (shapes["x"], shapes["outputs"], shapes["h_n"], shapes["c_n"]) == (
        (2, 3, 4),
        (2, 3, 6),
        (1, 2, 6),
        (1, 2, 6),
    )
    last = next(ch for ch in equality_checks(r) if ch.key == "last_step")
    assert last.equal and last.lhs == "outputs[:, -1]" and last.rhs == "h_n[-1]"
    assert last_step(equality_checks(r)) == last and predict_answer(equality_checks(r)) == "yes"


def test_the_fields_hold_the_page_defaults_and_one_parse_reads_them():
    """The field specs are the one declaration: their defaults are the config's (the study note's example), each
    key is the page's own, and the settings parse once, the lengths on top of them."""
    assert parse_settings() == ShapesConfig() == parse_config()
    assert all(f.key.startswith("shapes_") for f in fields.FIELDS) and len({f.key for f in fields.FIELDS}) == 17
    assert {"shapes_dec_layers", "shapes_dec_hidden", "shapes_failure", "shapes_question"} <= {
        f.key for f in fields.FIELDS
    }
    assert fields.TAB.options[0] == "tables" and fields.FAILURE.options == KINDS
    settings = parse_settings(B=3, S=4, packed=True)
    assert settings.lengths == (4, 4, 4)  # every sentence at its full length until the lengths are read
    assert with_lengths(settings, "2, 1") == parse_config(B=3, S=4, packed=True, lengths="2, 1")
    assert with_lengths(settings, "2, 1").lengths == (2, 1, 4)
    with pytest.raises(InputError) as info:
        with_lengths(settings, "5")
    assert info.value.field == fields.LENGTHS.label


def test_the_question_is_answered_by_the_live_check():
    """Bidirectional: the last step's output holds both directions, h_n[-1] only the backward one: "no"."""
    live = equality_checks(run_shapes(parse_config(bidirectional=True)))
    assert not last_step(live).equal and predict_answer(live) == "no"
    live = equality_checks(run_shapes(parse_config(lengths="3, 1")))
    assert last_step(live).equal and last_step(live).note == "through_pad"  # equal, both past the true end
    assert predict_answer(live) == "yes"


def test_run_does_not_touch_the_global_random_stream():
    torch.manual_seed(123)
    expected = torch.rand(3)
    torch.manual_seed(123)
    run_shapes(ShapesConfig(seed=5))
    assert torch.equal(torch.rand(3), expected)


# --- the grid: shapes, checks, padding fixes ------------------------------------------------------


@pytest.mark.parametrize("c", GRID, ids=_ids)
def test_grid_shapes_checks_and_padding(c: ShapesConfig):
    r = run_shapes(c)
    # 1) Named axes evaluate to the real tensors' sizes, and the headline formulas hold.
    for s in r.shapes:
        assert tuple(axis_size(c, a) for a in s.axes) == s.shape, s
    LK, Hout = c.num_layers * c.K, c.Hout
    bs = (c.B, c.S) if c.batch_first else (c.S, c.B)
    assert tuple(r.outputs.shape) == (*bs, c.K * Hout)
    assert tuple(r.h_n.shape) == (LK, c.B, Hout)  # batch_first never moves h_n's axes
    if c.cell == "LSTM":
        assert tuple(r.c_n.shape) == (LK, c.B, c.H)  # the cell state is never projected
    else:
        assert r.c_n is None
    # 2) Every check's verdict is what torch says about the same two tensors, rebuilt here.
    out, h_n = r.outputs, r.h_n
    last = out[:, -1] if c.batch_first else out[-1]
    first = out[:, 0] if c.batch_first else out[0]
    rebuilt = {
        "last_step": lambda: (last, h_n[-1]),
        "true_last": lambda: (h_n, _alone(c)[0]),
        "wrong_axis": lambda: (out[:, -1], h_n[-1]),
        "forward_half": lambda: (last[:, :Hout], h_n[-2]),
        "backward_first": lambda: (first[:, Hout:], h_n[-1]),
        "backward_last": lambda: (last[:, Hout:], h_n[-1]),
        "bottom_layer": lambda: (last[:, :Hout], h_n[0]),
        "proj_cell": lambda: (r.c_n[-1], h_n[-1]),
    }
    keys = [ch.key for ch in equality_checks(r)]
    assert ("forward_half" in keys) == c.bidirectional and ("wrong_axis" in keys) == (not c.batch_first)
    assert ("bottom_layer" in keys) == (c.num_layers > 1) and ("proj_cell" in keys) == (c.proj_size > 0)
    for ch in equality_checks(r):
        a, b = rebuilt[ch.key]()
        truth = a.shape == b.shape and torch.allclose(a, b, rtol=0, atol=1e-6)
        assert ch.equal == truth, ch
        assert ch.lhs_shape == tuple(a.shape) and ch.rhs_shape == tuple(b.shape)
    # 3) Packed h_n (and c_n) == each sentence run alone, for every layer and direction.
    alone_h, alone_c = _alone(c)
    assert torch.allclose(r.packed_h_n, alone_h, rtol=0, atol=1e-6)
    if c.cell == "LSTM":
        assert torch.allclose(r.packed_c_n, alone_c, rtol=0, atol=1e-6)
    p = padding_view(r)
    assert p.packed_max_diff < 1e-6
    # 4) Gathering at lengths - 1 is exact whenever no backward direction feeds a layer above (or nothing is padded);
    #    gather_exact, which picks the padding warning and notice, says exactly that.
    if not (c.bidirectional and c.num_layers > 1):
        assert p.gather_max_diff < 1e-6
    assert p.gather_exact == (not (c.bidirectional and c.num_layers > 1 and c.padded))
    # 5) Through PAD: a sentence with PAD steps ends somewhere else; a full one does not.
    for b, n in enumerate(c.lengths):
        if n == c.S:
            assert p.through_pad_err[b] < 1e-6
        else:
            assert p.through_pad_err[b] > 1e-4


def _alone(c: ShapesConfig):
    """Each sentence run by itself with freshly built (same-seed) modules: the independent truth."""
    emb, layer = seeded_modules(
        c.seed,
        c.cell,
        c.E,
        c.H,
        num_layers=c.num_layers,
        bidirectional=c.bidirectional,
        batch_first=c.batch_first,
        proj_size=c.proj_size,
    )
    hs, cs = [], []
    with torch.no_grad():
        ids = token_ids(c.B, c.S, c.lengths)
        for b, n in enumerate(c.lengths):
            x = emb(ids[b : b + 1, :n])  # (1, n, E)
            x = x if c.batch_first else x.transpose(0, 1)
            _, state = layer(x)
            hs.append(state[0] if isinstance(state, tuple) else state)
            if isinstance(state, tuple):
                cs.append(state[1])
    return torch.cat(hs, dim=1), (torch.cat(cs, dim=1) if cs else None)


def test_batch_first_moves_outputs_but_not_h_n():
    a = {s.name: s for s in run_shapes(ShapesConfig(B=2, S=5)).shapes}
    b = {s.name: s for s in run_shapes(ShapesConfig(B=2, S=5, lengths=(5, 5), batch_first=False)).shapes}
    assert a["outputs"].shape == (2, 5, 6) and b["outputs"].shape == (5, 2, 6)
    assert a["h_n"].shape == b["h_n"].shape == (1, 2, 6)
    assert b["outputs"].roles[:2] == ("time", "batch") and b["h_n"].roles[0] == "stack"


def test_notes_follow_the_situation():
    def notes(**kw):
        return {ch.key: (ch.equal, ch.note) for ch in equality_checks(run_shapes(parse_config(**kw)))}

    assert notes()["last_step"] == (True, "equal")
    assert notes(bidirectional=True)["last_step"] == (False, "bidirectional")
    assert notes(bidirectional=True)["backward_first"] == (True, "equal")
    # Straight through PAD, outputs[:, -1] and h_n[-1] still agree: both went through PAD.
    assert notes(lengths="1 3")["last_step"] == (True, "through_pad")
    assert notes(lengths="1 3")["true_last"] == (False, "through_pad")
    assert notes(lengths="1 3", packed=True)["last_step"] == (False, "packed_pad")
    assert notes(lengths="1 3", packed=True)["true_last"] == (True, "packed")
    assert notes(num_layers=2)["bottom_layer"][0] is False
    assert notes(proj_size=2)["proj_cell"] == (False, "differ")
    assert notes(proj_size=2)["last_step"] == (True, "equal")  # outputs carry the projected h


def test_padding_notice_follows_the_live_gather_check():
    """Notice n4 used to say "the two fixes stay at zero" even where the page warned that gathering fails."""

    def notice(**kw):
        c = parse_config(**kw)
        p = padding_view(run_shapes(c))
        return padding_notice(c.padded, p), p

    key, p = notice(lengths="3 1", bidirectional=True, num_layers=2)
    assert key == "n4_gather_fails" and p.gather_max_diff > GATHER_TOL and p.packed_max_diff < 1e-6
    key, p = notice(lengths="3 1", num_layers=2)
    assert key == "n4" and p.gather_max_diff <= GATHER_TOL and p.packed_max_diff < 1e-6
    key, p = notice(lengths="3 1", bidirectional=True)  # one bidirectional layer: the forward half is still exact
    assert key == "n4" and p.gather_exact
    key, p = notice(bidirectional=True, num_layers=2)  # no PAD: nothing to fix
    assert key == "n4_no_pad" and max(p.through_pad_err) < 1e-6


def test_packed_frame_points_at_the_real_rows_of_packed_data():
    c = parse_config(B=3, S=4, lengths="2 4 1", batch_first=False)
    r = run_shapes(c)
    f = packed_frame(r)
    assert int(f["packed_row"].notna().sum()) == sum(c.lengths) == r.packed_data.shape[0]
    for row in f.itertuples():
        b, t = int(row.sentence[1:]) - 1, row.step - 1
        if row.pad:
            assert t >= c.lengths[b]
        else:
            x_bt = r.x[b, t] if c.batch_first else r.x[t, b]  # (E,)
            assert torch.equal(r.packed_data[int(row.packed_row)], x_bt)
    assert r.batch_sizes == (3, 2, 1, 1) and r.sorted_indices == (1, 0, 2)


# --- bridge, failures, quiz -----------------------------------------------------------------------


@pytest.mark.parametrize("c", [g for g in GRID if not g.packed and g.padded][::3], ids=_ids)
@pytest.mark.parametrize("d", [BridgeConfig(1, 5), BridgeConfig(3, 4), BridgeConfig(2, 10)])
def test_bridge_gives_the_decoder_its_shape(c, d):
    r = run_shapes(c)
    b = bridge_view(r, d)
    assert tuple(b.h_0.shape) == (d.layers, c.B, d.hidden) == b.steps[-1].shape
    assert tuple(b.decoder_h_n.shape) == (d.layers, c.B, d.hidden)
    if c.cell == "LSTM":
        assert b.cell_steps[-1].shape == (d.layers, c.B, d.hidden)
    naive_fits = (c.num_layers * c.K, c.Hout) == (d.layers, d.hidden) and (c.cell != "LSTM" or d.hidden == c.H)
    assert (b.naive_error is None) == naive_fits


def test_bridge_identity_when_shapes_match():
    b = bridge_view(run_shapes(ShapesConfig()), BridgeConfig(1, 6))
    assert b.naive_error is None and not b.needs_linear
    assert torch.equal(b.h_0, run_shapes(ShapesConfig()).h_n)


@pytest.mark.parametrize("kind", KINDS[1:])
def test_failures_raise_the_real_pytorch_error(kind):
    d = failure_demo(ShapesConfig(), kind)
    assert d.raised and d.error_type == "RuntimeError"
    assert d.note == ("raised_batch" if kind == "input_2d" else "raised")  # the default layer is batch-first
    words = {
        "wrong_e": "input_size",
        "wrong_h0": "Expected hidden",
        "input_2d": "unbatched",
        "unsorted": "enforce_sorted",
    }
    assert words[kind] in d.message


def test_wrong_h0_names_p_for_h_0_when_proj_size_is_set():
    """h_0 is (L·K, B, P) with proj_size, not (L·K, B, H): the note is chosen by proj_size and the accepted shapes
    come from a real call."""
    d = failure_demo(parse_config(B=3, proj_size=2, num_layers=2), "wrong_h0")
    assert d.raised and d.note == "raised_proj"
    assert dict(d.states) == {"h_0": (2, 3, 2), "c_0": (2, 3, 6)}
    # B = L·K = 2: the batch-first layout has the right shape by coincidence (not only when both are 1).
    d = failure_demo(parse_config(proj_size=2, num_layers=2), "wrong_h0")
    assert not d.raised and d.note == "coincide" and dict(d.states)["h_0"] == (2, 2, 2)
    d = failure_demo(ShapesConfig(), "wrong_h0")
    assert d.note == "raised" and dict(d.states) == {"h_0": (1, 2, 6), "c_0": (1, 2, 6)}
    d = failure_demo(parse_config(cell="GRU", bidirectional=True, B=3), "wrong_h0")
    assert d.note == "raised" and dict(d.states) == {"h_0": (2, 3, 6)}


def test_failures_that_stay_silent_say_so():
    assert failure_demo(ShapesConfig(), "none") is None
    # B = L·K = 1: a batch-first h_0 has the right shape by coincidence, so PyTorch cannot notice.
    d = failure_demo(parse_config(B=1, lengths=""), "wrong_h0")
    assert not d.raised and d.note == "coincide"
    d = failure_demo(parse_config(B=1), "unsorted")
    assert not d.raised and d.note == "sorted"
    # Without h_0, a 2-D input runs: it is read as one unbatched sequence.
    d = failure_demo(ShapesConfig(), "input_2d")
    assert dict(d.silent) == {"x[0]": (3, 4), "outputs": (3, 6), "h_n": (1, 6)}
    with pytest.raises(InputError):
        failure_demo(ShapesConfig(), "explode")


@pytest.mark.parametrize("n", range(1, 25))
def test_quiz_answer_is_the_real_shape(n):
    q = make_question(n, salt=3)
    r = run_shapes(q.config)
    tensor = {"x": r.x, "outputs": r.outputs, "h_n": r.h_n, "c_n": r.c_n}[q.tensor]
    assert q.answer == tuple(tensor.shape)
    assert grade(q, str(q.answer)).correct
    assert grade(q, f"torch.Size({list(q.answer)})").correct
    assert make_question(n, salt=3) == q  # the same question on every rerun


def test_quiz_hints_name_the_mix_up():
    q = next(
        q
        for q in (make_question(n) for n in range(1, 200))
        if q.tensor == "outputs" and q.config.bidirectional and q.config.batch_first
    )
    B, S, F = q.answer
    assert grade(q, f"{S} {B} {F}").hint == "batch_first"
    assert grade(q, f"{B} {S} {q.config.Hout}").hint == "feature_k"
    assert grade(q, f"{B} {S}").hint == "rank"
    q = next(q for q in (make_question(n) for n in range(1, 200)) if q.tensor == "h_n" and q.config.bidirectional)
    LK, B, Hout = q.answer
    assert grade(q, f"{q.config.num_layers} {B} {Hout}").hint == "stack_k"
    assert grade(q, f"{B} {LK} {Hout}").hint == "state_batch_first"


# --- bad input ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "key", "field"),
    [
        ({"lengths": "0 3"}, "shapes.error.length_not_positive", "shapes.field.lengths"),
        ({"lengths": "3 -1"}, "shapes.error.length_not_positive", "shapes.field.lengths"),
        ({"lengths": "4"}, "shapes.error.length_over_s", "shapes.field.lengths"),
        ({"lengths": "3 3 3"}, "shapes.error.too_many_lengths", "shapes.field.lengths"),
        ({"lengths": "2.5"}, "errors.not_an_integer", "shapes.field.lengths"),
        ({"lengths": "two"}, "errors.not_an_integer", "shapes.field.lengths"),
        ({"B": 0}, "errors.out_of_range", "shapes.field.B"),
        ({"B": caps.MAX_BATCH + 1}, "errors.out_of_range", "shapes.field.B"),
        ({"S": 10**9}, "errors.out_of_range", "shapes.field.S"),
        ({"E": 0}, "errors.out_of_range", "shapes.field.E"),
        ({"H": caps.MAX_HIDDEN + 1}, "errors.out_of_range", "shapes.field.H"),
        ({"num_layers": 9}, "errors.out_of_range", "shapes.field.num_layers"),
        ({"proj_size": 6}, "shapes.error.proj_too_large", "shapes.field.proj_size"),
        ({"proj_size": 7}, "shapes.error.proj_too_large", "shapes.field.proj_size"),
        ({"proj_size": -1}, "errors.out_of_range", "shapes.field.proj_size"),
        ({"cell": "Transformer"}, "errors.bad_choice", "shapes.field.cell"),
        ({"seed": "nan"}, "errors.not_an_integer", "shapes.field.seed"),
    ],
)
def test_bad_input_names_the_field(kwargs, key, field):
    with pytest.raises(InputError) as info:
        parse_config(**kwargs)
    assert (info.value.key, info.value.field) == (key, field)


def test_lengths_fill_and_proj_only_for_lstm():
    assert parse_lengths("", 3, 5) == (5, 5, 5)
    assert parse_lengths("2; 1", 3, 5) == (2, 1, 5)
    assert parse_config(cell="GRU", proj_size=3).proj_size == 0  # only LSTM has a projection
    assert parse_config(cell="GRU", proj_size=9, H=4).proj_size == 0
    with pytest.raises(InputError):
        parse_config(lengths="1" * 500)
    with pytest.raises(InputError) as info:
        parse_bridge(0, 4)
    assert info.value.field == "shapes.field.dec_layers"
    with pytest.raises(InputError) as info:
        parse_bridge(1, caps.MAX_HIDDEN + 1)
    assert (info.value.key, info.value.field) == ("errors.out_of_range", "shapes.field.dec_hidden")
    assert parse_bridge(fields.DEC_LAYERS.default, fields.DEC_HIDDEN.default) == BridgeConfig(1, 8)
    with pytest.raises(InputError) as info:
        failure_demo(ShapesConfig(), "x")
    assert info.value.field == "shapes.field.failure"
    with pytest.raises(InputError):
        parse_shape("no digits")


anything = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**12), 10**12), st.floats(allow_nan=True), st.text(max_size=30)
)


@settings(max_examples=40, deadline=None)
@given(
    cell=st.one_of(st.sampled_from(["RNN", "LSTM", "GRU"]), anything),
    B=anything,
    S=anything,
    E=anything,
    H=anything,
    layers=anything,
    proj=anything,
    lengths=anything,
    seed=anything,
)
def test_parse_config_raises_only_input_error(cell, B, S, E, H, layers, proj, lengths, seed):
    try:
        c = parse_config(cell=cell, B=B, S=S, E=E, H=H, num_layers=layers, proj_size=proj, lengths=lengths, seed=seed)
    except InputError:
        return
    assert len(c.lengths) == c.B and all(1 <= n <= c.S for n in c.lengths)


@settings(max_examples=40, deadline=None)
@given(
    B=st.integers(1, 4),
    S=st.integers(1, 5),
    lengths=st.lists(st.integers(-2, 7), max_size=6).map(lambda xs: ", ".join(map(str, xs))),
    bi=st.booleans(),
    bf=st.booleans(),
    packed=st.booleans(),
)
def test_valid_lengths_always_run(B, S, lengths, bi, bf, packed):
    try:
        c = parse_config(B=B, S=S, lengths=lengths, bidirectional=bi, batch_first=bf, packed=packed, E=2, H=3)
    except InputError as err:
        assert err.field == "shapes.field.lengths"
        return
    r = run_shapes(c)
    assert padding_view(r).packed_max_diff < 1e-6


def test_only_the_first_try_counts_towards_the_score():
    q = make_question(1, salt=3)
    right, wrong = grade(q, str(q.answer)), grade(q, "(" + ", ".join(str(n + 1) for n in q.answer) + ")")
    first = first_tries({}, 1, wrong)
    assert first_tries(first, 1, right) == {1: False}  # right after the feedback: still wrong at the first try
    first = first_tries(first_tries(first, 1, right), 2, right)
    assert first == {1: False, 2: True} and score(first) == (1, 2) and score({}) == (0, 0)


@settings(max_examples=40, deadline=None)
@given(text=anything)
def test_grade_raises_only_input_error(text):
    with contextlib.suppress(InputError):
        grade(make_question(1), text)


# --- frames, charts, purity ---------------------------------------------------------------------

LABELS = {k: k for k in PADDING_LABELS + PACKED_LABELS}  # exactly the words the page hands the charts


@pytest.mark.parametrize("c", [ShapesConfig(), GRID[-1], GRID[5]], ids=_ids)
def test_frames_and_charts_build(c):
    r = run_shapes(c)
    f = shapes_frame(r)
    assert (f["size"] == f["expected"]).all()
    assert list(shapes_table(r)["tensor"]) == [s.name for s in r.shapes]
    p = padding_view(r)
    assert p.backward_max_diff == max(p.backward_pad_err) and p.backward_misses == (p.backward_max_diff > GATHER_TOL)
    assert len(padding_states_frame(p)) == c.B * c.Hout
    assert len(padding_error_frame(p)) == 3 * c.B
    specs = (
        padding_error_chart(padding_error_frame(p), LABELS),
        padding_diff_chart(padding_states_frame(p), LABELS),
        packed_chart(packed_frame(r), LABELS),
    )
    for spec in specs:
        # The spec with this config's rows is still valid Vega-Lite, and JSON-clean (no NaN).
        top = alt.LayerChart if "layer" in spec else alt.Chart
        top.from_dict(spec, validate=True)
        assert json.loads(json.dumps(spec, allow_nan=False))["datasets"]["table"]


def test_core_never_imports_streamlit():
    """Static: no module of s2s_core/shapes imports streamlit (cheaper than a cold subprocess import)."""
    for path in Path(shapes_pkg.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                assert not any(a.name.split(".")[0] == "streamlit" for a in node.names), path
            if isinstance(node, ast.ImportFrom):
                assert (node.module or "").split(".")[0] != "streamlit", path


def test_the_picture_draws_each_tensors_sides_from_the_real_shapes():
    """The blocks' faces are the real tensors' first two axes (batch_first swaps them on x and outputs, never on
    h_n); PAD cells are the positions past each length; the outlined slices are outputs' last step and h_n[-1]."""
    from s2s_core.shapes.picture import picture_frames, shape_picture

    for batch_first in (True, False):
        r = run_shapes(ShapesConfig(lengths=(3, 1), batch_first=batch_first))
        p = picture_frames(r)
        sizes = {b["tensor"]: (b["y2"] - b["y"], round(b["x2"] - b["x"], 6)) for b in p.blocks.to_dict("records")}
        assert sizes["x"] == tuple(r.x.shape[:2]) and sizes["outputs"] == tuple(r.outputs.shape[:2])
        assert sizes["h_n"] == tuple(r.h_n.shape[:2]) == (1, 2) and sizes["c_n"] == tuple(r.c_n.shape[:2])
        top = p.blocks.set_index("tensor")["top"]
        assert top["outputs"] == ("S=3" if batch_first else "B=2") and top["h_n"] == "B=2"
        for name in ("x", "outputs"):
            pads = p.cells[(p.cells["tensor"] == name) & p.cells["pad"]]
            assert len(pads) == 2  # sentence 2 has length 1 of 3
        outs = p.cells[(p.cells["tensor"] == "outputs") & p.cells["slice"]]
        assert set(outs["j" if batch_first else "i"]) == {2} and len(outs) == 2
        assert set(p.cells[(p.cells["tensor"] == "h_n") & p.cells["slice"]]["i"]) == {0}
        labels = {k: k for k in WORDS + FILLED}  # exactly the words the page hands the picture
        shape_picture(p, labels, None).to_dict()  # validates against the Vega-Lite schema


def test_the_picture_draws_packed_data_as_pytorch_stores_it():
    """Under the blocks, packed.data's rows and each step's batch_sizes are PyTorch's own PackedSequence for the
    same lengths (sorted longest first within a step); without PAD there is no strip."""
    from torch.nn.utils.rnn import pack_padded_sequence

    from s2s_core.shapes.picture import picture_frames, shape_picture

    for lengths, batch_first in (((3, 1), True), ((2, 4, 1), False)):
        c = ShapesConfig(B=len(lengths), S=4, lengths=lengths, batch_first=batch_first)
        r = run_shapes(c)
        p = picture_frames(r)
        ref = pack_padded_sequence(r.x, torch.tensor(lengths), batch_first=batch_first, enforce_sorted=False)
        assert len(p.packed) == ref.data.shape[0] == sum(lengths)
        assert list(p.steps["batch_size"]) == ref.batch_sizes.tolist()
        # Each drawn row is the sentence whose vector PyTorch stored in that row of packed.data.
        x = r.x if batch_first else r.x.transpose(0, 1)  # (B, S, E)
        for row in p.packed.to_dict("records"):
            b = int(row["sentence"][1:]) - 1
            assert torch.equal(ref.data[row["packed_row"]], x[b, row["step"] - 1])
        labels = {k: k for k in WORDS + FILLED}  # exactly the words the page hands the picture
        shape_picture(p, labels, None).to_dict()  # validates against the Vega-Lite schema
    assert picture_frames(run_shapes(ShapesConfig(lengths=(3, 3)))).packed.empty
