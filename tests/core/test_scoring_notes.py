"""Bahdanau vs Luong: every sentence about the live states is chosen by what these states do (issue 24 §2)."""

from __future__ import annotations

from dataclasses import replace

import torch

from s2s_core.catalog import load_catalog
from s2s_core.scoring.compute import ScoringConfig, compare
from s2s_core.scoring.notes import (
    LOCAL_P_CASE,
    distinct_rows,
    keys_values,
    local_p_case_config,
    local_p_note_key,
    rows_key,
    same_weights,
    sizes_key,
    window_size,
    window_size_key,
)


def test_general_keys_have_the_values_shape_when_the_sizes_agree():
    """The old notice: keys and values differ in shape for every function but dot. At H_d = H_e (the default)
    general's keys W·h_j are (1, S, H_d) = the values' shape; only the A-sized keys of additive and concat differ."""
    result = compare(ScoringConfig())
    kv = keys_values(result)
    general = result.get("general").read
    assert general.keys.shape == general.values.shape and not torch.equal(general.keys, general.values)
    assert kv.same_shape == ("general",)
    assert kv.equal == ("dot", "scaled_dot")
    assert kv.other_shape == (("additive", (1, 5, 3)), ("concat", (1, 5, 3)))
    # With A = H_e every mapped key has the values' shape; with H_d != H_e general's keys differ and dot drops out.
    assert keys_values(compare(ScoringConfig(attn_size=2))).other_shape == ()
    wide = keys_values(compare(ScoringConfig(dec_state=(0.3, 0.2, 0.1))))
    assert wide.equal == () and ("general", (1, 5, 3)) in wide.other_shape


def test_the_sizes_notice_follows_h_d_and_h_e():
    assert sizes_key(ScoringConfig(), typed=True) == "scoring.notice_3"
    assert sizes_key(ScoringConfig(dec_state=(1.0, 2.0, 3.0)), typed=True) == "scoring.notice_3_mismatch"
    assert sizes_key(ScoringConfig(), typed=False) == "scoring.notice_3_encoder"


def test_equal_weight_rows_are_counted_once():
    """s = 0: every dot-product score is 0, so dot, scaled dot and general give one flat row; "five different
    weight rows" would be false."""
    zero = compare(ScoringConfig(dec_state=(0.0, 0.0)))
    assert distinct_rows(zero).scoring == 5 and distinct_rows(zero).distinct == 3
    assert rows_key(zero) == "scoring.notice_1_equal"
    assert rows_key(compare(ScoringConfig())) == "scoring.notice_1"


def test_a_fractional_centre_holds_2d_positions_not_2d_plus_1():
    """The local-p case the page offers (D = 2): p = 2.83 is between positions, so [p - D, p + D] = [0.83, 4.83]
    holds s1 … s4, four positions, not 2D + 1 = 5."""
    config = local_p_case_config()
    assert (config.window, config.half_width) == (LOCAL_P_CASE["scoring_window"], 2)
    assert replace(config, window="global", half_width=1) == ScoringConfig()  # the rest: the page's defaults
    result = compare(config)
    size = window_size(result, 2)
    assert size.fractional and size.n == size.whole == 4 == 2 * 2
    assert int(result.get("additive").read.mask.sum()) == 4  # the mask the weights really use
    assert window_size_key(size) == "scoring.window_size_fractional"
    assert local_p_note_key() == "scoring.try_local_p_note_fractional"


def test_whole_and_cut_windows():
    whole = compare(ScoringConfig(window="local_m", step=3, half_width=1))
    size = window_size(whole, 1)
    assert not size.fractional and size.n == 3 and window_size_key(size) == "scoring.window_size_whole"
    cut = compare(ScoringConfig(window="local_m", step=1, half_width=2))
    size = window_size(cut, 2)
    assert size.whole == 5 and size.n == 3 and window_size_key(size) == "scoring.window_size_cut"
    assert window_size(compare(ScoringConfig()), 1) is None


def test_the_current_state_can_look_where_the_typed_one_looks():
    """ "these weights differ from section 1" is chosen only when they do."""
    assert not same_weights(compare(ScoringConfig(query_from="current", context_into="output")), "additive")
    enc = ((1.0, 1.0),) * 3  # every position the same: every query gives the same flat row
    flat = ScoringConfig(enc_states=enc, query_from="current", context_into="output", focus="dot")
    assert same_weights(compare(flat), "dot")


def test_the_translation_lab_is_not_announced_as_coming_later():
    for lang in ("en", "ko"):
        catalog = load_catalog(lang)
        assert "scoring.flow_translation_later" not in catalog
        assert "{lab}" in catalog["scoring.flow_translation_link"]
    assert "추가될" not in " ".join(v for k, v in load_catalog("ko").items() if k.startswith("scoring."))


def test_the_softmax_sentence_follows_what_the_softmax_did():
    """Near-even scores, a clear lead (its weight ratio is exp(lead)), a shared top, one position in the window:
    each gets its own sentence, with the live numbers; local-p adds that the Gaussian comes after."""
    import math

    from s2s_core.fmt import num
    from s2s_core.scoring.notes import EVEN_SPREAD, softmax_reading

    result = compare(ScoringConfig())
    even = softmax_reading(result.get("additive").read)
    scores = result.get("additive").read.scores[0]
    assert float(scores.max() - scores.min()) < EVEN_SPREAD and even.key == "scoring.softmax_even"
    assert even.numbers["position"] == "s5" and even.numbers["low"] == num(result.get("additive").read.align[0].min())
    read = result.get("dot").read
    peak = softmax_reading(read)
    assert peak.key == "scoring.softmax_peak" and (peak.numbers["position"], peak.numbers["second"]) == ("s3", "s2")
    ratio = float(read.align[0, 2] / read.align[0, 1])
    assert peak.numbers["factor"] == num(ratio) == num(math.exp(float(read.scores[0, 2] - read.scores[0, 1])))
    twins = ScoringConfig(dec_state=(3.0, 2.0), enc_states=((1.0, 1.0), (1.0, 1.0), (0.0, 0.0)))  # scores 5, 5, 0
    tie = softmax_reading(compare(twins).get("dot").read)
    assert tie.key == "scoring.softmax_tie" and tie.numbers["positions"] == "s1, s2"
    one = softmax_reading(compare(ScoringConfig(enc_states=((1.0, 2.0),))).get("dot").read)
    assert one.key == "scoring.softmax_one" and one.numbers["weight"] == "1"
    assert not peak.gauss and softmax_reading(compare(ScoringConfig(window="local_p")).get("dot").read).gauss
    catalogs = [load_catalog(lang) for lang in ("en", "ko")]
    for reading in (even, peak, tie, one):
        for catalog in catalogs:
            catalog[reading.key].format(**reading.numbers)  # every number the sentence names is given
