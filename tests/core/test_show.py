"""The notebook API (s2s_core/show): a practitioner's own modules drawn by the pages' own chart builders, with
the pages' words, the check against the module passing; their modules left untouched; bad input named."""

from __future__ import annotations

import copy

import pytest
import torch
from torch import nn

from s2s_core import ShowError, show_attention, show_gru, show_lstm, show_rnn, show_shapes
from s2s_core.catalog import translate
from s2s_core.chartkit import step_param
from s2s_core.gated.picture import STEP_PARAM, cell_chart, picture_words
from s2s_core.lstm import compute as lstm
from s2s_core.lstm.picture import picture_data
from s2s_core.own_weights import from_state_dict
from s2s_core.shapes.compute import modules_for, run_shapes
from s2s_core.shapes.compute import parse_config as shapes_config
from s2s_core.shapes.model import token_ids


def practitioners(kind, *args, **kwargs) -> nn.Module:
    torch.manual_seed(7)
    return {"rnn": nn.RNN, "lstm": nn.LSTM, "gru": nn.GRU}[kind](*args, **kwargs)  # float32, seq-first


def test_show_lstm_is_the_pages_picture_of_the_module_with_the_check():
    mine = practitioners("lstm", 3, 5)
    before = {k: v.clone() for k, v in mine.state_dict().items()}
    x = torch.randn(4, 1, 3)  # (S, B=1, E): the module's own layout
    shown = show_lstm(mine, x)
    with torch.no_grad():
        out, (_, c_n) = mine(x)  # their module, float32
    assert shown.result.max_abs_diff < 1e-12
    assert torch.allclose(shown.result.run.h.float(), out[:, 0], atol=1e-6)
    assert torch.allclose(shown.result.run.c[-1].float(), c_n[0, 0], atol=1e-6)
    assert all(torch.equal(v, before[k]) and v.dtype == torch.float32 for k, v in mine.state_dict().items())
    # The page's own way: the same weights uploaded, the same vectors typed in its table -> the same spec.
    own = from_state_dict(mine.state_dict(), "lstm")
    rows = [[str(float(v)) for v in row] for row in x[:, 0].double()]
    config = lstm.parse_config("table", None, rows, 3, 5, 0, own=own)
    result = lstm.lstm_gates(config)
    texts = picture_words("lstm", "en", False)
    page = cell_chart(
        picture_data(result, config, texts), texts, step_param(STEP_PARAM, 4, 2, translate("en", "steps.label"))
    )
    labelled = show_lstm(mine, x, labels=config.seq.labels)
    assert labelled.chart.to_dict() == page.to_dict()  # validated against Vega-Lite's schema, and equal
    chart, result = shown  # it unpacks
    assert chart is shown.chart and result is shown.result
    bundle = shown._repr_mimebundle_()  # what Jupyter draws: the chart, by Altair's renderer (HTML by default)
    assert "vega-embed" in str(bundle) and translate("en", "lstm.picture.title") in str(bundle)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_show_gru_and_rnn_take_their_modules_in_either_layout(lang):
    gru = practitioners("gru", 2, 4, batch_first=True)
    x = torch.randn(1, 5, 2)  # (B=1, S, E)
    shown = show_gru(gru, x, lang=lang)
    with torch.no_grad():
        out, _ = gru(x)
    assert shown.result.max_abs_diff < 1e-12 and torch.allclose(shown.result.run.h.float(), out[0], atol=1e-6)
    assert translate(lang, "gru.picture.title") in str(shown.chart.to_dict())
    rnn = practitioners("rnn", 3, 2)
    words = ["나는", "책을", "읽는다"]
    shown = show_rnn(rnn, torch.randn(3, 3), labels=words, lang=lang)
    assert shown.result.max_abs_diff < 1e-12 and shown.result.tokens == tuple(words)
    assert "읽는다" in str(shown.chart.to_dict())


def test_show_attention_reads_a_map_and_refuses_what_is_not_one():
    w = torch.tensor([[0.7, 0.2, 0.1], [0.1, 0.1, 0.8]])  # (T, S)
    shown = show_attention(w.unsqueeze(0), ["je", "suis", "là"], ["I", "am"])
    assert shown.result.heaviest == (0, 2) and torch.allclose(shown.result.row_sums, torch.ones(2, dtype=torch.float64))
    spec = shown.chart.to_dict()
    assert translate("en", "training.chart.map_title") in str(spec)
    for bad, key in (
        (torch.ones(2, 3), "weights_rows"),  # rows sum to 3
        (torch.tensor([[1.5, -0.5, 0.0], [0.2, 0.3, 0.5]]), "weights_rows"),
        (torch.tensor([[float("nan"), 0.5, 0.5], [0.2, 0.3, 0.5]]), "weights_rows"),
        (torch.ones(3, 2) / 2, "weights_shape"),
        (torch.ones(2, 3, dtype=torch.long), "weights_shape"),
        ([[0.5, 0.5], [1.0]], "weights_shape"),  # ragged rows: not a matrix
        ([["a", "b", "c"], ["d", "e", "f"]], "weights_shape"),
    ):
        with pytest.raises(ShowError) as err:
            show_attention(bad, ["a", "b", "c"], ["x", "y"], lang="ko")
        message = str(err.value)
        assert message.startswith(translate("ko", "errors.show.field_weights")) and "⟦" not in message
        head = translate("ko", f"errors.show.{key}", field="", row="1", total="", shape="", T="", S="")[:6]
        assert head in message, (key, message)


def test_show_shapes_matches_the_pages_run_for_the_same_layer():
    config = shapes_config(
        cell="GRU", B=2, S=4, E=3, H=5, num_layers=2, bidirectional=True, batch_first=True, lengths="4,2", packed=True
    )
    embedding, layer = modules_for(config)
    x = embedding(token_ids(2, 4, (4, 2))).detach()  # (B, S, E)
    layer = copy.deepcopy(layer).train()  # as a practitioner's layer usually is
    shown = show_shapes(layer, x, lengths=[4, 2])
    page = run_shapes(config)
    assert torch.equal(shown.result.h_n, page.h_n) and torch.equal(shown.result.outputs, page.outputs)
    assert shown.result.shapes == page.shapes
    assert layer.training  # their layer keeps its mode (the picture ran a copy in eval mode)
    shown.chart.to_dict()


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda: show_lstm(nn.GRU(3, 4), torch.randn(2, 3)), "module"),
        (lambda: show_lstm(nn.LSTM(3, 4, num_layers=2), torch.randn(2, 3)), "module"),
        (lambda: show_lstm(nn.LSTM(3, 4, bidirectional=True), torch.randn(2, 3)), "module"),
        (lambda: show_lstm(nn.LSTM(3, 40), torch.randn(2, 3)), "module"),
        (lambda: show_lstm(nn.LSTM(3, 4), torch.randn(2, 2, 3)), "x"),
        (lambda: show_lstm(nn.LSTM(3, 4), torch.randn(2, 5)), "x"),
        (lambda: show_lstm(nn.LSTM(3, 4), torch.randn(40, 3)), "x"),
        (lambda: show_lstm(nn.LSTM(3, 4), torch.full((2, 3), float("inf"))), "x"),
        (lambda: show_lstm(nn.LSTM(3, 4), [[1.0, 2.0, 3.0]]), "x"),
        (lambda: show_gru(nn.GRU(3, 4), torch.randn(2, 3), labels=["only one"]), "labels"),
        (lambda: show_shapes(nn.Linear(3, 4), torch.randn(2, 2, 3)), "module"),
        (lambda: show_shapes(nn.LSTM(3, 4), torch.randn(2, 3)), "x"),
    ],
)
def test_bad_input_is_named_in_the_callers_language(call, field):
    with pytest.raises(ShowError) as err:
        call()
    assert str(err.value).startswith(translate("en", f"errors.show.field_{field}") + ":"), str(err.value)
    assert "⟦" not in str(err.value)
