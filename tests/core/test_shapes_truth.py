"""Tensor shapes: the sentences about a wrong input and the bridge are chosen by the live layer (issue 24 §2)."""

from __future__ import annotations

import pytest
import torch

from s2s_core.catalog import load_catalog
from s2s_core.shapes import parse_config
from s2s_core.shapes.bridge import BridgeConfig, bridge_view
from s2s_core.shapes.compute import modules_for, run_shapes
from s2s_core.shapes.failures import failure_demo
from s2s_core.shapes.model import run_layer, token_ids


def _layer_and_x(config):
    embedding, layer = modules_for(config)
    x = embedding(token_ids(config.B, config.S, config.lengths))  # (B, S, E)
    return layer, (x if config.batch_first else x.transpose(0, 1))  # (B, S, E) / (S, B, E)


@pytest.mark.parametrize("cell", ["RNN", "GRU", "LSTM"])
@torch.inference_mode()
def test_without_batch_first_x0_drops_the_time_axis_and_the_fix_slices_the_batch_axis(cell):
    """The old note said a 2-D x[0] drops the batch axis and advised x[0:1]. With batch_first=False, x is (S, B, E):
    x[0] is step 1 of every sentence (B, E), and x[0:1] is (1, B, E), still every sentence. The core names the
    dropped axis and a fix that PyTorch runs and that gives sentence 1's own outputs."""
    config = parse_config(cell=cell, B=3, S=4, batch_first=False)
    d = failure_demo(config, "input_2d")
    assert d.raised and d.note == "raised_time" and d.dropped == "time"
    assert dict(d.silent)["x[0]"] == (config.B, config.E)  # the batch survives; time is gone
    layer, x = _layer_and_x(config)
    full, _, _ = run_layer(layer, x)  # (S, B, H)
    assert x[0:1].shape == (1, config.B, config.E)  # the old advice: one time step of all three sentences
    assert d.fix_code.startswith("rnn(x[:, 0:1], ")
    one, h_n, _ = run_layer(layer, x[:, 0:1])  # the fix, run here independently: (S, 1, H)
    assert dict(d.fixed) == {"x[:, 0:1]": (4, 1, config.E), "outputs": tuple(one.shape), "h_n": tuple(h_n.shape)}
    assert torch.allclose(one[:, 0], full[:, 0], atol=1e-6)  # sentence 1, as the batch computes it
    h0 = torch.zeros(config.num_layers * config.K, config.B, config.Hout)  # (L·K, B, Hout)
    with pytest.raises(RuntimeError, match="unbatched 2-D input"):  # the real error the page shows
        layer(x[0], (h0, torch.zeros_like(h0)) if cell == "LSTM" else h0)
    assert "unbatched 2-D input" in d.message


@torch.inference_mode()
def test_with_batch_first_x0_is_one_sentence_and_x0_1_keeps_its_batch_axis():
    config = parse_config(cell="GRU", B=3, S=4)
    d = failure_demo(config, "input_2d")
    assert d.note == "raised_batch" and d.dropped == "batch"
    assert dict(d.silent)["x[0]"] == (4, config.E)
    layer, x = _layer_and_x(config)
    full, _, _ = run_layer(layer, x)  # (B, S, H)
    assert d.fix_code == "rnn(x[0:1], h_0[:, 0:1])"
    assert dict(d.fixed)["outputs"] == (1, 4, config.H)
    one, _, _ = run_layer(layer, x[0:1], torch.zeros(1, 1, config.H))
    assert torch.allclose(one[0], full[0], atol=1e-6)


def test_the_two_notes_differ_in_both_languages():
    for lang in ("en", "ko"):
        c = load_catalog(lang)
        assert "x[:, 0:1]" in c["shapes.fail.input_2d.raised_time"]
        assert "x[0:1]" in c["shapes.fail.input_2d.raised_batch"]
        assert "shapes.fail.input_2d.raised" not in c


@torch.inference_mode()
def test_the_bridge_note_says_h_is_bounded_only_when_it_is():
    """The old note: the tanh keeps h in (-1, 1) "like any LSTM output". With proj_size the LSTM's h is a linear
    map of o ⊙ tanh(c) and leaves (-1, 1) (measured here with large projection weights)."""
    plain = bridge_view(run_shapes(parse_config()), BridgeConfig(1, 5))
    assert plain.h_linear and plain.h_bounded and plain.linear_note == "shapes.bridge.linear_note"
    assert plain.h_max < 1
    proj = parse_config(proj_size=3)
    b = bridge_view(run_shapes(proj), BridgeConfig(1, 5))
    assert b.h_linear and not b.h_bounded and b.linear_note == "shapes.bridge.linear_note_proj"
    _, layer = modules_for(proj)
    layer.weight_hr_l0.data.mul_(20)  # a projection the model can learn: nothing keeps it below 1
    x = torch.randn(proj.B, proj.S, proj.E)
    _, h_n, _ = run_layer(layer, x)
    assert float(h_n.abs().max()) > 1
    # proj_size 3, decoder size 3: h fits as it is, only c (size 6) is mapped, and it gets no tanh.
    c_only = bridge_view(run_shapes(proj), BridgeConfig(1, 3))
    assert not c_only.h_linear and c_only.linear_note == "shapes.bridge.linear_note_cell"
    assert c_only.steps[-1].key == "as_is" and "tanh" not in c_only.cell_steps[-1].code
    for cell in ("RNN", "GRU"):
        assert bridge_view(run_shapes(parse_config(cell=cell)), BridgeConfig(1, 5)).h_bounded
    assert bridge_view(run_shapes(parse_config()), BridgeConfig(1, 6)).linear_note is None


def test_the_korean_picture_title_says_what_the_english_says():
    ko = load_catalog("ko")["shapes.picture.title"]
    assert "h_n" in ko and "x" in ko and "outputs" in ko and "변만" not in ko


# --- outputs[:, -1] against h_n[-1]: the picture's panel and its reason (issue 25 §2) ------------------------------


def _own_layer(cell: str, *, layers: int = 1, bidirectional: bool = False, E: int = 4, seed: int = 7):
    """PyTorch's own nn.RNN / nn.LSTM / nn.GRU, built here (not the page's modules): H = 6."""
    torch.manual_seed(seed)
    cls = {"RNN": torch.nn.RNN, "LSTM": torch.nn.LSTM, "GRU": torch.nn.GRU}[cell]
    return cls(E, 6, num_layers=layers, bidirectional=bidirectional, batch_first=True).eval()


def _final(state):
    return state[0] if isinstance(state, tuple) else state  # LSTM: (h_n, c_n)


def _reading(**settings):
    from s2s_core.shapes.origin import last_step_reading

    return last_step_reading(run_shapes(parse_config(**settings)))


CELLS = ["RNN", "LSTM", "GRU"]


@pytest.mark.parametrize("cell", CELLS)
@torch.inference_mode()
def test_one_direction_no_pad_the_two_are_the_same_cell(cell):
    out, state = _own_layer(cell)(torch.randn(2, 3, 4))  # (B, S, H), (1, B, H)
    assert torch.allclose(out[:, -1], _final(state)[-1])  # PyTorch's own layer: the same state, stored twice
    r = _reading(cell=cell)
    assert r.equal and r.note == "equal"
    assert r.compared.final == r.S - 1 and not r.compared.backward  # the panel outlines the same cell twice


@pytest.mark.parametrize("cell", CELLS)
@torch.inference_mode()
def test_two_directions_h_n_last_is_the_backward_state_at_position_0(cell):
    out, state = _own_layer(cell, bidirectional=True)(torch.randn(2, 3, 4))  # (B, S, 2H), (2, B, H)
    h_n = _final(state)
    assert out[:, -1].shape == (2, 12) and h_n[-1].shape == (2, 6)  # [fwd H | bwd H] against one direction
    assert torch.allclose(out[:, 0, 6:], h_n[-1])  # backward read right to left: its final state is at position 0
    assert torch.allclose(out[:, -1, :6], h_n[-2])  # forward ends at the last position
    assert not torch.allclose(out[:, -1, 6:], h_n[-1])  # the last position's backward half read one token only
    r = _reading(cell=cell, bidirectional=True)
    assert not r.equal and r.max_abs_diff is None and r.note == "differ_bidirectional"
    assert r.compared.backward and r.compared.final == 0 and [row.backward for row in r.rows] == [False, True]


@pytest.mark.parametrize("cell", CELLS)
@torch.inference_mode()
def test_packed_padding_the_short_sentence_ends_before_the_last_position(cell):
    from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

    layer, x = _own_layer(cell), torch.randn(2, 3, 4)
    packed = pack_padded_sequence(x, torch.tensor([3, 1]), batch_first=True, enforce_sorted=False)
    out, state = layer(packed)
    out, _ = pad_packed_sequence(out, batch_first=True, total_length=3)  # (B, S, H)
    h_n = _final(state)
    assert torch.count_nonzero(out[1, -1]) == 0  # sentence #2's last position is PAD: packed outputs are 0 there
    assert torch.allclose(h_n[-1, 1], out[1, 0])  # its h_n is the state at its last real step
    assert not torch.allclose(out[:, -1], h_n[-1])
    r = _reading(cell=cell, lengths="3, 1", packed=True)
    assert not r.equal and r.note == "differ_packed_pad"
    assert (r.sentence, r.length) == (1, 1) and r.compared.final == 0 and r.compared.last == 0


@pytest.mark.parametrize("cell", CELLS)
@torch.inference_mode()
def test_padding_without_packing_both_ran_through_pad(cell):
    layer, x = _own_layer(cell), torch.randn(2, 3, 4)
    out, state = layer(x)  # straight through: sentence #2's two PAD steps run too
    assert torch.allclose(out[:, -1], _final(state)[-1])
    _, alone = layer(x[1:2, :1])  # sentence #2 alone: one step
    assert not torch.allclose(_final(alone)[-1, 0], _final(state)[-1, 1])  # neither is its true last state
    r = _reading(cell=cell, lengths="3, 1")
    assert r.equal and r.note == "equal_through_pad" and r.compared.final == r.S - 1


@pytest.mark.parametrize("cell", CELLS)
@torch.inference_mode()
def test_several_layers_h_n_last_is_the_top_layer(cell):
    two = _own_layer(cell, layers=2)
    # one layer each, given the stack's layer-1 and layer-2 weights
    first, top = _own_layer(cell), _own_layer(cell, E=6)
    for one, k in ((first, 0), (top, 1)):
        for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
            getattr(one, f"{name}_l0").copy_(getattr(two, f"{name}_l{k}"))
    x = torch.randn(2, 3, 4)
    out, state = two(x)
    low, low_state = first(x)
    _, top_state = top(low)  # the top layer reads the first layer's outputs
    assert torch.allclose(_final(state)[-1], _final(top_state)[0], atol=1e-6)  # h_n[-1]: the top layer's state
    assert torch.allclose(_final(state)[0], _final(low_state)[0], atol=1e-6)  # h_n[0]: the first layer's
    assert torch.allclose(out[:, -1], _final(state)[-1])
    r = _reading(cell=cell, num_layers=2)
    assert r.equal and r.note == "equal_layers" and [row.layer for row in r.rows] == [1, 2]


@pytest.mark.parametrize(
    "settings",
    [{}, {"bidirectional": True, "num_layers": 2}, {"lengths": "3, 1", "packed": True, "bidirectional": True}],
)
@torch.inference_mode()
def test_the_panel_outlines_where_each_top_row_of_h_n_is_in_outputs(settings):
    """On the page's own run: outputs at the position the panel marks as a top row's final state, in that row's
    half of the features, is that row of h_n (for the followed sentence)."""
    from s2s_core.shapes.origin import last_step_reading

    res = run_shapes(parse_config(**settings))
    r = last_step_reading(res)
    for row in r.rows:
        if not r.is_top(row):
            continue
        half = slice(r.Hout, 2 * r.Hout) if row.backward else slice(0, r.Hout)
        assert torch.allclose(res.outputs[r.sentence, row.final, half], res.h_n[row.row, r.sentence], atol=1e-6)


def test_the_reason_follows_the_measured_equality():
    """The sentence is chosen by the compared tensors first: with PAD and no packing they are equal (both ran
    through PAD), which an always-"PAD makes them differ" wording would have got wrong."""
    from s2s_core.shapes.origin import why_note

    assert why_note(equal=True, bidirectional=False, padded=True, packed=False, layers=1) == "equal_through_pad"
    assert why_note(equal=False, bidirectional=False, padded=True, packed=True, layers=1) == "differ_packed_pad"
    assert why_note(equal=False, bidirectional=False, padded=False, packed=False, layers=1) == "differ"
    for lang in ("en", "ko"):
        c = load_catalog(lang)
        for note in ("equal", "equal_layers", "equal_through_pad", "differ_bidirectional", "differ_packed_pad"):
            assert f"shapes.picture.why.{note}" in c
