"""The encoder–decoder page's lesson claims: each holds on the state its lessons use and fails on another; a
state on the trained model (a server job, not a pure computation) holds no claim."""

from __future__ import annotations

from s2s_core.lessons import LinkState
from s2s_core.lessons.claims import evaluate
from s2s_core.seq2seq import parse_config, run
from s2s_core.seq2seq.claims import config_of
from s2s_core.seq2seq.fields import FIELDS
from s2s_core.seq2seq.frames import brief

U = {"seq2seq_model": "untrained"}
TWO_LAYERS = {**U, "seq2seq_dec_layers": "2"}


def claim(name: str, params: dict[str, str], lang: str = "en", **args):
    return evaluate(name, args, FIELDS, params, lang)


def test_a_state_is_read_as_the_page_reads_its_controls():
    """The untrained model's own T when the link leaves the steps out; a bad replacement word measures with the
    default one, as the page does."""
    assert config_of(LinkState(FIELDS, U, "ko")) == parse_config("나는 책을 읽는다", model="untrained")
    assert config_of(LinkState(FIELDS, U)).steps == 5
    assert config_of(LinkState(FIELDS, {})).steps == 16  # the trained model's T
    bad = config_of(LinkState(FIELDS, {**U, "seq2seq_replacement": "two words", "seq2seq_steps": "3"}))
    assert bad.replacement == "그는" and bad.steps == 3


def test_no_claim_holds_on_the_trained_model():
    for name, args in [("seq2seq:handoff", {}), ("seq2seq:handoff_fits", {}), ("seq2seq:bottleneck", {})]:
        assert not claim(name, {}, **args).holds


def test_handoff_is_the_encoders_final_state_and_the_first_h_before():
    result = claim("seq2seq:handoff", U, "ko")
    enc = run(config_of(LinkState(FIELDS, U))).encoder
    assert result.holds and result.values["h0"] == brief(enc.h_n[-1, 0]) and result.shown == (result.values["h0"],)
    assert not claim("seq2seq:handoff", TWO_LAYERS).holds  # nothing is handed over
    assert not claim("seq2seq:handoff", {**TWO_LAYERS, "seq2seq_bridge": "linear"}).holds  # made by the bridge


def test_feeds_back_reads_the_word_chosen_before():
    result = claim("seq2seq:feeds_back", {**U, "seq2seq_step": "2"}, step=2)
    assert result.holds and result.values["word"] == "책을" and result.values["T"] == "1"
    assert result.shown == (f"‖Δh‖ = {result.values['change']}",)
    assert not claim("seq2seq:feeds_back", U, step=1).holds  # step 1 reads <sos>: nothing chosen before it
    assert not claim("seq2seq:feeds_back", U, step=9).holds  # past the decoded steps


def test_handoff_fits_only_when_the_shapes_agree_or_a_bridge_makes_them():
    fails = claim("seq2seq:handoff_fits", TWO_LAYERS, fits=False)
    assert fails.holds and fails.answer == "fails" and fails.values == {"enc": "(1, 1, 6)", "dec": "(2, 1, 6)"}
    assert not claim("seq2seq:handoff_fits", TWO_LAYERS, fits=True).holds
    assert claim("seq2seq:handoff_fits", U).answer == "runs"
    assert claim("seq2seq:handoff_fits", {**TWO_LAYERS, "seq2seq_bridge": "linear"}).answer == "runs"


def test_bridge_makes_the_decoders_shape():
    params = {**TWO_LAYERS, "seq2seq_bridge": "linear"}
    result = claim("seq2seq:bridge", params)
    assert result.holds
    assert (result.values["flat"], result.values["out"], result.values["dec"]) == ("6", "12", "(2, 1, 6)")
    h0 = run(config_of(LinkState(FIELDS, params))).handoff.h0  # (L_d, B, H_d)
    assert result.values["h0"] == brief(h0[-1, 0]) and bool((h0.abs() < 1).all())  # tanh keeps it in (-1, 1)
    assert not claim("seq2seq:bridge", U).holds  # no bridge: the state passes as is


def test_bottleneck_is_the_same_size_at_every_length_and_the_first_word_fades():
    lstm = claim("seq2seq:bottleneck", {**U, "seq2seq_tabs": "bottleneck"}, fades=True)
    assert lstm.holds and lstm.answer == "less"
    assert (lstm.values["size"], lstm.values["formula"], lstm.values["N"]) == ("12", "1·1·6", "24")
    assert float(lstm.values["long"]) < float(lstm.values["short"])
    assert not claim("seq2seq:bottleneck", U, fades=False).holds
    gru = claim("seq2seq:bottleneck", {**U, "seq2seq_cell": "gru", "seq2seq_bidir": "true"})
    assert gru.values["size"] == "12" and gru.values["formula"] == "1·2·6"  # h_n only, two directions
    # The replacement is the first word itself: nothing changes, nothing to measure.
    assert not claim("seq2seq:bottleneck", {**U, "seq2seq_replacement": "나는"}).holds
