"""The next-token page's lesson claims (s2s_core/ngram/claims.py): each holds on a state where the page shows it,
and does not hold on a state (or with an expectation) where the page shows something else."""

from __future__ import annotations

import pytest

from s2s_core.lessons import page_fields
from s2s_core.lessons.claims import LinkState, evaluate
from s2s_core.ngram import fields
from s2s_core.ngram.claims import config_of

FIELDS = page_fields()["ngram"]
LANGS = ("en", "ko")


def _eval(name: str, params: dict[str, str], lang: str, **args):
    return evaluate(name, args, FIELDS, params, lang)


def test_config_of_reads_the_link_as_the_page_does():
    state = LinkState(FIELDS, {"ngram_n": "2", "ngram_prefix": "at", "ngram_smooth": "true", "ngram_k": "0.5"}, "en")
    got = config_of(state)
    assert (got.config.n, got.config.smoothing, got.config.k, got.prefix) == (2, True, 0.5, ("at",))
    assert got.sentence == tuple(fields.SENTENCE.default_for("en").split())
    assert config_of(LinkState(FIELDS, {}, "ko")).prefix == ("오늘", "점심에")


@pytest.mark.parametrize("lang", LANGS)
def test_next_bars_add_up_to_one_from_counts_and_less_with_add_k(lang):
    counted = _eval("ngram:next", {}, lang, total=1.0)
    assert counted.holds
    assert counted.shown == (f"{counted.values['count']}/{counted.values['history']} = {counted.values['p']}",)
    assert not _eval("ngram:next", {}, lang, total=0.9).holds
    smoothed = _eval("ngram:next", {"ngram_smooth": "true"}, lang, total=1.0)
    assert not smoothed.holds and float(smoothed.values["total"]) < 1


def test_next_worked_numbers_of_the_english_default():
    got = _eval("ngram:next", {}, "en", total=1.0).values
    assert (got["word"], got["count"], got["history"], got["p"]) == ("we", "4", "6", "0.6667")


@pytest.mark.parametrize("lang", LANGS)
def test_sentence_is_positive_at_n3_and_zero_at_n4_until_smoothing(lang):
    now = _eval("ngram:sentence", {}, lang, zero=False)
    assert now.holds and now.answer == "positive" and now.shown[0].endswith(f"= {now.values['p']}")
    assert not _eval("ngram:sentence", {}, lang, zero=True).holds
    longer = _eval("ngram:sentence", {"ngram_n": "4"}, lang, zero=True)
    assert longer.holds and longer.answer == "zero" and longer.values["zero_count"].startswith("0/")
    assert not _eval("ngram:sentence", {"ngram_n": "4"}, lang, zero=False).holds
    assert _eval("ngram:sentence", {"ngram_n": "4", "ngram_smooth": "true"}, lang, zero=False).holds


def test_sentence_quotes_the_zero_factor_of_the_english_default():
    got = _eval("ngram:sentence", {"ngram_n": "4"}, "en", zero=True).values
    assert (got["zero_word"], got["zero_history"], got["p"]) == ("we", "yesterday at lunch", "0")


@pytest.mark.parametrize("lang", LANGS)
def test_unseen_n_grams_appear_only_at_the_longest_window(lang):
    at4 = _eval("ngram:unseen", {"ngram_n": "4"}, lang, n=4, count=1)
    assert at4.holds and at4.values["shorter_unseen"] == "0"
    assert at4.shown[0] == f"1/{at4.values['total']}"
    assert not _eval("ngram:unseen", {}, lang, n=4, count=0).holds
    assert _eval("ngram:unseen", {}, lang, n=3, count=0).holds
    assert not _eval("ngram:unseen", {}, lang, n=3, count=1).holds
