"""Tensor shapes: the sentences about a wrong input and the bridge are chosen by the live layer (issue 24 §2)."""

from __future__ import annotations

import pytest
import torch

from s2s_core.shapes import parse_config
from s2s_core.shapes.bridge import BridgeConfig, bridge_view
from s2s_core.shapes.compute import modules_for, run_shapes
from s2s_core.shapes.failures import failure_demo
from s2s_core.shapes.model import run_layer, token_ids
from s2s_ui.catalog import load_catalog


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
