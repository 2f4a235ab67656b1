"""RNN unrolling: the hand-written loop equals nn.RNN with copied weights; inputs, frames, charts, bad input."""

from __future__ import annotations

import dataclasses

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from torch import nn

from s2s_core.errors import InputError
from s2s_core.fmt import num, vec
from s2s_core.rnn import RnnConfig, parse_config, seeded_weights, unroll
from s2s_core.rnn.charts import step_chart
from s2s_core.rnn.compute import (
    MAX_E,
    MAX_H,
    MAX_S,
    first_word_effect,
    manual_unroll,
    resolve_weights,
    token_vector,
)
from s2s_core.rnn.frames import (
    formula_latex,
    notice_keys,
    repeat_reading,
    saturated,
    step_frame,
    unit_expansion,
    weights_table,
)

KO = "나는 책을 읽는다"


def test_manual_unroll_equals_nn_rnn_with_copied_weights():
    config = parse_config(KO, 3, 4, 0)
    result = unroll(config)
    # An independent nn.RNN, weights copied from the result: the page's check, redone here.
    rnn = nn.RNN(3, 4, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        rnn.weight_ih_l0.copy_(result.weights.W_x)
        rnn.weight_hh_l0.copy_(result.weights.W_h)
        rnn.bias_ih_l0.copy_(result.weights.b_ih)
        rnn.bias_hh_l0.copy_(result.weights.b_hh)
        out, h_n = rnn(result.x.unsqueeze(0))  # (1, S, H), (1, 1, H)
    assert torch.allclose(result.h, out[0])
    assert torch.allclose(result.h[-1], h_n[0, 0])
    assert result.max_abs_diff < 1e-12
    assert result.n_params == 3 * 4 + 4 * 4 + 4 + 4


def test_every_step_is_the_formula():
    result = unroll(RnnConfig(tokens=("a", "b", "c", "d", "e")))
    w = result.weights
    assert torch.equal(result.h_prev[0], torch.zeros(4, dtype=torch.float64))  # h_0 = 0
    assert torch.equal(result.wh[0], torch.zeros(4, dtype=torch.float64))  # so W_h·h_0 = 0
    for t in range(5):
        if t:
            assert torch.equal(result.h_prev[t], result.h[t - 1])  # each step hands its state on
        assert torch.allclose(result.wx[t], w.W_x @ result.x[t])
        assert torch.allclose(result.pre[t], result.wx[t] + result.wh[t] + w.b_ih + w.b_hh)
        assert torch.allclose(result.h[t], torch.tanh(result.pre[t]))
    assert (result.h.abs() < 1).all()


def test_same_word_same_input_different_state():
    result = unroll(RnnConfig(tokens=("the", "cat", "saw", "the", "dog")))
    assert torch.equal(result.x[0], result.x[3])
    assert not torch.allclose(result.h[0], result.h[3])  # different h_(t-1) -> different h_t


def test_word_vectors_do_not_depend_on_the_rest_of_the_sentence():
    a = unroll(RnnConfig(tokens=("나는", "책을", "읽는다")))
    b = unroll(RnnConfig(tokens=("나는", "밥을", "먹는다")))
    assert torch.equal(a.x[0], b.x[0])
    assert torch.equal(a.h[0], b.h[0])  # step 1 only sees x_1


def test_seed_is_reproducible_and_matters():
    assert torch.equal(unroll(RnnConfig(seed=3)).h, unroll(RnnConfig(seed=3)).h)
    assert not torch.equal(unroll(RnnConfig(seed=3)).h, unroll(RnnConfig(seed=4)).h)
    w = seeded_weights(3, 4, 0)
    assert (w.W_x.abs() <= 0.5).all() and (w.W_h.abs() <= 0.5).all()  # U(-1/√H, 1/√H), H = 4


def test_typed_tables_override_the_seed():
    config = parse_config("a b", 2, 2, 0, [["1", "0"], ["0", "1"]], [["0.5", "0"], ["0", "0.5"]], [["0.1"], ["-0.1"]])
    result = unroll(config)
    assert torch.equal(result.weights.b_hh, torch.zeros(2, dtype=torch.float64))
    assert torch.equal(result.weights.b, torch.tensor([0.1, -0.1], dtype=torch.float64))
    x = result.x
    h1 = torch.tanh(x[0] + torch.tensor([0.1, -0.1], dtype=torch.float64))
    h2 = torch.tanh(x[1] + 0.5 * h1 + torch.tensor([0.1, -0.1], dtype=torch.float64))
    assert torch.allclose(result.h, torch.stack([h1, h2]))
    assert result.max_abs_diff < 1e-12


def test_changing_the_first_word_reaches_every_step():
    result = unroll(parse_config("I read a book", 3, 4, 0))
    assert all(c > 0 for c in result.first_word_change)
    w = resolve_weights(RnnConfig())
    x = torch.stack([token_vector(t, 3, 0) for t in ("x", "y")])
    assert len(manual_unroll(x, w)) == 5


def _effect(sentence: str, W_x=None, W_h=None):
    return first_word_effect(unroll(parse_config(sentence, 2, 2, 0, W_x, W_h)))


def test_first_word_quiz_answer_and_reason_come_from_the_live_weights():
    """The quiz's answer and the text that explains it, per case. The old page answered "some" and said the change
    "dies out" when W_x = 0 (nothing changes), and said "(it is zero)" of any W_h that stopped the change."""
    # 1) W_x = 0: the first word never enters the state, no column changes.
    e = _effect("a b c", W_x=[[0, 0], [0, 0]])
    assert (e.answer, e.reason, e.changed, e.stop) == ("none", "x_zero", 0, 1)
    # 2) W_h = 0: only column 1, no memory.
    e = _effect("a b c", W_h=[[0, 0], [0, 0]])
    assert (e.answer, e.reason, e.changed) == ("only_first", "h_zero", 1)
    # 3) A nonzero singular W_h whose null space holds the change: only column 1, and W_h is not zero.
    W_x, W_h = [[1, 0], [0, 0]], [[0, 1], [0, 0]]
    result = unroll(parse_config("a b c", 2, 2, 0, W_x, W_h))
    e = first_word_effect(result)
    assert (e.answer, e.reason, e.handed) == ("only_first", "h_null", 0.0)
    delta = result.h_swapped[0] - result.h[0]  # (H,) the change handed on from step 1
    assert result.weights.W_h.any() and delta.abs().max() > 0 and (result.weights.W_h @ delta).abs().max() == 0
    # 4) A nilpotent W_h passes the change on once, then sends it to exactly 0: the first two columns.
    e = _effect("a b c d", W_h=[[0, 1], [0, 0]])
    assert (e.answer, e.reason, e.changed, e.stop) == ("some", "h_null", 2, 3)
    # 5) The default reaches the end; a tiny W_h too (a change of 1e-15 is a change: the old 1e-12 tolerance
    #    called it "some ... dies out exactly").
    assert _effect("I read a book").answer == "all"
    tiny = unroll(parse_config("a b c d", 2, 2, 0, None, [[1e-5, 0], [0, 1e-5]]))
    assert first_word_effect(tiny).answer == "all" and min(tiny.first_word_change) < 1e-12
    # 6) Saturated tanh: W_h hands on a nonzero change that h cannot show in float64.
    e = _effect("a b c", W_x=[[1000, 0], [1000, 0]])
    assert e.reason == "h_rounded" and e.handed > 0 and e.answer == "only_first"


def test_first_word_quiz_knows_a_null_space_of_w_x():
    """W_x ≠ 0 sending Δx_1 to 0 (random word vectors never do this by chance, so the swap is built here)."""
    result = unroll(parse_config("a b", 2, 2, 0, [[1, 0], [1, 0]]))
    other = result.x[0] + torch.tensor([0.0, 1.0], dtype=torch.float64)  # (E,) differs only where W_x reads nothing
    x = torch.stack([other, result.x[1]])  # (S, E)
    h_swapped = manual_unroll(x, result.weights)[-1]  # (S, H)
    change = tuple(float(c) for c in (h_swapped - result.h).abs().max(dim=1).values)
    swapped = dataclasses.replace(result, x_swapped=other, h_swapped=h_swapped, first_word_change=change)
    e = first_word_effect(swapped)
    assert (e.answer, e.reason, e.handed) == ("none", "x_null", 0.0)


def test_formula_text_shows_the_numbers():
    result = unroll(RnnConfig())
    lines = formula_latex(result, 1)
    assert len(lines) == 4
    assert lines[3].startswith(r"h_{2} = \tanh")
    assert num(float(result.h[1, 0])) in lines[3]
    assert num(float(result.pre[1, 3])) in lines[2]
    expansion = unit_expansion(result, 1, 0)
    assert expansion.endswith(f"= {num(float(result.wx[1, 0]))}")
    assert expansion.count("×") == 3
    assert num(-0.00001) == "0" and vec([1.0, -0.5]) == "[1, -0.5]"
    assert weights_table(result.weights.b, "b")[0] == [num(float(result.weights.b[0]))]


def test_step_frame_and_chart():
    result = unroll(RnnConfig())
    H = result.h.shape[1]
    steps = step_frame(result, 2)
    assert len(steps) == 5 * H
    labels = {k: k for k in ("unit", "value", "term")} | {f"term_{i}": f"t{i}" for i in range(5)}
    assert step_chart(steps, labels).to_dict()


@pytest.mark.parametrize(
    "args, key, field",
    [
        (("", 3, 4, 0), "errors.empty_text", "rnn.field.sentence"),
        (("   ", 3, 4, 0), "errors.empty_text", "rnn.field.sentence"),
        ((" ".join(["w"] * (MAX_S + 1)), 3, 4, 0), "errors.too_many_tokens", "rnn.field.sentence"),
        ((KO, 3, MAX_H + 1, 0), "errors.out_of_range", "rnn.field.H"),
        ((KO, 3, 100, 0), "errors.out_of_range", "rnn.field.H"),
        ((KO, 0, 4, 0), "errors.out_of_range", "rnn.field.E"),
        ((KO, 3, 4, -1), "errors.out_of_range", "rnn.field.seed"),
        ((KO, 3, 4.5, 0), "errors.not_an_integer", "rnn.field.H"),
        ((KO, "x", 4, 0), "errors.not_an_integer", "rnn.field.E"),
        ((KO, 2, 2, 0, [["1", "nan"], ["0", "1"]]), "errors.nan", "rnn.field.W_x"),
        ((KO, 2, 2, 0, [["1", "0"]]), "errors.wrong_rows", "rnn.field.W_x"),
        ((KO, 2, 2, 0, None, [["1", "0", "2"], ["0", "1", "2"]]), "errors.wrong_cols", "rnn.field.W_h"),
        ((KO, 2, 2, 0, None, [["1", "abc"], ["0", "1"]]), "errors.not_a_number", "rnn.field.W_h"),
        ((KO, 2, 2, 0, None, None, [["inf"], ["0"]]), "errors.too_large", "rnn.field.b"),
        ((KO, 2, 2, 0, None, None, [[""], ["0"]]), "errors.empty_cell", "rnn.field.b"),
    ],
)
def test_bad_input_names_its_field(args, key, field):
    with pytest.raises(InputError) as err:
        parse_config(*args)
    assert (err.value.key, err.value.field) == (key, field)


cell = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=5), st.none(), st.integers())
table = st.one_of(st.none(), st.lists(st.lists(cell, min_size=0, max_size=4), min_size=0, max_size=4))


@settings(max_examples=40, deadline=None)
@given(
    st.one_of(st.text(max_size=40), st.none(), st.integers()),
    st.one_of(st.integers(-2, 10), st.floats(allow_nan=True), st.text(max_size=3)),
    st.one_of(st.integers(-2, 10), st.floats(allow_nan=True), st.text(max_size=3)),
    st.one_of(st.integers(-5, 2**32), st.text(max_size=3)),
    table,
    table,
    table,
)
def test_any_input_gives_a_checked_result_or_an_input_error(sentence, E, H, seed, wx, wh, b):
    try:
        config = parse_config(sentence, E, H, seed, wx, wh, b)
    except InputError:
        return
    result = unroll(config)
    assert result.h.shape == (len(config.tokens), config.H)
    assert torch.isfinite(result.h).all()
    assert result.max_abs_diff < 1e-9


def test_the_chain_picture_holds_the_run():
    """Every h_t and x_t square of the picture is the computed value; h_(t-1) lights up again at step t; the
    step's formula lines carry the step's numbers; the spec is valid Vega-Lite with the step control on it."""
    from s2s_core.chartkit import step_param
    from s2s_core.fmt import vec
    from s2s_core.rnn.picture import STEP_PARAM, picture_data, unroll_picture

    result = unroll(parse_config("the dog saw the cat", 3, 4, 0))
    before = unroll(parse_config("a b", 3, 2, 0))
    pic = picture_data(result, before)
    own = pic.cells[~pic.cells["dup"]]
    for t in range(1, 6):
        h = own[(own["vector"] == f"h{t}")].sort_values("k")["value"].tolist()
        x = own[(own["vector"] == f"x{t}")].sort_values("k")["value"].tolist()
        assert h == pytest.approx(result.h[t - 1].tolist()) and x == pytest.approx(result.x[t - 1].tolist())
        handed = pic.cells[pic.cells["dup"] & (pic.cells["step"] == t)]
        assert set(handed["vector"]) == {f"h{t - 1}"}
        unwrapped = pic.formulas[(pic.formulas["step"] == t) & (pic.formulas["budget"] == 0)]
        assert unwrapped["text"].tolist()[-1].endswith(vec(result.h[t - 1]))
    assert own[own["vector"] == "h0"]["value"].tolist() == [0.0] * 4
    # The previous input's states sit where they existed (2 steps, 2 units), nowhere else.
    was = own.dropna(subset=["before"])
    assert len(was) == 4 and was[was["vector"] == "h2"].sort_values("k")["before"].tolist() == pytest.approx(
        before.h[1].tolist()
    )
    words = dict.fromkeys(("title", "subtitle", "description", "vector", "component", "value", "before", "token"), "w")
    spec = unroll_picture(pic, words, step_param(STEP_PARAM, 5, 2, "step")).to_dict()  # validates
    params = [*spec.get("params", []), *(p for layer in spec["layer"] for p in layer.get("params", []))]
    assert [p["value"] for p in params if p["name"] == STEP_PARAM] == [[{"step": 2}]]


@pytest.mark.parametrize("H", [1, 4, MAX_H])
def test_the_formula_wraps_to_the_width_and_loses_nothing(H):
    """Every wrapping of every step's formula holds the same words as the unwrapped lines; a wrapped line keeps to
    its budget; the widest wrapping that fits is picked by width, and the narrowest fits a 320 px phone's chart."""
    from s2s_core.rnn.picture import CHAR_PX, INDENT_PX, formula_terms, picture_data, wrap_thresholds

    # Eight words and weights of both signs: the longest numbers (-0.1234) at every component.
    result = unroll(parse_config("a b c d e f g h", MAX_E, H, 3))
    pic = picture_data(result)
    frame = pic.formulas
    for budget, rows in frame.groupby("budget"):
        for t, lines in rows.groupby("step"):
            whole = " ".join(" ".join(parts) for parts in formula_terms(result, t - 1))
            assert " ".join(lines.sort_values("line")["text"]) == whole
            if budget:
                room = budget - lines["indent"] * round(INDENT_PX / CHAR_PX)
                assert (lines["text"].str.len() <= room).all(), lines["text"].tolist()
    thresholds = wrap_thresholds(frame)
    assert thresholds[0][1] == 0  # the widest is one line per term
    assert thresholds[-1][0] <= 290  # a 320 px phone's chart holds the narrowest
    widths = [px for px, _ in thresholds]
    assert widths == sorted(widths, reverse=True) and len(set(widths)) == len(widths)


def _no_memory(sentence: str):
    """The page's "No memory" case: W_h = 0 (every other weight seeded)."""
    return unroll(parse_config(sentence, 3, 4, 0, None, [[0] * 4 for _ in range(4)]))


def test_the_repeated_word_notice_follows_the_states_it_names():
    # With a working W_h the word that comes back gets different states: the notice says so.
    keys = notice_keys(unroll(parse_config("the dog saw the cat", 3, 4, 0)))
    assert keys == {"carried": "rnn.notice_2", "repeat": "rnn.notice_repeat"}
    # Under "No memory" (W_h = 0) the same x_t gives the same h_t bit for bit: "yet different states" is false.
    result = _no_memory("the dog saw the cat")
    reading = repeat_reading(result)
    assert reading is not None and reading.steps == (1, 4) and not reading.differ
    assert torch.equal(result.h[0], result.h[3])
    assert notice_keys(result) == {"carried": "rnn.notice_2_none", "repeat": "rnn.notice_repeat_same"}
    assert notice_keys(_no_memory("a b c"))["repeat"] == "rnn.notice_repeat_hint"  # no word comes back


def test_squash_note_knows_when_tanh_rounds_to_one():
    assert not saturated(unroll(RnnConfig()), 0)  # seeded weights: every h strictly inside (−1, 1)
    big = unroll(parse_config("a b", 2, 2, 0, [[0, 0], [0, 0]], [[0, 0], [0, 0]], [[40], [40]]))
    assert saturated(big, 0) and float(big.h[0].abs().max()) == 1.0  # tanh(≈40) is exactly 1 in float64
