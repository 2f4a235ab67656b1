"""Encoder–decoder core: hand-off, bridge shapes, greedy decoding, the measured bottleneck, bad input."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from s2s_core.errors import InputError
from s2s_core.seq2seq import (
    Seq2SeqConfig,
    decode,
    default_config,
    encode,
    fields,
    hand_off,
    parse_config,
    parse_replacement,
    run,
)
from s2s_core.seq2seq.bottleneck import Bottleneck, bottleneck, cycled
from s2s_core.seq2seq.charts import LABELS as CHART_LABELS
from s2s_core.seq2seq.charts import TOPK_LABELS
from s2s_core.seq2seq.compute import build_encoder, state_rows
from s2s_core.seq2seq.frames import bottleneck_summary, brief, state_labels
from s2s_core.seq2seq.modules import Decoder
from s2s_core.seq2seq.picture import SHORT_NUMBER_PX, WORDS, model_picture, picture_frames
from s2s_ui.steps import step_param


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
        ("a b", dict(steps=11), "errors.out_of_range", "steps"),
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
    for lang in ("ko", "en"):
        config = parse_config(fields.SOURCE.default_for(lang), replacement=fields.REPLACEMENT.default_for(lang))
        assert config == default_config(lang)
    assert Seq2SeqConfig() == default_config("ko")
    assert fields.SOURCE.by_lang and fields.REPLACEMENT.by_lang and fields.TAB.options[0] == "encoder"
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


PICTURE_LABELS = {k: k for k in WORDS}  # exactly the words the page hands the picture


def test_the_picture_is_both_chains_with_the_hand_off_as_their_waist():
    """Without a bridge the waist's h0 is the encoder's last state; each decoder column is that step's h_new,
    under its input word and below the word it chose; every square is the live tensor's number."""
    config = default_config("en")
    result = run(config)
    frames = picture_frames(result, config.directions)
    cells, tokens = frames.cells, frames.tokens
    enc = cells[cells["part"] == "encoder"]
    assert list(dict.fromkeys(enc["where"])) == ["1 I", "2 read", "3 a", "4 book"]
    for s in range(4):
        assert enc[enc["x"] == s]["value"].tolist() == result.encoder.outputs[0, s].tolist()
    waist = cells[cells["part"] == "handoff"]
    assert waist["value"].tolist() == result.handoff.h0[-1, 0].tolist() == enc[enc["x"] == 3]["value"].tolist()
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
    config = replace(default_config("en"), cell="gru", bidirectional=True, bridge="linear", dec_layers=2)
    result, old = run(config), run(default_config("en"))
    frames = picture_frames(result, config.directions, before=old)
    waist = frames.cells[frames.cells["part"] == "handoff"]
    assert len(frames.bridge) == 1 and float(frames.bridge["x"].iloc[0]) < float(waist["x"].iloc[0])
    assert waist["value"].tolist() == result.handoff.h0[-1, 0].tolist()  # what the bridge made, top layer
    assert frames.rows == 12  # a bidirectional encoder's states are 2·H_e tall
    assert frames.before["text"].tolist() == [s.chosen for s in old.decoding.steps]


def test_each_language_opens_on_its_own_sentence():
    assert default_config("ko") == Seq2SeqConfig()  # the syllabus's Korean example
    assert default_config("en").source == ("I", "read", "a", "book") and default_config("en").replacement == "She"
    assert bottleneck_summary(run(default_config("en")).bottleneck).band is not None  # the question is asked


def test_the_step_text_writes_a_state_short():
    """The first four components at the picture's two decimals, '…' when more follow; never '-0'."""
    assert brief(torch.tensor([0.0444, -0.1671, 0.1857, 0.1811, -0.075, 0.0104])) == "[0.04, -0.17, 0.19, 0.18, …]"
    assert brief(torch.tensor([-0.001, 0.5])) == "[0, 0.5]"


def test_faded_steps_write_their_text_in_the_theme_colour_and_narrow_squares_keep_short_numbers():
    """A faded decoder step's digits and words use the theme's text colour (a faded role colour or black digit
    vanished on the dark theme); a square from SHORT_NUMBER_PX wide prints its number without the leading 0."""
    config = default_config("en")
    result = run(config)
    param = step_param("step_sel", len(result.decoding.steps), 1, "step")
    spec = model_picture(picture_frames(result, config.directions), PICTURE_LABELS, param).to_dict()
    texts = [layer for layer in spec["layer"] if layer["mark"]["type"] == "text"]
    numbers = next(layer for layer in texts if layer["encoding"]["text"]["field"] == "label")
    faded = numbers["encoding"]["color"]["condition"][0]
    assert faded["value"] == "currentColor" and faded["test"]["not"]["or"][0] == {"param": "step_sel"}
    assert f">= {SHORT_NUMBER_PX}" in numbers["transform"][0]["filter"]
    words = [layer for layer in texts if "currentColor" in str(layer["encoding"].get("color"))]
    assert len(words) == 3  # the digits, the input words and the chosen words


def test_every_word_the_page_hands_a_chart_is_in_both_catalogs():
    """The label tuples next to the builders are what the page looks up (s2s_ui/seq2seq/specs.py): each one exists."""
    from s2s_ui.catalog import LANGS, load_catalog

    for lang in LANGS:
        catalog = load_catalog(lang)
        wanted = [f"seq2seq.chart.{k}" for k in (*CHART_LABELS, *TOPK_LABELS, "topk_title")]
        wanted += [f"seq2seq.picture.{k}" for k in WORDS]
        assert [k for k in wanted if k not in catalog] == [], lang
