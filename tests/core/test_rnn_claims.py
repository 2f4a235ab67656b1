"""The RNN page's lesson claims (s2s_core/rnn/claims.py): each holds on a state where the page shows it, and does
not hold on a state (or with an expectation) where the page shows something else."""

from __future__ import annotations

import pytest

from s2s_core.lessons import page_fields
from s2s_core.lessons.claims import LinkState, evaluate
from s2s_core.rnn import seeded_weights
from s2s_core.rnn.claims import config_of

FIELDS = page_fields()["rnn"]
LANGS = ("en", "ko")
ZEROS = ";".join(["0,0,0,0"] * 4)  # W_h of the default sizes, H = 4
NO_MEMORY = {"rnn_edit": "true", "rnn_w_h_4x3": ZEROS}


def _eval(name: str, params: dict[str, str], lang: str, **args):
    return evaluate(name, args, FIELDS, params, lang)


def test_config_of_reads_the_link_as_the_page_does():
    assert config_of(LinkState(FIELDS, {}, "ko")).tokens == ("나는", "책을", "읽는다")
    seeded = config_of(LinkState(FIELDS, {"rnn_H": "2", "rnn_E": "2"}, "en"))
    assert (seeded.H, seeded.E, seeded.W_h) == (2, 2, None)  # editing off: the seeded weights, exactly
    # Editing on: a typed table of the current shape, the others as the page's tables show the seeded ones (4 dp).
    edited = config_of(LinkState(FIELDS, NO_MEMORY, "en"))
    assert edited.W_h == ((0.0,) * 4,) * 4
    assert edited.W_x == tuple(tuple(round(v, 4) for v in row) for row in seeded_weights(3, 4, 0).W_x.tolist())
    # A table of another shape is not in effect (the page drops it from the link).
    assert config_of(LinkState(FIELDS, {"rnn_edit": "true", "rnn_w_h_2x2": "0,0;0,0"}, "en")).W_h != edited.W_h


@pytest.mark.parametrize("lang", LANGS)
def test_carried_is_zero_at_step_one_and_not_later_unless_w_h_is_zero(lang):
    first = _eval("rnn:carried", {}, lang, step=1, zero=True)
    assert first.holds and first.values["h_prev"] == "[0, 0, 0, 0]" and first.shown[0] == "W_h·h0 = [0, 0, 0, 0]"
    assert not _eval("rnn:carried", {}, lang, step=1, zero=False).holds
    third = _eval("rnn:carried", {"rnn_step": "3"}, lang, step=3, zero=False)
    assert third.holds and third.shown[0].startswith("W_h·h2 = [")
    assert not _eval("rnn:carried", {}, lang, step=3, zero=True).holds
    assert _eval("rnn:carried", NO_MEMORY, lang, step=3, zero=True).holds


def test_carried_clamps_a_step_past_the_end_as_the_slider_does():
    assert _eval("rnn:carried", {"rnn_step": "12"}, "ko", step=12, zero=False).values["t"] == "3"


@pytest.mark.parametrize("lang", LANGS)
def test_shared_counts_the_modules_parameters(lang):
    got = _eval("rnn:shared", {}, lang, parameters=36)
    assert got.holds and got.shown == ("nn.RNN(3, 4)",)
    assert not _eval("rnn:shared", {}, lang, parameters=35).holds
    assert not _eval("rnn:shared", {"rnn_H": "5"}, lang, parameters=36).holds  # 5·3 + 25 + 10 = 50
    assert _eval("rnn:shared", {"rnn_H": "5"}, lang, parameters=50).holds


@pytest.mark.parametrize("lang", LANGS)
def test_first_word_reaches_every_state_unless_w_h_is_zero(lang):
    carried = _eval("rnn:first_word", {}, lang, answer="all")
    assert carried.holds and carried.answer == "all" and carried.values["changed"] == carried.values["S"]
    assert not _eval("rnn:first_word", {}, lang, answer="only_first").holds
    cut = _eval("rnn:first_word", NO_MEMORY, lang, answer="only_first")
    assert cut.holds and cut.answer == "only_first" and cut.values["last"] == "0"
    assert cut.shown == ("W_h·h1 = [0, 0, 0, 0]",)
    assert not _eval("rnn:first_word", NO_MEMORY, lang, answer="all").holds


def test_matches_torch_within_its_tolerance_only():
    got = _eval("rnn:matches_torch", {}, "en", tol=1e-9)
    assert got.holds and got.shown == (got.values["diff"],)
    # The loop and nn.RNN's fused kernel round differently (5.6e-17 here): a tolerance under that does not hold.
    assert float(got.values["diff"]) > 0
    assert not _eval("rnn:matches_torch", {}, "en", tol=float(got.values["diff"]) / 10).holds
