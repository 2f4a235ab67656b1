"""The Bahdanau-vs-Luong page's lesson claims: each holds on a state where the page shows it and fails on another
(or on a wrong expectation), and `config_of` reads a link state as the page's controls do."""

from __future__ import annotations

import pytest

from s2s_core.lessons import LinkState, evaluate, page_fields
from s2s_core.scoring import claims
from s2s_core.scoring.compute import parse_config
from s2s_core.scoring.fields import DEFAULT_ENC

FIELDS = page_fields()["scoring"]
WIDE = "2,0,1;0,4,1;6,2,1;1,1,1;3,-1,1"  # a third component on every encoder state: H_e = 3 ≠ H_d = 2


def run(name: str, params: dict[str, str], lang: str = "en", **args):
    return evaluate(name, args, FIELDS, params, lang)


def test_config_of_reads_the_defaults_as_the_page_opens():
    assert claims.config_of(LinkState(FIELDS, {}, "ko")) == parse_config("0.3, 0.2", [list(r) for r in DEFAULT_ENC])


def test_config_of_pads_the_table_to_h_e_as_the_table_widget_does():
    config = claims.config_of(LinkState(FIELDS, {"scoring_he": "3"}, "en"))
    assert config.enc_states == tuple((*r, 0.0) for r in DEFAULT_ENC)
    trimmed = claims.config_of(LinkState(FIELDS, {"scoring_he": "1", "scoring_enc": WIDE}, "en"))
    assert trimmed.enc_states == ((2.0,), (0.0,), (6.0,), (1.0,), (3.0,))


def test_config_of_reads_the_states_off_the_encoder_when_asked():
    typed = claims.config_of(LinkState(FIELDS, {}, "en"))
    read = claims.config_of(LinkState(FIELDS, {"scoring_from": "encoder"}, "en"))
    assert read.enc_states != typed.enc_states and len(read.enc_states) == 4  # "i read a book"


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_peak_names_the_heaviest_position_of_the_function_drawn(lang):
    s3 = {"function": "dot", "position": "s3"}
    got = run("scoring:peak", {"scoring_focus": "dot"}, lang, **s3)
    assert got.holds and got.values["top"] == "2.2" and got.values["weight"] == "0.5393"  # s·h_3 = 0.3·6 + 0.2·2
    assert got.shown[0] == "[0.1089, 0.133, 0.5393, 0.0985, 0.1203]" and got.values["picked"] == "s1"
    assert run("scoring:peak", {"scoring_focus": "dot", "scoring_pos": "9"}, lang, **s3).values["picked"] == "s5"
    assert not run("scoring:peak", {}, lang, function="dot", position="s3").holds  # additive is drawn
    assert not run("scoring:peak", {"scoring_focus": "dot"}, lang, function="dot", position="s5").holds


def test_peak_fails_when_the_focus_cannot_score_and_additive_is_drawn_instead():
    params = {"scoring_focus": "dot", "scoring_he": "3", "scoring_enc": WIDE}
    assert not run("scoring:peak", params, function="dot", position="s3").holds


def test_rows_differ_counts_the_functions_rows():
    got = run("scoring:rows_differ", {"scoring_compare": "true"}, n=5)
    assert got.holds and got.answer == "differ" and got.values == {"n_scoring": "5", "n_rows": "5"}
    assert len(got.shown) == 5  # each function's largest weight, as "compare all" names it
    flat = run("scoring:rows_differ", {"scoring_dec": "0, 0"}, n=5)  # s = 0: the dot-product rows all flat
    assert not flat.holds and flat.answer == "same" and flat.values["n_rows"] == "3"
    assert not run("scoring:rows_differ", {"scoring_he": "3", "scoring_enc": WIDE}, n=5).holds  # only 3 score


def test_sizes_names_the_functions_that_cannot_compare_s_with_h():
    got = run("scoring:sizes", {"scoring_he": "3", "scoring_enc": WIDE}, cannot=["dot", "scaled_dot"])
    assert got.holds and got.answer == "mapped" and got.values == {"H_d": "2", "H_e": "3", "n_scoring": "3"}
    same = run("scoring:sizes", {}, cannot=["dot", "scaled_dot"])
    assert not same.holds and same.answer == "all"


def test_window_keeps_the_positions_around_p_and_zeroes_the_rest():
    params = {"scoring_window": "local_m"}
    got = run("scoring:window", params, positions=["s2", "s3", "s4"])
    assert got.holds and got.values["weights"].startswith("[0, ") and got.values["weights"].endswith(", 0]")
    assert got.values["p"] == "3" and got.values["n_out"] == "2"
    assert not run("scoring:window", params | {"scoring_step": "1"}, positions=["s2", "s3", "s4"]).holds
    assert not run("scoring:window", {}, positions=["s1", "s2", "s3", "s4", "s5"]).holds  # global: no window


def test_keys_values_reads_which_side_the_focus_maps():
    got = run("scoring:keys_values", {}, maps="both")
    assert got.holds and got.values["keys"] == "(1, 5, 3)" and got.values["values"] == "(1, 5, 2)"
    assert run("scoring:keys_values", {"scoring_focus": "general"}, maps="keys").holds
    assert run("scoring:keys_values", {"scoring_focus": "dot"}, maps="none").holds
    assert not run("scoring:keys_values", {"scoring_focus": "dot"}, maps="both").holds
    wide = {"scoring_focus": "dot", "scoring_he": "3", "scoring_enc": WIDE}
    assert not run("scoring:keys_values", wide, maps="none").holds  # dot cannot score: no keys to read
