"""The padding & masks page's lesson claims: each holds on a state where the page shows it and fails on another,
and `config_of` / the picked sentence read a link state as the page's controls do."""

from __future__ import annotations

import pytest

from s2s_core.lessons import LinkState, evaluate, page_fields
from s2s_core.masks import claims, default_config, parse_config

FIELDS = page_fields()["masks"]
SINGLE = {"masks_rows": "1"}  # one sentence: nothing to pad
EQUAL = {"masks_rows": "2", "masks_src_2": "you read a book", "masks_tgt_2": "tu lis un livre"}  # same lengths: no PAD


def run(name: str, params: dict[str, str], lang: str = "en", **args):
    return evaluate(name, args, FIELDS, params, lang)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_config_of_opens_on_the_batch_of_the_steps_language(lang):
    assert claims.config_of(LinkState(FIELDS, {}, lang)) == default_config(lang)


def test_config_of_reads_rows_sizes_and_leaves_a_bad_pair_out():
    state = LinkState(FIELDS, {"masks_rows": "4", "masks_hidden": "6", "masks_src_2": "<pad>"}, "en")
    config = claims.config_of(state)
    pairs = [("i read a book", "je lis un livre"), ("i had noodles for lunch today", "j'ai mangé des nouilles ce midi")]
    pairs += [("i bought a book", "j'ai acheté un livre")]
    assert config.rows == (1, 3, 4) and config.hidden == 6
    assert config == parse_config([pairs[0], ("<pad>", "merci"), *pairs[1:]], 0, 6, 4, drop_bad=True)


def test_the_picked_sentence_is_the_links_else_the_one_with_the_most_pad():
    config = default_config("en")
    assert claims.picked(LinkState(FIELDS, {}, "en"), config) == 1  # "thanks": the shortest source
    assert claims.picked(LinkState(FIELDS, {"masks_pick": "3"}, "en"), config) == 2
    assert claims.inspected(LinkState(FIELDS, {}, "en"), config) == 1
    assert claims.inspected(LinkState(FIELDS, {"masks_row": "1"}, "en"), config) == 0


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_pad_weight_is_zero_masked_and_not_unmasked_on_the_picked_sentence(lang):
    got = run("masks:pad_weight", {}, lang, row=2)
    assert got.holds and got.values["masked"] == "0" and float(got.values["unmasked"]) > 0
    assert not run("masks:pad_weight", {}, lang, row=1).holds  # the picture shows sentence 2
    assert not run("masks:pad_weight", {"masks_pick": "3"}, lang, row=3).holds  # the longest source: no PAD


def test_divisor_is_the_real_targets_and_needs_pad_to_tell():
    got = run("masks:divisor", {})
    assert got.holds and got.answer == "real"
    assert (got.values["n_words"], got.values["n_real"], got.values["n_total"]) == ("11", "14", "21")
    assert not run("masks:divisor", SINGLE).holds  # no PAD target: real and every position are the same count


def test_loss_counts_pad_unless_no_target_is_padded():
    got = run("masks:loss_counts_pad", {})
    assert got.holds and got.answer == "no" and got.values["diff"].startswith(("+", "-"))
    assert got.values["ignore"] != got.values["all"]
    single = run("masks:loss_counts_pad", SINGLE)
    assert not single.holds and single.answer == "yes" and single.values["diff"] == "0"


def test_nothing_to_mask_only_without_padding():
    assert run("masks:nothing_to_mask", SINGLE).holds
    assert run("masks:nothing_to_mask", EQUAL).holds
    assert not run("masks:nothing_to_mask", {}).holds


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_leak_on_the_inspected_sentence(lang):
    got = run("masks:leak", {"masks_tabs": "attention"}, lang, row=2)
    assert got.holds and float(got.values["leak"]) > 0 and float(got.values["gap"]) > 0
    assert not run("masks:leak", {"masks_row": "3"}, lang, row=3).holds  # the longest source leaks nothing
    assert not run("masks:leak", {}, lang, row=1).holds  # the tab shows sentence 2


def test_all_pad_rejected_names_the_row_and_shows_nan():
    got = run("masks:all_pad_rejected", {"masks_src_2": "<pad>"}, row=2)
    assert got.holds and got.values["rows"] == "1, 3" and got.values["weights"] == "[nan, nan, nan, nan, nan, nan]"
    assert not run("masks:all_pad_rejected", {}, row=2).holds
    assert not run("masks:all_pad_rejected", {"masks_src_2": "<pad>"}, row=1).holds
