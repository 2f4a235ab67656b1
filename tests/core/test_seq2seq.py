"""Encoder–decoder core: hand-off, bridge shapes, greedy decoding, the measured bottleneck, bad input."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from s2s_core.catalog import translate as catalog_text
from s2s_core.chartkit import VALUE_SCALE, colour_ends, step_param
from s2s_core.errors import InputError
from s2s_core.grammar import KO_VOCAB, translate
from s2s_core.seq2seq import (
    Seq2SeqConfig,
    decode,
    default_config,
    encode,
    fields,
    hand_off,
    notes,
    parse_config,
    parse_replacement,
    run,
)
from s2s_core.seq2seq.bottleneck import Bottleneck, bottleneck, cycled
from s2s_core.seq2seq.charts import LABELS as CHART_LABELS
from s2s_core.seq2seq.charts import TOPK_LABELS, heatmap, topk_chart
from s2s_core.seq2seq.compute import build_encoder, state_rows
from s2s_core.seq2seq.frames import (
    BottleneckSummary,
    bottleneck_summary,
    brief,
    final_state_frame,
    state_labels,
    topk_frame,
)
from s2s_core.seq2seq.modules import Decoder
from s2s_core.seq2seq.picture import SHORT_NUMBER_PX, WORDS, model_picture, picture_frames
from s2s_core.seq2seq.trained import encode_trained, hand_step, run_trained
from s2s_core.training.loop import new_model
from s2s_core.training.tasks import KO_EN
from s2s_core.translation.lab import DEFAULT as TRAINED


@pytest.mark.parametrize("cell", ["lstm", "gru"])
def test_hand_off_passes_h_and_c_unchanged_when_shapes_match(cell):
    config = Seq2SeqConfig(cell=cell, enc_layers=2, dec_layers=2, enc_hidden=5, dec_hidden=5)
    enc = encode(config)
    handoff = hand_off(config, enc)
    assert not handoff.bridged
    assert torch.equal(handoff.h0, enc.h_n)
    if cell == "lstm":
        assert torch.equal(handoff.c0, enc.c_n)
    else:
        assert handoff.c0 is None and enc.c_n is None
    first = decode(config, handoff).steps[0]
    assert torch.equal(first.h_prev, enc.h_n[-1, 0])  # the decoder starts from the encoder's summary


@pytest.mark.parametrize(
    "cell, L_e, bidirectional, L_d, H_d",
    [
        (cell, L_e, bi, L_d, H_d)
        for cell, L_e, bi, L_d, H_d in itertools.product(["lstm", "gru"], [1, 2, 3], [False, True], [1, 2, 3], [3, 6])
    ],
)
def test_bridge_gives_the_decoder_its_shape_for_every_combination(cell, L_e, bidirectional, L_d, H_d):
    config = Seq2SeqConfig(
        cell=cell,
        embed=3,
        enc_hidden=4,
        enc_layers=L_e,
        bidirectional=bidirectional,
        dec_hidden=H_d,
        dec_layers=L_d,
        bridge="linear",
        steps=2,
    )
    enc = encode(config)
    assert enc.h_n.shape == (L_e * (2 if bidirectional else 1), 1, 4)
    assert enc.outputs.shape == (1, 3, 4 * (2 if bidirectional else 1))
    handoff = hand_off(config, enc)
    assert handoff.h0.shape == (L_d, 1, H_d)
    assert handoff.dec_shape == (L_d, 1, H_d)
    if cell == "lstm":
        assert handoff.c0.shape == (L_d, 1, H_d)
    assert (handoff.h0.abs() < 1).all()  # tanh keeps the bridged h inside an RNN's range
    decoding = decode(config, handoff)  # PyTorch accepts the bridged state
    assert decoding.states.shape[1] == H_d


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(bidirectional=True),
        dict(enc_layers=2),
        dict(dec_hidden=5),
        dict(dec_layers=3, enc_layers=2),
    ],
)
def test_no_bridge_and_different_shapes_is_a_clear_error(kwargs):
    config = Seq2SeqConfig(**kwargs)
    key = "seq2seq.error.no_bridge_bidir" if config.bidirectional else "seq2seq.error.no_bridge"
    with pytest.raises(InputError) as err:
        hand_off(config, encode(config))
    assert err.value.key == key and err.value.field == "seq2seq.field.bridge"
    result = run(config)  # the page still gets the encoder and the bottleneck
    assert result.error[0] == key and result.decoding is None
    assert result.encoder.outputs.shape[1] == 3 and result.bottleneck.delta_first.shape[1] == 24


def _joined_directions(state: torch.Tensor, L: int, H: int) -> torch.Tensor:
    """(L*2, B, H) -> (L, B, 2H): each layer's → and ← final states side by side."""
    return state.view(L, 2, state.shape[1], H).permute(0, 2, 1, 3).reshape(L, state.shape[1], 2 * H)


@pytest.mark.parametrize("cell", ["lstm", "gru"])
@pytest.mark.parametrize(
    "kwargs",
    [
        dict(enc_layers=2),
        dict(dec_hidden=5),
        dict(dec_layers=3, enc_layers=2, enc_hidden=4),
        dict(bidirectional=True),
        dict(bidirectional=True, enc_layers=2, dec_layers=3),
        dict(bidirectional=True, enc_layers=3, enc_hidden=4, dec_hidden=2),
    ],
)
def test_following_the_no_bridge_advice_gives_a_clean_hand_off(cell, kwargs):
    """Each fix the message names (from its live numbers) hands the state over without the 'rarely what you
    mean' warning; the old advice, layers x directions, only ran by lining directions up as layers."""
    config = Seq2SeqConfig(cell=cell, **kwargs)
    with pytest.raises(InputError) as err:
        hand_off(config, encode(config))
    p = err.value.params
    # 1) Unidirectional encoder with the named shape: passes as is, no warning.
    fixed = replace(config, bidirectional=False, dec_layers=p["layers"], dec_hidden=p["hidden"])
    handoff = hand_off(fixed, encode(fixed))
    assert not handoff.bridged and not handoff.directions_as_layers
    if not config.bidirectional:
        assert (p["layers"], p["hidden"]) == (config.enc_layers, config.enc_hidden)
        return
    # 2) Each layer's two directions joined: a decoder of `layers` layers of size `joined` accepts them.
    L, H = config.enc_layers, config.enc_hidden
    enc = encode(config)
    state = enc.h_n if cell == "gru" else enc.state
    joined = _joined_directions(state, L, H) if cell == "gru" else tuple(_joined_directions(s, L, H) for s in state)
    decoder = Decoder(config.itos, cell, config.embed, p["joined"], p["layers"], config.seed)
    with torch.no_grad():
        _, out, _ = decoder(torch.tensor([[1]]), joined)  # PyTorch checks the state's shape here
    assert out.shape == (1, 1, 2 * H) and p["joined"] == 2 * H
    assert torch.equal(joined[0] if cell == "lstm" else joined, torch.cat([enc.h_n[0::2], enc.h_n[1::2]], dim=-1))
    # 3) The old advice (decoder layers = layers x directions) runs only by putting directions into layers.
    old = replace(config, dec_layers=L * 2, dec_hidden=H)
    assert hand_off(old, encode(old)).directions_as_layers


def test_state_rows_follow_pytorchs_h_n_order():
    """Row i of h_n is (layer, direction) = state_rows[i]: checked against a one-layer module with the
    first layer's weights copied (layer 1) and against the outputs' two halves (the top layer)."""
    config = Seq2SeqConfig(cell="gru", bidirectional=True, enc_layers=2, enc_hidden=3)
    rows = state_rows(2, 2)
    assert rows == ((1, 0), (1, 1), (2, 0), (2, 1))
    assert state_labels(2, 2) == ["L1→", "L1←", "L2→", "L2←"]
    encoder = build_encoder(config)
    first = torch.nn.GRU(config.embed, 3, bidirectional=True, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        for name, param in first.named_parameters():
            param.copy_(getattr(encoder.rnn, name))  # *_l0 and *_l0_reverse: the first layer's weights
        ids = torch.tensor([[2, 3, 4]])
        outputs, h_n = encoder(ids)  # (1, S, 2H), (4, 1, H)
        _, h_first = first(encoder.embedding(ids))  # (2, 1, H)
    for i, (layer, k) in enumerate(rows):
        if layer == 1:
            assert torch.allclose(h_n[i], h_first[k])
        else:
            expected = outputs[:, -1, :3] if k == 0 else outputs[:, 0, 3:]  # → ends last, ← ends at word 1
            assert torch.allclose(h_n[i], expected)


def test_directions_lined_up_as_layers_are_flagged():
    config = Seq2SeqConfig(bidirectional=True, dec_layers=2)
    handoff = hand_off(config, encode(config))
    assert handoff.directions_as_layers and not handoff.bridged


def test_encoder_last_output_vs_h_n():
    enc = encode(Seq2SeqConfig(enc_layers=2))
    assert torch.allclose(enc.outputs[:, -1], enc.h_n[-1])  # one direction, no padding: the same vector
    enc = encode(Seq2SeqConfig(bidirectional=True))
    H = 6
    assert torch.allclose(enc.outputs[0, -1, :H], enc.h_n[-2, 0])  # forward ends at the last word
    assert torch.allclose(enc.outputs[0, 0, H:], enc.h_n[-1, 0])  # backward ends at the first word


@pytest.mark.parametrize("cell", ["lstm", "gru"])
def test_step_by_step_decoding_equals_one_call_and_greedy_feeds_back(cell):
    config = Seq2SeqConfig(cell=cell, steps=6, top_k=4, dec_layers=2, enc_layers=2)
    result = run(config)
    dec = result.decoding
    assert dec.one_call_diff < 1e-12
    itos = config.itos
    for t, step in enumerate(dec.steps):
        assert step.chosen == step.top[0][0] == itos[int(step.probs.argmax())]
        assert [p for _, p in step.top] == sorted((p for _, p in step.top), reverse=True)
        assert abs(float(step.probs.sum()) - 1) < 1e-12
        assert float(step.probs[0]) == 0 and float(step.probs[1]) == 0  # <pad>, <sos> are never outputs
        assert step.change > 0  # the decoder's state moves every step
        if t > 0:
            assert step.input_token == dec.steps[t - 1].chosen
            assert torch.equal(step.h_prev, dec.steps[t - 1].h_new)
    assert dec.steps[0].input_token == "<sos>"
    assert len(dec.steps) == config.steps or dec.output[-1] == "<eos>"
    assert torch.equal(dec.states[0], result.handoff.h0[-1, 0])  # the encoder's summary stays the start


@pytest.mark.parametrize(
    "kwargs, S, T, ended, case",
    [
        (dict(), 3, 1, True, "differ"),  # 책을 <eos>: one word out for three in
        (dict(cell="gru", steps=3), 3, 3, False, "same"),  # three words, stopped by the step limit
        (dict(cell="gru", steps=5), 3, 5, False, "differ"),
        (dict(bidirectional=True), 3, None, None, "pending"),  # no hand-off, no decoding
    ],
)
def test_output_length_is_free_of_the_source_length(kwargs, S, T, ended, case):
    """The page opens with seq2seq's point in this run's own lengths; the case selects its sentence."""
    result = run(Seq2SeqConfig(**kwargs))
    assert len(result.encoder.tokens) == S and result.lengths_case == case
    if T is None:
        assert result.decoding is None
        return
    dec = result.decoding
    assert len(dec.words) == T and dec.ended == ended
    assert dec.words == tuple(w for w in dec.output if w != "<eos>")
    assert len(dec.steps) == T + ended  # one step per word, plus the step that chose <eos>


def test_editing_one_word_leaves_other_words_and_weights_alone():
    a, b = Seq2SeqConfig(source=("나는", "책을", "읽는다")), Seq2SeqConfig(source=("너는", "책을", "읽는다"))
    ea, eb = encode(a), encode(b)
    assert torch.equal(ea.embedded[0, 1:], eb.embedded[0, 1:])
    assert not torch.equal(ea.embedded[0, 0], eb.embedded[0, 0])
    wa, wb = build_encoder(a).rnn.state_dict(), build_encoder(b).rnn.state_dict()
    assert all(torch.equal(wa[k], wb[k]) for k in wa)


def test_packed_bottleneck_equals_one_sentence_at_a_time():
    config = Seq2SeqConfig(bidirectional=True, enc_layers=2, bridge="linear")
    b = bottleneck(config, max_length=7)
    encoder = build_encoder(config)
    stoi = {tok: i for i, tok in enumerate(config.itos)}
    for n in (1, 4, 7):
        words = cycled(config.source, n)
        with torch.no_grad():
            h = encoder(torch.tensor([[stoi[w] for w in words]]))[1][0][-2:, 0]  # (K, H)
            h_first = encoder(torch.tensor([[stoi[w] for w in [config.replacement] + words[1:]]]))[1][0][-2:, 0]
        assert torch.allclose((h_first - h).norm(dim=-1), b.delta_first[:, n - 1])
        assert torch.allclose(h.norm(dim=-1), b.norm[:, n - 1])


@pytest.mark.parametrize("cell", ["lstm", "gru"])
def test_bottleneck_early_word_fades_in_the_forward_direction(cell):
    """Measured on the default seeded model: the first word's trace in h_S shrinks as the sentence grows."""
    b = bottleneck(Seq2SeqConfig(cell=cell, bidirectional=True, bridge="linear"))
    forward_first, backward_first = b.delta_first[0], b.delta_first[1]
    assert forward_first[0] > 0
    assert forward_first[-1] < forward_first[2] / 100  # 24 words vs the 3 typed
    assert backward_first[-1] > 100 * forward_first[-1]  # the backward direction read word 1 last
    assert b.delta_last[0, -1] > 100 * forward_first[-1]  # a late word is still visible
    assert torch.equal(b.delta_first[:, 0], b.delta_last[:, 0])  # one word: first = last


@pytest.mark.parametrize(
    "kwargs",
    [dict(), dict(cell="gru"), dict(bidirectional=True, enc_layers=2, bridge="linear"), dict(enc_hidden=3, seed=4)],
)
def test_the_bottleneck_is_the_hand_offs_fixed_size(kwargs):
    """The number of values the decoder receives is h_n's (and c_n's) size, the same for 1 word and 12."""
    b = bottleneck(Seq2SeqConfig(**kwargs))
    for words in (("a",), tuple("abcdefghijkl")):
        enc = encode(Seq2SeqConfig(source=words, **kwargs))
        size = enc.h_n.numel() + (0 if enc.c_n is None else enc.c_n.numel())
        assert b.handoff_numbers == size
    assert bottleneck_summary(b).handoff_numbers == b.handoff_numbers


@pytest.mark.parametrize("cell", ["lstm", "gru"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_measured_fading_is_per_word_contraction(cell, seed):
    """The page calls the fading forgetting in contracting dynamics, with the live factor per word:
    per_word = (long / short)^(1 / (N - n)) < 1 for these untrained seeds, and the quiz band follows the ratio."""
    m = bottleneck_summary(bottleneck(Seq2SeqConfig(cell=cell, seed=seed)))
    assert (m.n, m.N) == (3, 24)
    assert m.per_word == pytest.approx((m.long / m.short) ** (1 / 21))
    assert m.fades and m.per_word < 1
    assert m.band == ("less" if m.ratio < 0.5 else "more" if m.ratio > 2 else "same")


def test_a_growing_trace_is_not_called_forgetting():
    """The condition, not a constant: a trace that grows with length gives fades = False and band 'more'; the
    replacement equal to the first word gives no factor at all."""
    grow = torch.tensor([[10.0**k for k in range(24)]], dtype=torch.float64) * 1e-20  # (K, N) growing
    b = Bottleneck(tuple(range(1, 25)), grow, grow, grow, 3, "나는", "그는", 6)
    m = bottleneck_summary(b)
    assert m.per_word == pytest.approx(10.0) and not m.fades and m.band == "more"
    same = bottleneck(Seq2SeqConfig(replacement="나는"))
    assert bottleneck_summary(same).per_word is None and not bottleneck_summary(same).fades


@pytest.mark.parametrize(
    "source, kwargs, key, field",
    [
        ("", {}, "errors.empty_text", "source"),
        ("   ", {}, "errors.empty_text", "source"),
        ("<pad> <pad>", {}, "errors.all_pad", "source"),
        (" ".join(["a"] * 13), {}, "errors.too_many_tokens", "source"),
        ("a" * 401, {}, "errors.text_too_long", "source"),
        ("a b", dict(enc_hidden=17), "errors.out_of_range", "enc_hidden"),
        ("a b", dict(dec_hidden=0), "errors.out_of_range", "dec_hidden"),
        ("a b", dict(enc_layers=5), "errors.out_of_range", "enc_layers"),
        ("a b", dict(dec_layers="2.5"), "errors.not_an_integer", "dec_layers"),
        ("a b", dict(embed=99), "errors.out_of_range", "embed"),
        ("a b", dict(steps=17), "errors.out_of_range", "steps"),
        ("a b", dict(top_k=9), "errors.out_of_range", "top_k"),
        ("a b", dict(seed=-3), "errors.out_of_range", "seed"),
        ("a b", dict(cell="rnn"), "errors.bad_choice", "cell"),
        ("a b", dict(bridge="magic"), "errors.bad_choice", "bridge"),
        ("a b", dict(bidirectional="maybe"), "errors.bad_choice", "bidirectional"),
        ("a b", dict(replacement="two words"), "seq2seq.error.one_word", "replacement"),
        ("a b", dict(replacement=""), "errors.empty_text", "replacement"),
    ],
)
def test_bad_input_gets_a_named_message(source, kwargs, key, field):
    with pytest.raises(InputError) as err:
        parse_config(source, **kwargs)
    assert err.value.key == key
    assert err.value.field == f"seq2seq.field.{field}"


def test_the_fields_hold_the_page_defaults():
    """The field specs are the one declaration: their defaults are the config's, per language where they follow it,
    and each one's label is the field a message names."""
    for lang in ("ko", "en"):  # one Korean sentence in both languages: the trained model translates Korean
        config = parse_config(fields.SOURCE.default, model=fields.MODEL.default, replacement=fields.REPLACEMENT.default)
        assert config == default_config(lang)
    assert Seq2SeqConfig() == default_config("ko") and Seq2SeqConfig().model == "trained"
    assert parse_config(fields.SOURCE.default) == default_config(model="untrained")  # the seeded model's T = 5
    assert fields.TAB.options[0] == "encoder"
    assert fields.STEPS.hi == fields.STEP.hi  # the picture's step never outruns the decoding's cap
    assert parse_replacement("  She ") == "She"
    for word, key in (
        ("two words", "seq2seq.error.one_word"),
        ("", "errors.empty_text"),
        ("a" * 31, "errors.text_too_long"),
    ):
        with pytest.raises(InputError) as err:
            parse_replacement(word)
        assert (err.value.key, err.value.field) == (key, fields.REPLACEMENT.label)


def test_url_strings_are_accepted():
    config = parse_config(" I  read a book ", enc_hidden="8", bidirectional="true", steps="3.0")
    assert config.source == ("I", "read", "a", "book") and config.enc_hidden == 8 and config.bidirectional
    assert config.steps == 3


@settings(max_examples=30, deadline=None)
@given(
    st.text(alphabet="ab <pad>나", max_size=30),
    st.sampled_from(["lstm", "gru", "x"]),
    st.integers(0, 5),
    st.booleans(),
    st.integers(0, 5),
    st.integers(0, 3),
    st.sampled_from(["none", "linear"]),
    st.text(alphabet="ab c", max_size=4),
)
def test_any_input_gives_a_result_or_an_input_error(source, cell, L_e, bi, L_d, H_d, bridge, rep):
    try:
        config = parse_config(
            source,
            cell=cell,
            enc_layers=L_e,
            bidirectional=bi,
            dec_layers=L_d,
            dec_hidden=H_d,
            enc_hidden=3,
            embed=2,
            bridge=bridge,
            replacement=rep,
            steps=2,
        )
    except InputError:
        return
    result = run(config)
    assert (result.error is None) == (result.decoding is not None)
    assert torch.isfinite(result.bottleneck.delta_first).all()


# Exactly the words the page hands the charts (the top-k chart's title names its step: the page adds it).
LABELS = {k: k for k in (*CHART_LABELS, *TOPK_LABELS, "title")}


@pytest.mark.parametrize(
    "config",
    [
        Seq2SeqConfig(),
        Seq2SeqConfig(cell="gru", bidirectional=True, enc_layers=2, bridge="linear"),
        Seq2SeqConfig(bidirectional=True),  # no bridge: no decoding chart
    ],
)
def test_every_chart_is_valid_vega_lite(config):
    from s2s_core.seq2seq.charts import page_charts, topk_chart
    from s2s_core.seq2seq.frames import topk_frame

    result = run(config)
    charts = page_charts(result, config.directions, config.enc_layers, LABELS)
    assert ("states" in charts) == (result.decoding is not None) and ("c_n" in charts) == (config.cell == "lstm")
    for chart in charts.values():
        chart.to_dict()  # validates against the Vega-Lite schema (the page skips this for speed)
    if result.decoding is not None:
        topk_chart(topk_frame(result.decoding.steps[0]), LABELS).to_dict()
    param = None if result.decoding is None else step_param("step_sel", len(result.decoding.steps), 1, "step")
    model_picture(picture_frames(result, config.directions, before=result), PICTURE_LABELS, param).to_dict()


PICTURE_LABELS = {k: k for k in (*WORDS, "title", "description")}  # the words the page hands the picture


def test_the_picture_is_both_chains_with_the_hand_off_as_their_waist():
    """Without a bridge the waist's h0 is the encoder's last state; each decoder column is that step's h_new,
    under its input word and below the word it chose; every square is the live tensor's number."""
    config = default_config("en", "untrained")
    result = run(config)
    frames = picture_frames(result, config.directions)
    cells, tokens = frames.cells, frames.tokens
    enc = cells[cells["part"] == "encoder"]
    assert list(dict.fromkeys(enc["where"])) == ["1 나는", "2 책을", "3 읽는다"]
    for s in range(3):
        assert enc[enc["x"] == s]["value"].tolist() == result.encoder.outputs[0, s].tolist()
    waist = cells[cells["part"] == "handoff"]
    assert waist["value"].tolist() == result.handoff.h0[-1, 0].tolist() == enc[enc["x"] == 2]["value"].tolist()
    assert cells[cells["part"] == "cell"]["value"].tolist() == result.handoff.c0[-1, 0].tolist()  # LSTM: c0 too
    dec = result.decoding
    for t, step in enumerate(dec.steps):
        column = cells[(cells["part"] == "decoder") & (cells["step"] == t + 1)]
        assert column["value"].tolist() == step.h_new.tolist()
        words = tokens[tokens["step"] == t + 1].set_index("role")["text"]
        assert (words["in"], words["out"]) == (step.input_token, step.chosen)
    assert frames.bridge.empty and frames.before.empty
    # The waist is narrower than either chain's outline: the band pinches to the states there.
    band = frames.band.assign(span=frames.band["y2"] - frames.band["y"])
    assert band["span"].min() < band["span"].max()


def test_the_bridge_is_a_block_on_the_hand_off_and_an_edit_keeps_the_old_words():
    config = replace(default_config("en", "untrained"), cell="gru", bidirectional=True, bridge="linear", dec_layers=2)
    result, old = run(config), run(default_config("en", "untrained"))
    frames = picture_frames(result, config.directions, before=old)
    waist = frames.cells[frames.cells["part"] == "handoff"]
    assert len(frames.bridge) == 1 and float(frames.bridge["x"].iloc[0]) < float(waist["x"].iloc[0])
    assert waist["value"].tolist() == result.handoff.h0[-1, 0].tolist()  # what the bridge made, top layer
    assert frames.rows == 12  # a bidirectional encoder's states are 2·H_e tall
    assert frames.before["text"].tolist() == [s.chosen for s in old.decoding.steps]


def test_every_language_opens_on_the_korean_sentence_the_trained_model_knows():
    """English too: the Translation lab's direction is Korean -> English, and the sentence is the toy grammar's."""
    assert default_config("ko") == default_config("en") == Seq2SeqConfig()  # the study note's Korean example
    assert default_config("en").source == ("나는", "책을", "읽는다") and default_config("en").replacement == "그는"
    assert translate(list(default_config("en").source)) is not None
    assert all(w in KO_VOCAB for w in (*default_config().source, default_config().replacement))
    assert bottleneck_summary(run(default_config("en")).bottleneck).band is not None  # the question is asked


def test_the_step_text_writes_a_state_short():
    """The first four components at the picture's two decimals, '…' when more follow; never '-0'."""
    assert brief(torch.tensor([0.0444, -0.1671, 0.1857, 0.1811, -0.075, 0.0104])) == "[0.04, -0.17, 0.19, 0.18, …]"
    assert brief(torch.tensor([-0.001, 0.5])) == "[0, 0.5]"


def test_faded_steps_write_their_text_in_the_theme_colour_and_narrow_squares_keep_short_numbers():
    """A faded decoder step's digits use the theme's text colour (a faded black digit vanished on the dark theme),
    and every word always does (a role colour is under 4.5:1 on one of the two backgrounds); a square from
    SHORT_NUMBER_PX wide prints its number without the leading 0."""
    config = default_config("en", "untrained")
    result = run(config)
    param = step_param("step_sel", len(result.decoding.steps), 1, "step")
    spec = model_picture(picture_frames(result, config.directions), PICTURE_LABELS, param).to_dict()
    texts = [layer for layer in spec["layer"] if layer["mark"]["type"] == "text"]
    numbers = next(layer for layer in texts if layer["encoding"]["text"]["field"] == "label")
    faded = numbers["encoding"]["color"]["condition"][0]
    assert faded["value"] == "currentColor" and faded["test"]["not"]["or"][0] == {"param": "step_sel"}
    assert f">= {SHORT_NUMBER_PX}" in numbers["transform"][0]["filter"]
    # Every other word (inputs, chosen words, the chains' and the waist's names) is text on the page: the theme's
    # colour, on every step (no role colour keeps 4.5:1 on both backgrounds: issue 25).
    others = [layer for layer in texts if layer is not numbers]
    assert len(others) == 5 and all(layer["mark"]["color"] == "currentColor" for layer in others), others
    assert all("color" not in layer["encoding"] for layer in others)


def test_every_word_the_page_hands_a_chart_is_in_both_catalogs():
    """The label tuples next to the builders are what the page looks up (s2s_ui/seq2seq/specs.py): each one exists."""
    from s2s_core.catalog import LANGS, load_catalog

    for lang in LANGS:
        catalog = load_catalog(lang)
        wanted = [f"seq2seq.chart.{k}" for k in (*CHART_LABELS, *TOPK_LABELS, "topk_title")]
        wanted += [f"seq2seq.picture.{k}" for k in WORDS]
        assert [k for k in wanted if k not in catalog] == [], lang


# --- the trained model (the Translation lab's default; here its architecture with seeded weights, so the tests
# need no training: the hand step is checked against the module's own, whatever the weights) ----------------------

CELL_KINDS = ("gru", "lstm", "rnn")
ATTENTIONS = ("luong_general", "luong_dot", "bahdanau", "none")


def seeded_lab_model(cell: str, attention: str, seed: int = 0):
    config = replace(TRAINED, cell=cell, attention=attention, hidden=8, embed=6, seed=seed)
    return config, new_model(config, torch.Generator().manual_seed(seed)).eval()


@pytest.mark.parametrize("cell, attention", list(itertools.product(CELL_KINDS, ATTENTIONS)))
def test_a_decoder_step_by_hand_equals_the_modules_own_step(cell, attention):
    """The page's decoding step (embedding, the cell's own equations, attention, output layer) == decoder.step:
    the word scores, the new state and the attention weights, over several steps of greedy decoding."""
    _, model = seeded_lab_model(cell, attention)
    _, memory, state = encode_trained(model, ("그녀는", "어제", "학교에서", "사과를", "먹었다"))
    token = torch.tensor([1])  # <sos>
    with torch.no_grad():
        for _ in range(4):
            mine = hand_step(model, token, state, memory)
            logits, own_state, own_weights, _ = model.decoder.step(token, state, memory)
            assert torch.allclose(mine.logits, logits, atol=1e-6)
            pairs = zip(mine.state, own_state, strict=True) if cell == "lstm" else [(mine.state, own_state)]
            assert all(torch.allclose(a, b, atol=1e-6) for a, b in pairs)
            assert (mine.weights is None) == (own_weights is None) == (attention == "none")
            if own_weights is not None:
                assert torch.allclose(mine.weights, own_weights, atol=1e-6)
            state, token = mine.state, logits.argmax(dim=-1)


@pytest.mark.parametrize("attention", ["luong_general", "bahdanau", "none"])
def test_the_pages_trained_decoding_is_the_models_greedy_decoding(attention):
    """Hand-stepped from <sos> the page writes what Seq2Seq.greedy writes, with its weights, and says which
    check it ran; the encoder's final state is the decoder's h0, as the hand-off shows."""
    train_config, model = seeded_lab_model("gru", attention, seed=3)
    config = parse_config("그녀는 어제 학교에서 사과를 먹었다", model="trained", steps=6)
    result = run_trained(config, train_config, model.state_dict())
    src = torch.tensor([[list(model_vocab()).index(w) for w in config.source]])
    greedy = model.greedy(src, torch.tensor([5]), max_steps=6)
    chosen = [s.chosen for s in result.decoding.steps]
    assert chosen == [target_word(i) for i in greedy["preds"][0, : len(chosen)].tolist()]
    if attention != "none":
        weights = torch.stack([s.weights for s in result.decoding.steps])  # (T, S)
        assert torch.allclose(weights, greedy["weights"][0, : len(chosen)], atol=1e-6)
    assert result.decoding.check == "by_hand" and result.decoding.one_call_diff < 1e-5
    assert torch.equal(result.handoff.h0, result.encoder.h_n) and result.reads_every_state == (attention != "none")
    assert result.model == "trained" and result.output_case in ("matches", "differs")  # never "arbitrary"


def model_vocab():
    from s2s_core.training.tasks import source_vocab

    return source_vocab(KO_EN)


def target_word(i: int) -> str:
    from s2s_core.training.tasks import target_vocab

    return target_vocab(KO_EN)[i]


def test_a_word_outside_the_trained_vocabulary_is_named_with_its_field():
    """The trained model reads only the toy grammar's words: the source and the replacement word are checked
    against them (the untrained model takes any word)."""
    with pytest.raises(InputError) as err:
        parse_config("나는 고양이를 본다", model="trained")
    assert (err.value.key, err.value.field) == ("seq2seq.error.unknown_words", "seq2seq.field.source")
    assert "고양이를" in err.value.params["words"]
    with pytest.raises(InputError) as err:
        parse_config("나는 책을 읽는다", model="trained", replacement="고양이")
    assert err.value.field == "seq2seq.field.replacement"
    assert parse_config("나는 고양이를 본다", model="untrained").source == ("나는", "고양이를", "본다")


def _summary(per_word: float | None) -> BottleneckSummary:
    return BottleneckSummary(3, 24, 1.0, 0.5, 0.5, per_word, 1.0, None, 12)


def test_what_the_page_says_is_chosen_by_the_model_on_screen():
    """The old page said 'untrained, the words are arbitrary', 'attention removes the limit', 'a plain
    encoder-decoder hands over only h_n' and 'with random weights the final state forgets early words' whatever
    model and measurement were on screen; each sentence is now chosen by the result."""
    untrained = run(default_config("en", "untrained"))
    train_config, model = seeded_lab_model("gru", "luong_general")
    trained = run_trained(default_config("en"), train_config, model.state_dict())
    assert untrained.output_case == "arbitrary" and trained.output_case != "arbitrary"
    assert notes.bottleneck_attention(untrained) == "seq2seq.bn_attention"
    assert notes.bottleneck_attention(trained) == "seq2seq.bn_attention_model"  # the old page: bn_attention
    assert notes.bottleneck_intro(trained) == "seq2seq.bn_intro_attention_gru"
    assert notes.bottleneck_intro(untrained) == "seq2seq.bn_intro_lstm"
    assert notes.forgetting(trained, _summary(0.9)) == "seq2seq.bn_forgetting_trained"
    assert notes.forgetting(untrained, _summary(1.1)) == "seq2seq.bn_no_forgetting"
    assert notes.quiz_explain(trained) == "seq2seq.quiz_explain_trained"
    keys = [k for k, _ in notes.notices(trained, _summary(1.1), revealed=True)]
    assert keys == [
        "seq2seq.notice_1_attention",
        "seq2seq.notice_2_attention",
        "seq2seq.notice_3_trained",
        "seq2seq.notice_4_keeps",  # the old notice_4 said the line drops, also when it does not
    ]
    assert [k for k, _ in notes.notices(untrained, _summary(0.9), revealed=False)] == [
        f"seq2seq.notice_{i}" for i in (1, 2, 3)
    ]
    # A trained model without attention (the lab's twin) has the plain hand-off's sentences.
    twin_config, twin = seeded_lab_model("gru", "none")
    plain = run_trained(default_config("en"), twin_config, twin.state_dict())
    assert notes.bottleneck_attention(plain) == "seq2seq.bn_attention" and not plain.reads_every_state


def test_attention_reduces_the_bottleneck_it_does_not_remove_it():
    """§2: attention lets the decoder read every encoder state, but its own state is still one vector."""
    for key in ("seq2seq.bn_attention", "seq2seq.bn_attention_model"):
        text = catalog_text("en", key, size=12, n=3, N=24, H=6, attention="Luong general")
        assert "reduces" in text and "removes the limit" not in text and "does not remove" in text
        assert "없앱니다" not in catalog_text("ko", key, size=12, n=3, N=24, H=6, attention="Luong")


def test_the_picture_of_a_model_with_attention_draws_where_each_step_looks():
    """Purple arcs from each decoder step to every source word, their weights the step's own; the title says the
    decoder looks back (the waist alone is not all it gets); a 64-component state draws its first MAX_ROWS."""
    from s2s_core.seq2seq.picture import MAX_ROWS, titles

    train_config, model = seeded_lab_model("gru", "luong_general")
    train_config = replace(train_config, hidden=64)
    model = new_model(train_config, torch.Generator().manual_seed(1)).eval()
    result = run_trained(default_config("en"), train_config, model.state_dict())
    frames = picture_frames(result, 1)
    assert frames.cut and frames.rows == MAX_ROWS and frames.components == 64
    arcs = frames.arcs
    for t, step in enumerate(result.decoding.steps):
        mine = arcs[(arcs["step"] == t + 1) & (arcs["order"] == 0)].sort_values("x")
        assert mine["weight"].tolist() == step.weights.tolist()
    assert titles(frames) == ("title_attention", "description_attention")
    assert titles(picture_frames(run(default_config("en", "untrained")), 1)) == ("title", "description")
    param = step_param("step_sel", len(result.decoding.steps), 1, "step")
    model_picture(frames, PICTURE_LABELS | {"weight": "w"}, param).to_dict()  # valid Vega-Lite


def test_every_ordinal_axis_has_an_explicit_order_and_the_value_scale_is_the_shared_one():
    """§1/§3: heatmap rows and columns and the top-k words in the order the learner reads them (Vega's own order
    scrambled them after an edit); the colours are chartkit.VALUE_SCALE, whose ends the picture's words name."""
    result = run(replace(default_config("en", "untrained"), enc_layers=2, bidirectional=True, bridge="linear"))
    frame = final_state_frame(result.encoder.h_n, 2, 2)
    spec = heatmap(frame, "t", "x", "y").to_dict()
    encoding = spec["layer"][0]["encoding"]
    assert encoding["y"]["sort"] == ["L1→", "L1←", "L2→", "L2←"]
    assert encoding["x"]["sort"] == [f"h{i}" for i in range(1, 7)]
    assert encoding["color"]["scale"] == VALUE_SCALE.to_dict()
    step = result.decoding.steps[0]
    top = topk_chart(topk_frame(step), {"p": "p", "token": "w", "title": "t"}).to_dict()
    assert top["encoding"]["y"]["sort"] == [w for w, _ in step.top]
    picture = model_picture(picture_frames(result, 2), PICTURE_LABELS, None).to_dict()
    squares = next(
        layer
        for layer in picture["layer"]
        if layer["mark"].get("type") == "rect"
        and "color" in layer["encoding"]
        and layer["encoding"]["color"].get("field") == "value"
    )
    assert squares["encoding"]["color"]["scale"] == VALUE_SCALE.to_dict()
    assert colour_ends(VALUE_SCALE) == ("blue", "red")  # what the description's "−1 {low} to 1 {high}" says
