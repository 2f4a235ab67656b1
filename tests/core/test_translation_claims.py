"""The Translation lab's lesson claims (s2s_core/translation/claims.py): each holds on a state where the page shows
it, and does not hold on a state (or with an expectation) where the page shows something else. None of them trains."""

from __future__ import annotations

import pytest

from s2s_core.lessons import page_fields
from s2s_core.lessons.claims import LinkState, evaluate
from s2s_core.translation.claims import config_of, source_of
from s2s_core.translation.lab import DEFAULT

FIELDS = page_fields()["translation"]
LANGS = ("en", "ko")
LONG = "그녀는 어제 도서관에서 새 책을 안 읽었다"
STUDY = {"translation_source": "나는 공부 안 했다"}  # a negated 하다 verb: its English verb translates the noun


def _eval(name: str, params: dict[str, str], lang: str = "en", **args):
    return evaluate(name, args, FIELDS, params, lang)


def test_config_of_reads_the_link_as_the_page_does():
    assert config_of(LinkState(FIELDS, {}, "ko")) == DEFAULT
    config = config_of(LinkState(FIELDS, {"translation_attention": "luong_prev", "translation_cell": "rnn"}, "en"))
    assert (config.task, config.attention, config.cell) == ("ko_en", "luong_prev", "rnn")
    source = source_of(LinkState(FIELDS, {"translation_source": "나는 책을 읽는다"}, "en"))
    assert source.tokens == ("나는", "책을", "읽는다")


@pytest.mark.parametrize("lang", LANGS)
def test_crossing_the_verb_reaches_back_to_the_last_column(lang):
    got = _eval("translation:crossing", {}, lang, reference="i read a book in the library")
    assert got.holds and got.shown == ("i read a book in the library", "s4 · 읽었다")
    assert (got.values["verb"], got.values["row"], got.values["ko_verb"]) == ("read", "2", "읽었다")
    assert not _eval("translation:crossing", {}, lang, reference="i read a book").holds
    # A negated 하다 verb: its English verb translates the noun before 안, not the last word: no crossing to the end.
    study = _eval("translation:crossing", STUDY, lang, reference="i did not study")
    assert not study.holds and study.values["column"] == "s2 · 공부"


def test_verb_source_answers_where_the_verbs_column_is():
    got = _eval("translation:verb_source", {}, position="s4")
    assert got.holds and got.answer == "last" and got.shown == ("s4 · 읽었다",)
    assert not _eval("translation:verb_source", {}, position="s2").holds
    study = _eval("translation:verb_source", STUDY, position="s2")
    assert study.holds and study.answer == "inside"


def test_time_word_moves_from_second_in_korean_to_last_in_english():
    got = _eval("translation:time_word", {"translation_source": LONG}, time_en="yesterday")
    assert got.holds and got.values["time_column"] == "s2 · 어제" and got.values["negation"] == "not"
    assert got.shown == ("she did not read a new book in the library yesterday", "s2 · 어제")
    assert not _eval("translation:time_word", {"translation_source": LONG}, time_en="today").holds
    assert not _eval("translation:time_word", {}, time_en="library").holds  # no time word: 도서관에서 is a place


def test_grammar_counts_the_toy_grammars_sentences():
    got = _eval("translation:grammar", {}, n=123816)
    assert got.holds and got.shown == ("123,816",) and got.values["words"] == "106"
    assert not _eval("translation:grammar", {}, n=123815).holds


def test_untrained_map_is_spread_and_its_english_wrong():
    got = _eval("translation:untrained", {"translation_attention": "luong_prev"})
    assert got.holds and float(got.values["largest"]) <= 1.5 * float(got.values["uniform"])
    assert got.shown == (got.values["output"],) and got.values["output"] != "i read a book in the library"
    assert not _eval("translation:untrained", {"translation_attention": "none"}).holds  # no map to be spread


def test_no_attention_has_no_map():
    got = _eval("translation:no_attention", {"translation_attention": "none"})
    assert got.holds and (got.values["n"], got.values["hidden"]) == ("4", "64")
    assert not _eval("translation:no_attention", {}).holds
