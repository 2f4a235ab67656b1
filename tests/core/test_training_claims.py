"""The Training lab's lesson claims (s2s_core/training/claims.py): each holds on a state where the page shows it,
and does not hold on a state (or with an expectation) where the page shows something else. None of them trains."""

from __future__ import annotations

import pytest

from s2s_core.lessons import page_fields
from s2s_core.lessons.claims import LinkState, evaluate
from s2s_core.training import fields
from s2s_core.training.claims import config_of, source_of
from s2s_core.training.compute import untrained_map
from s2s_core.training.config import TrainConfig

FIELDS = page_fields()["training"]
LANGS = ("en", "ko")


def _eval(name: str, params: dict[str, str], lang: str = "en", **args):
    return evaluate(name, args, FIELDS, params, lang)


def test_config_of_reads_the_link_as_the_page_does():
    assert config_of(LinkState(FIELDS, {}, "ko")) == TrainConfig()
    state = LinkState(FIELDS, {"training_task": "num_en", "training_num_max": "3", "training_tf": "0.25"}, "en")
    config = config_of(state)
    assert (config.task, config.max_len, config.tf_ratio) == ("num_en", 3, 0.25)  # a number task's own lengths
    assert source_of(state, config).tokens == tuple(fields.DEFAULT_SOURCES["number"])  # and its own source box
    with pytest.raises(ValueError):
        config_of(LinkState(FIELDS, {"training_min_len": "9", "training_max_len": "4"}, "en"))


@pytest.mark.parametrize("lang", LANGS)
def test_target_is_the_reverse_written_beside_the_map(lang):
    got = _eval("training:target", {}, lang, expected="70931825")
    assert got.holds and got.shown == ("70931825",)
    assert (got.values["first"], got.values["position"]) == ("7", "s8 · 7")
    assert not _eval("training:target", {}, lang, expected="52813907").holds  # the source itself: not the answer
    copy = _eval("training:target", {"training_task": "copy"}, lang, expected="70931825")
    assert not copy.holds and copy.values["position"] == "s1 · 5"


def test_first_source_is_the_last_column_for_reverse_and_the_first_for_copy():
    got = _eval("training:first_source", {"training_source": "5281390746"}, position="s10")
    assert got.holds and got.answer == "last" and got.shown == ("s10 · 6",)
    copy = _eval("training:first_source", {"training_source": "5281390746", "training_task": "copy"}, position="s10")
    assert not copy.holds and copy.answer == "first"
    ordered = _eval("training:first_source", {"training_task": "sort"}, position="s7")  # 0 stands in s7 of 52813907
    assert ordered.holds and ordered.answer == "inside"
    number = _eval("training:first_source", {"training_task": "num_en"}, position="s1")  # words: no column to copy
    assert not number.holds


@pytest.mark.parametrize("lang", LANGS)
def test_fed_input_is_the_untrained_models_own_guess_at_ratio_0(lang):
    got = _eval("training:fed_input", {"training_tf": "0.0"}, lang, own="5", true="7")
    point = untrained_map(TrainConfig(tf_ratio=0.0), source_of(LinkState(FIELDS, {}, lang), TrainConfig()))
    assert got.holds and got.answer == "own"
    assert got.values["output"] == "".join(t for t in point.output if t != "<eos>")  # what the page shows
    assert got.shown == (got.values["output"], "70931825")
    assert not _eval("training:fed_input", {"training_tf": "0.0"}, lang, own="7", true="7").holds  # wrong guess
    assert _eval("training:fed_input", {}, lang, own="5", true="7").answer == "true"  # ratio 1: teacher forced
    assert _eval("training:fed_input", {"training_tf": "0.5"}, lang, own="5", true="7").answer == "mixed"


def test_no_attention_has_no_map_and_one_vector_of_h_numbers():
    got = _eval("training:no_attention", {"training_attention": "none", "training_hidden": "32"})
    assert got.holds and (got.values["n"], got.values["hidden"]) == ("8", "32")
    assert not _eval("training:no_attention", {}).holds  # Luong attention: a map


def test_pad_columns_get_weight_exactly_zero():
    got = _eval("training:pad_zero", {"training_source": "52813907 <pad> <pad>"})
    assert got.holds and got.shown == ("s9 · <pad>", "s10 · <pad>") and got.values["first_pad"] == "s9"
    assert not _eval("training:pad_zero", {}).holds  # no PAD typed
    assert not _eval("training:pad_zero", {"training_source": "5281 <pad>", "training_attention": "none"}).holds
