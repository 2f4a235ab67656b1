"""Backprop through time: the ρ^k law, the tanh ceiling, loop == nn modules, detach, clipping, bad input."""

from __future__ import annotations

import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from torch import nn

from s2s_core.bptt import BpttConfig, backprop_through_time, clip, parse_config, parse_max_norm
from s2s_core.bptt.cells import lstm_step
from s2s_core.bptt.charts import clip_chart, grad_chart, parts_chart
from s2s_core.bptt.compute import CELLS, MAX_T, H, make_inputs, make_weights, quiz_edit, run_loop
from s2s_core.bptt.frames import (
    LAW,
    clip_frame,
    cuts_frame,
    grad_frame,
    milestone_steps,
    milestones_frame,
    parts_frame,
)
from s2s_core.errors import InputError
from s2s_core.fmt import sci


@pytest.mark.parametrize("rho", [0.5, 1.0, 1.5])
def test_linear_rnn_gradient_k_steps_back_is_rho_to_the_k(rho):
    result = backprop_through_time(BpttConfig(T=25, rho=rho, linear=True))
    norms = torch.tensor(result.by_cell("rnn").norms, dtype=torch.float64)  # (T,) by steps back
    expected = norms[0] * rho ** torch.arange(25, dtype=torch.float64)  # (T,)
    assert torch.allclose(norms, expected, rtol=1e-9, atol=0)
    assert result.law_diff is not None and result.law_diff < 1e-9


def test_w_hh_blocks_have_spectral_radius_rho():
    for cell, G in (("rnn", 1), ("lstm", 4), ("gru", 3)):
        w = make_weights(cell, 0.7, 1.0, 3)
        for block in w.W_hh.split(H):  # (H, H) each
            assert torch.allclose(torch.linalg.eigvals(block).abs(), torch.full((H,), 0.7, dtype=torch.float64))
        assert w.W_hh.shape == (G * H, H)


@pytest.mark.parametrize("rho", [0.9, 0.4, 1.7])
def test_rho_is_each_blocks_stretch_and_only_the_rnns_whole_w_hh(rho):
    """The measured ‖W_hh·v‖/‖v‖ that picks the page's ρ text (one block vs a stack): ρ for the plain RNN, ρ·√G for
    the LSTM's 4 and the GRU's 3 stacked blocks (1.8 and 1.56 at ρ = 0.9), ρ for every block on its own."""
    result = backprop_through_time(BpttConfig(T=5, rho=rho, seed=3))
    expected = {"rnn": (1, rho), "lstm": (4, 2 * rho), "gru": (3, math.sqrt(3) * rho)}
    for c in result.cells:
        G, whole = expected[c.cell]
        assert c.blocks == G and math.isclose(c.stretch, whole, rel_tol=1e-9)
        assert len(c.block_stretch) == G and all(math.isclose(b, rho, rel_tol=1e-9) for b in c.block_stretch)
        # The same holds for any vector, not only the page's probe (the blocks are ρ times orthogonal matrices).
        W_hh = make_weights(c.cell, rho, 1.0, 3).W_hh  # (G·H, H)
        v = torch.randn(H, 5, generator=torch.Generator().manual_seed(9), dtype=torch.float64)  # (H, 5)
        assert torch.allclose((W_hh @ v).norm(dim=0) / v.norm(dim=0), torch.full((5,), whole, dtype=torch.float64))
    assert [c.cell for c in result.cells if c.blocks == 1] == ["rnn"]  # only there is W_hh's stretch exactly ρ


def test_tanh_rnn_stays_under_the_rho_ceiling():
    for rho in (0.6, 1.3):
        result = backprop_through_time(BpttConfig(T=30, rho=rho))
        rnn = result.by_cell("rnn")
        assert all(n <= law * (1 + 1e-9) for n, law in zip(rnn.norms, result.rho_law, strict=True))


def test_gradients_can_vanish_explode_or_keep_their_size():
    """What Home's "can shrink or blow up" rests on: it depends on the weights. At ρ = 1 the linear RNN's gradient
    20 steps back is exactly the last one's size; below 1 it shrinks, above 1 it grows."""
    ratios = {
        rho: backprop_through_time(BpttConfig(T=21, rho=rho, linear=True)).by_cell("rnn").ratio(20)
        for rho in (0.5, 1.0, 1.5)
    }
    assert ratios[0.5] < 1e-5 and math.isclose(ratios[1.0], 1.0, rel_tol=1e-9) and ratios[1.5] > 1e3


def test_vanishing_below_one_exploding_above():
    small = backprop_through_time(BpttConfig(T=30, rho=0.5, linear=True)).by_cell("rnn")
    large = backprop_through_time(BpttConfig(T=30, rho=1.5, linear=True)).by_cell("rnn")
    assert small.ratio(20) < 1e-5 < 1e3 < large.ratio(20)


def test_hand_loop_equals_nn_modules_with_copied_weights():
    x = make_inputs(12, 5)  # (T, E)
    for cell in CELLS:
        w = make_weights(cell, 0.9, 1.0, 5)
        module = {"rnn": nn.RNN, "lstm": nn.LSTM, "gru": nn.GRU}[cell](4, H, batch_first=True, dtype=torch.float64)
        with torch.no_grad():
            module.weight_ih_l0.copy_(w.W_ih)
            module.weight_hh_l0.copy_(w.W_hh)
            module.bias_ih_l0.copy_(w.b_ih)
            module.bias_hh_l0.copy_(w.b_hh)
            out, _ = module(x.unsqueeze(0))  # (1, T, H)
        run = run_loop(cell, x, w, linear=False, truncate=0)
        assert torch.allclose(run.outs, out[0])
    result = backprop_through_time(BpttConfig(T=12, seed=5))
    assert all(c.module_diff is not None and c.module_diff < 1e-10 for c in result.cells)


def test_lstm_step_cell_path_is_the_forget_gate():
    w = make_weights("lstm", 1.0, 2.0, 0)
    x, h = make_inputs(1, 0), torch.zeros(1, H, dtype=torch.float64)  # (1, E), (1, H)
    cell = torch.randn(1, H, dtype=torch.float64, requires_grad=True)  # (1, H)
    _, new_cell, f = lstm_step(x, h, cell, w)
    new_cell.sum().backward()
    assert torch.allclose(cell.grad, f.detach())  # ∂cell_t/∂cell_(t-1) = f (elementwise)


def test_detach_zeroes_the_gradient_beyond_the_cut():
    result = backprop_through_time(BpttConfig(T=30, rho=1.0, truncate=8))
    assert result.cuts == (6, 14, 22)
    for c in result.cells:
        assert all(v > 0 for v in c.norms[:6])  # k = 0..5: steps 30..25 share the last chunk
        assert all(v == 0 for v in c.norms[6:])  # the detached state t = 24 and everything before it
        assert all(v > 0 for v in c.full_norms)  # without truncation every step is reached
        assert c.norms[:6] == c.full_norms[:6]  # inside the chunk nothing changes
    lstm = result.by_cell("lstm")
    assert lstm.cell_norms is not None and all(v == 0 for v in lstm.cell_norms[6:])


def test_clipping_keeps_direction_and_caps_the_norm():
    result = backprop_through_time(BpttConfig(T=20, rho=1.4, linear=True))
    for c in result.cells:
        clipped = clip(c, 0.5)
        assert clipped.total_before > 0.5
        assert math.isclose(clipped.total_after, 0.5, rel_tol=1e-5)
        assert math.isclose(clipped.cosine, 1.0, abs_tol=1e-9)
        ratios = [a / b for a, b in zip(clipped.param_after, clipped.param_before, strict=True)]
        assert max(ratios) - min(ratios) < 1e-9  # one factor for every parameter
        assert math.isclose(clipped.total_before, math.sqrt(sum(n * n for n in clipped.param_before)), rel_tol=1e-9)
    # Clipping works on copies: the (cached) gradients are untouched, so clipping twice gives the same numbers.
    rnn = result.by_cell("rnn")
    kept = [g.clone() for g in rnn.param_grads]
    assert clip(rnn, 0.5) == clip(rnn, 0.5)
    assert all(torch.equal(a, b) for a, b in zip(kept, rnn.param_grads, strict=True))


def test_clipping_does_nothing_for_vanishing_gradients():
    tiny = backprop_through_time(BpttConfig(T=20, rho=0.3)).by_cell("rnn")
    clipped = clip(tiny, 100.0)  # the total is under max_norm: multiplied by exactly 1
    assert math.isclose(clipped.scale, 1.0, rel_tol=1e-12)
    assert clipped.param_after == clipped.param_before
    assert tiny.ratio(15) < 1e-6  # ... and the far gradient is still vanished


def test_clipping_matches_torch_on_the_same_vector():
    grad = backprop_through_time(BpttConfig(T=10)).by_cell("gru")
    flat = torch.cat([g.flatten() for g in grad.param_grads])  # (P,)
    clipped = clip(grad, 0.1)
    assert math.isclose(clipped.total_before, float(flat.norm()), rel_tol=1e-9)
    assert math.isclose(clipped.total_after, min(0.1, float(flat.norm())), rel_tol=1e-5)


@pytest.mark.parametrize(
    "config, max_norm",
    [(BpttConfig(), 1.0), (BpttConfig(T=12, rho=1.4, truncate=5), 0.3), (BpttConfig(T=9, rho=0.5), 100.0)],
)
def test_clip_is_clip_grad_norm_and_each_steps_part_keeps_its_share(config, max_norm):
    """The page's clipping numbers, rebuilt with torch.nn.utils.clip_grad_norm_ on real parameters."""
    for c in backprop_through_time(config).cells:
        clipped = clip(c, max_norm)
        # 1) The steps' parts add up to ∂L/∂W_hh (autograd's own gradient of the shared weight).
        assert torch.allclose(torch.stack(c.hh_parts).sum(dim=0), c.param_grads[1], rtol=0, atol=1e-12)
        # 2) clip_grad_norm_ on real parameters holding the same gradients.
        params = [nn.Parameter(torch.zeros_like(g)) for g in c.param_grads]
        for p, g in zip(params, c.param_grads, strict=True):
            p.grad = g.clone()
        total = float(nn.utils.clip_grad_norm_(params, max_norm))
        assert math.isclose(clipped.total_before, total, rel_tol=1e-12)
        assert clipped.param_after == tuple(float(p.grad.norm()) for p in params)
        assert math.isclose(clipped.total_after, min(max_norm, total), rel_tol=1e-5)
        assert math.isclose(clipped.cosine, 1.0, abs_tol=1e-12)  # direction kept
        # 3) The clipped parts add up to torch's clipped ∂L/∂W_hh, and each is the same multiple of its old self:
        #    the far steps' shares are unchanged.
        assert clipped.parts_sum_diff < 1e-12
        reached = [k for k, v in enumerate(clipped.part_before) if v > 0]
        for k in reached:
            assert math.isclose(clipped.part_after[k] / clipped.part_before[k], clipped.scale, rel_tol=1e-9)
        assert all(clipped.part_after[k] == 0 for k in range(config.T) if k not in reached)
        assert clipped.scale <= 1 + 1e-12  # clipping never enlarges: it cannot lift a vanished part


def test_far_part_band_picks_the_clipping_text_from_the_live_parts():
    """The text is chosen by far_band: vanished (default RNN), not vanished (LSTM with an open forget gate),
    or exactly 0 beyond a truncation cut; the old page showed one "does not bring back" sentence for all."""
    default = backprop_through_time(BpttConfig())
    rnn = clip(default.by_cell("rnn"), 1.0)
    assert rnn.far_back == 20 and rnn.far_before < 1e-2 and rnn.far_band == "vanish"
    assert math.isclose(rnn.far_after, rnn.far_before, rel_tol=1e-9) and rnn.scale < 1
    opened = clip(backprop_through_time(BpttConfig(gate_bias=5.0)).by_cell("gru"), 1.0)
    assert 1e-2 <= opened.far_before <= 1e2 and opened.far_band == "same"
    cut = clip(backprop_through_time(BpttConfig(T=30, truncate=5)).by_cell("lstm"), 1.0)
    assert cut.part_before[cut.far_back] == 0 == cut.part_after[cut.far_back] and cut.far_band == "cut"
    short = clip(backprop_through_time(BpttConfig(T=2)).by_cell("rnn"), 1.0)
    assert short.far_back == 0 and short.part_before[1] == 0  # step 1 multiplies h_0 = 0: never the far step


def test_gate_bias_opens_the_keep_gates_and_carries_gradient_further():
    low = backprop_through_time(BpttConfig(T=40, gate_bias=0.0))
    high = backprop_through_time(BpttConfig(T=40, gate_bias=3.0))
    for cell in ("lstm", "gru"):
        assert high.by_cell(cell).keep_gate > low.by_cell(cell).keep_gate
        assert high.by_cell(cell).ratio(39) > low.by_cell(cell).ratio(39)
    assert low.by_cell("rnn").norms == high.by_cell("rnn").norms  # the plain RNN has no gate


def test_changing_T_keeps_the_first_inputs():
    assert torch.equal(make_inputs(10, 2), make_inputs(40, 2)[:10])


def test_frames_and_charts():
    result = backprop_through_time(BpttConfig(T=20, truncate=6))
    frame = grad_frame(result)
    assert (frame["norm"] > 0).all()
    assert set(frame["series"]) == {"RNN", "LSTM", "GRU", "LSTM cell", LAW}
    assert frame[frame["series"] == "RNN"]["k"].max() == 1  # cuts at t = 18, 12, 6 -> k = 2 is the first zero
    cuts = cuts_frame(result)
    assert list(cuts["k"]) == [2, 8, 14]
    table = milestones_frame(result, "k")
    assert list(table["k"]) == milestone_steps(20) == [0, 1, 5, 10, 19]
    assert table.loc[4, "RNN"] == "0" and sci(0.000123) == "1.2e-04"
    clip_result = clip(result.by_cell("lstm"), 1.0)
    clipped = clip_frame(clip_result, "before", "after", "total")
    assert len(clipped) == 10
    parts = parts_frame(clip_result, 20, "before", "after")
    assert (parts["norm"] > 0).all() and set(parts["when"]) == {"before", "after"}
    labels = {
        k: k
        for k in ("k", "norm", "series", "t", "ratio", "cut", "grad_title", "clip_title", "part", "when", "description")
    }
    assert grad_chart(frame, cuts, labels).to_dict()
    assert clip_chart(clipped, 1.0, labels).to_dict()
    assert parts_chart(parts, 1.0, labels).to_dict()


@pytest.mark.parametrize(
    "args, key, field",
    [
        ((1, 0.9, "rnn", False, 1.0, 0, 0), "errors.out_of_range", "bptt.field.T"),
        ((MAX_T + 1, 0.9, "rnn", False, 1.0, 0, 0), "errors.out_of_range", "bptt.field.T"),
        ((30, float("nan"), "rnn", False, 1.0, 0, 0), "errors.nan", "bptt.field.rho"),
        ((30, 5, "rnn", False, 1.0, 0, 0), "errors.out_of_range", "bptt.field.rho"),
        ((30, "x", "rnn", False, 1.0, 0, 0), "errors.not_a_number", "bptt.field.rho"),
        ((30, 0.9, "transformer", False, 1.0, 0, 0), "errors.bad_choice", "bptt.field.cell"),
        ((30, 0.9, "rnn", False, 99, 0, 0), "errors.out_of_range", "bptt.field.gate_bias"),
        ((30, 0.9, "rnn", False, 1.0, -1, 0), "errors.out_of_range", "bptt.field.truncate"),
        ((30, 0.9, "rnn", False, 1.0, 0, -3), "errors.out_of_range", "bptt.field.seed"),
    ],
)
def test_bad_input_names_its_field(args, key, field):
    with pytest.raises(InputError) as err:
        parse_config(*args)
    assert (err.value.key, err.value.field) == (key, field)


@pytest.mark.parametrize(
    "value, key",
    [
        (0, "errors.out_of_range"),
        (float("inf"), "errors.too_large"),
        ("", "errors.empty_value"),
        ("x", "errors.not_a_number"),
    ],
)
def test_bad_max_norm_names_its_field(value, key):
    with pytest.raises(InputError) as err:
        parse_max_norm(value)
    assert (err.value.key, err.value.field) == (key, "bptt.field.max_norm")


number = st.one_of(
    st.integers(-100, 100), st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=4), st.none()
)


@settings(max_examples=30, deadline=None)
@given(
    number,
    number,
    st.sampled_from(["rnn", "lstm", "gru", "x", None]),
    st.booleans(),
    number,
    number,
    number,
    st.one_of(st.integers(-3, 10), st.text(max_size=3)),
)
def test_any_input_gives_finite_gradients_or_an_input_error(T, rho, cell, linear, gate_bias, truncate, max_norm, seed):
    try:
        config = parse_config(T, rho, cell, linear, gate_bias, truncate, seed)
        max_norm = parse_max_norm(max_norm)
    except InputError:
        return
    result = backprop_through_time(config)
    for c in result.cells:
        assert len(c.norms) == config.T
        assert all(math.isfinite(v) and v >= 0 for v in c.norms)
        assert clip(c, max_norm).total_after <= max_norm * (1 + 1e-5)


def test_the_fields_are_the_cores_caps():
    """One declaration (s2s_core/bptt/fields.py): what a widget or a link can hold is what the core accepts."""
    from s2s_core.bptt import fields

    assert parse_max_norm(fields.MAX_NORM_RANGE[0]) == 0.1 and parse_max_norm(fields.MAX_NORM_RANGE[1]) == 10.0
    for value in (0.09, 10.5):
        with pytest.raises(InputError) as err:
            parse_max_norm(value)
        assert (err.value.key, err.value.field) == ("errors.out_of_range", fields.CLIP.label)
    low = parse_config(2, fields.RHO_RANGE[0], "gru", True, fields.GATE_BIAS_RANGE[0], MAX_T, 0)
    assert (low.T, low.rho, low.gate_bias, low.truncate) == (2, 0.1, -3.0, MAX_T)
    with pytest.raises(InputError) as err:
        parse_config(30, 0.9, "rnn", "yes", 1.0, 0, 0)  # the toggle's value is a bool or nothing
    assert (err.value.key, err.value.field) == ("errors.bad_choice", fields.LINEAR.label)
    assert fields.CELL.options == CELLS and fields.T.hi == fields.TRUNCATE.hi == MAX_T


def test_the_question_asks_about_a_rho_the_page_is_not_showing():
    assert quiz_edit(BpttConfig(rho=0.9)).rho == 2.0 and quiz_edit(BpttConfig(rho=1.5)).rho == 0.5
    assert quiz_edit(BpttConfig(rho=0.9, cell="gru", T=40)) == BpttConfig(rho=2.0, cell="gru", T=40)


def test_the_chain_picture_holds_the_gradients_the_cut_and_clipping():
    """The band's norms are the chosen cell's ‖∂L/∂h_t‖ (0 left of a cut); the cut sits at the detached state;
    the clipping bars are clip_grad_norm_'s norms; the previous input's band only where it existed."""
    from s2s_core.bptt import clip
    from s2s_core.bptt.picture import WORDS, gradient_picture, picture_data

    config = BpttConfig(T=24, rho=0.9, cell="gru", truncate=10)
    result = backprop_through_time(config)
    clipped = clip(result.by_cell("gru"), 0.5)
    before = backprop_through_time(BpttConfig(T=12, cell="gru"))
    pic = picture_data(config, result, clipped, before)
    grad = result.by_cell("gru")
    assert pic.band.sort_values("step")["norm"].tolist() == [grad.norms[24 - t] for t in range(1, 25)]
    first_cut = min(result.cuts)  # steps back of the nearest detached state: it and every step before it get 0
    assert pic.band[pic.band["cut"]]["step"].tolist() == list(range(1, 24 - first_cut + 1))
    assert pic.cuts["x"].tolist() == [24 - k + 0.5 for k in result.cuts]
    assert pic.clip["norm"].tolist() == [clipped.total_before, clipped.total_after]
    assert pic.band["was"].notna().sum() == 12  # the previous input had 12 steps
    words = dict.fromkeys((*WORDS, "title", "subtitle", "clip_title"), "w")  # the page's words, and three with values
    gradient_picture(pic, words).to_dict()  # valid Vega-Lite


def test_the_quiz_reason_follows_what_the_cell_on_screen_computes():
    """quiz_why_up ("a large ρ need not explode") was appended whenever ρ rose, also for the no-tanh RNN, which
    explodes: the reason is now chosen from the computation for the cell on screen."""
    from s2s_core.bptt.compute import quiz_reading

    def reading(config):
        return quiz_reading(config, backprop_through_time(config), backprop_through_time(quiz_edit(config)))

    linear = reading(BpttConfig(linear=True))  # ρ 0.9 -> 2, no tanh: exactly ρ per step
    assert linear.band == "explode" and linear.why == "up_linear"
    assert abs(linear.per_step - 2.0) < 1e-9 and abs(linear.ratio - 2.0**20) < 1e-6 * 2.0**20
    tanh = reading(BpttConfig())  # with tanh: below ρ per step, measured
    assert tanh.why == "up_tanh" and tanh.per_step < 2.0 and tanh.band != "explode"
    assert reading(BpttConfig(cell="lstm")).why == "up_gated"
    down = reading(BpttConfig(rho=1.8))  # ρ 1.8 -> 0.5: the smaller ρ lost more of the gradient
    assert down.why == "down" and down.ratio < down.ratio_now


def test_notice_3_states_the_measured_fall_and_the_gate_relation_only_when_it_holds():
    """At the defaults the LSTM's cell line falls by about 0.82 per step while f averages 0.71: not "about f"."""
    from s2s_core.bptt.compute import keep_reading

    result = backprop_through_time(BpttConfig())
    keep = keep_reading(result)
    lstm = result.by_cell("lstm")
    assert keep.k == 20
    assert abs(keep.lstm_cell_step - (lstm.full_cell_norms[20] / lstm.full_cell_norms[0]) ** (1 / 20)) < 1e-12
    assert abs(keep.f - lstm.keep_gate) < 1e-12
    assert abs(keep.lstm_cell_step - keep.f) > 0.05  # the old sentence's "by about the forget gate" is false here
    assert not keep.lstm_about_f and not keep.gru_about_z
    opened = keep_reading(backprop_through_time(BpttConfig(gate_bias=5.0)))  # gates near 1: now it holds
    assert opened.lstm_about_f and opened.gru_about_z


def test_the_long_sequence_case_falls_at_every_step_by_a_factor_that_varies():
    """The "A long sequence" case (T = 60, the default ρ = 0.9) said "the same factor lost at every step back": the
    per-step factors run from about 0.48 to 0.89. What holds: every step back multiplies by less than 1."""
    norms = backprop_through_time(BpttConfig(T=60)).by_cell("rnn").full_norms
    factors = [norms[k + 1] / norms[k] for k in range(59)]
    assert max(factors) < 0.9 + 1e-12  # at most ρ·tanh′ with tanh′ ≤ 1
    assert max(factors) - min(factors) > 0.1  # not one factor
