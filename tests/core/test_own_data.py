"""The learner's own parallel sentences (s2s_core/translation/own_data.py): every bad line named with its number and
why, the rest used; unreadable text refused as a whole with a message naming the field; caps in the core; the
held-out split by distinct target. Hostile text (binary, 10 MB, mismatched columns, right-to-left and zero-width
characters) never raises anything but InputError."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from s2s_core.catalog import translate
from s2s_core.errors import InputError
from s2s_core.translation import own_data as od


def numbered(n: int) -> list[str]:
    return [f"나는 사과 {i} 를 먹었다\tI ate apple {i}" for i in range(n)]


def test_three_hundred_pasted_pairs_are_all_used_in_order():
    data = od.read_pairs("\n".join(numbered(300)))
    assert len(data.pairs) == 300 and data.problems == () and data.n_bad == 0
    assert data.pairs[0] == od.Pair(1, ("나는", "사과", "0", "를", "먹었다"), ("I", "ate", "apple", "0"))
    assert [p.line for p in data.pairs] == list(range(1, 301))


def test_every_bad_line_is_named_with_its_number_and_why_and_the_rest_is_used():
    lines = numbered(12) + [
        "no tab here",  # 13
        "a\tb\tc",  # 14
        "\tI ate",  # 15
        " ".join(["w"] * 13) + "\tshort",  # 16
        "<eos> x\ty",  # 17
        "abc\u202edef\tx",  # 18: a right-to-left override
        "ab\u200bc\tx",  # 19: a zero-width space
        "",  # blank: skipped, not bad
        "שלום עולם\thello world",  # 21: right-to-left letters are letters
    ]
    data = od.read_pairs("\n".join(lines))
    assert len(data.pairs) == 13 and data.pairs[-1].line == 21
    assert [(p.line, p.key) for p in data.problems] == [
        (13, "translation.own.columns"),
        (14, "translation.own.columns"),
        (15, "translation.own.empty_side"),
        (16, "translation.own.too_long"),
        (17, "translation.own.reserved"),
        (18, "translation.own.invisible"),
        (19, "translation.own.invisible"),
    ]
    assert data.problems[5].params["char"] == "U+202E" and data.problems[6].params["char"] == "U+200B"
    for lang in ("en", "ko"):  # each reads as a sentence naming its line, in both languages
        for problem in data.problems:
            assert str(problem.line) in translate(lang, problem.key, **problem.params)


def test_characters_are_tokens_for_a_language_without_spaces():
    data = od.read_pairs("\n".join(f"我吃了{i}个苹果\tI ate {i} apples" for i in range(10)), source_chars=True)
    assert data.pairs[3].source == ("我", "吃", "了", "3", "个", "苹", "果")
    assert data.pairs[3].target == ("I", "ate", "3", "apples")


def test_text_is_read_in_one_normal_form():
    composed, decomposed = "한국", "\u1112\u1161\u11ab\u1100\u116e\u11a8"  # the same word, two encodings
    data = od.read_pairs("\n".join([f"{composed}\tkorea"] * 5 + [f"{decomposed}\tkorea"] * 5))
    assert {p.source for p in data.pairs} == {("한국",)}


def test_the_pairs_cap_names_the_lines_past_it():
    data = od.read_pairs("\n".join(numbered(od.MAX_PAIRS + 3)))
    assert len(data.pairs) == od.MAX_PAIRS and data.n_bad == 3
    assert {p.key for p in data.problems} == {"translation.own.over_cap"}


def test_only_the_first_bad_lines_are_named_and_the_rest_counted():
    data = od.read_pairs("\n".join(numbered(10) + ["junk"] * 80))
    assert len(data.problems) == od.MAX_PROBLEMS and data.n_bad == 80 and data.unnamed_bad == 30


@pytest.mark.parametrize(
    ("raw", "key"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 10, "translation.own.not_text"),
        (b"\xff\xfe" + "a\tb\n".encode("utf-16-le") * 20, "translation.own.not_text"),
        ("a\tb\x00\n" * 20, "translation.own.not_text"),
        ("x" * (10 * 1024 * 1024), "translation.own.too_big"),
        (b"x" * (od.MAX_BYTES + 1), "translation.own.too_big"),
        ("", "translation.own.too_few"),
        ("a\tb\n" * 9, "translation.own.too_few"),
        (None, "translation.own.not_text"),
        (12, "translation.own.not_text"),
    ],
)
def test_unreadable_text_is_refused_as_a_whole_naming_the_field(raw, key):
    with pytest.raises(InputError) as err:
        od.read_pairs(raw)
    assert err.value.key == key and err.value.field == od.FIELD
    for lang in ("en", "ko"):
        message = translate(lang, key, field=translate(lang, od.FIELD), **err.value.params)
        assert translate(lang, od.FIELD) in message


def test_an_upload_with_a_byte_order_mark_reads_as_the_same_text():
    text = "\n".join(numbered(10))
    assert od.read_pairs(("\ufeff" + text).encode("utf-8")) == od.read_pairs(text)


def test_the_heldout_split_is_by_distinct_target_and_depends_on_the_targets_only():
    pairs = od.read_pairs("\n".join(numbered(100) + numbered(100))).pairs  # every target twice
    split = od.split_heldout(pairs, seed=3)
    held = set(split.heldout_targets)
    assert len(held) == 10 and len(split.heldout) == 20 and len(split.train) == 180
    assert not held & {p.target for p in split.train}  # a held-out target is never an answer in training
    assert od.split_heldout(tuple(reversed(pairs)), seed=3).heldout_targets == split.heldout_targets
    assert od.split_heldout(pairs, seed=4).heldout_targets != split.heldout_targets


def test_a_split_needs_two_targets_and_keeps_one_for_training():
    same = od.read_pairs("\n".join(f"a {i}\tsame" for i in range(10))).pairs
    with pytest.raises(InputError) as err:
        od.split_heldout(same, seed=0)
    assert err.value.key == "translation.own.one_target"
    two = od.read_pairs("\n".join(f"a {i}\t{'x' if i % 2 else 'y'}" for i in range(10))).pairs
    split = od.split_heldout(two, seed=0, fraction=0.99)
    assert len(split.heldout_targets) == 1 and split.train


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=400), st.binary(max_size=400)), st.booleans(), st.booleans())
def test_hostile_text_gives_pairs_or_a_named_refusal(raw, source_chars, target_chars):
    try:
        data = od.read_pairs(raw, source_chars=source_chars, target_chars=target_chars)
    except InputError as err:
        assert err.key.startswith("translation.own.") and err.field == od.FIELD
        return
    for pair in data.pairs:
        assert 1 <= len(pair.source) <= od.MAX_PAIR_TOKENS and 1 <= len(pair.target) <= od.MAX_PAIR_TOKENS
    assert data.n_bad + len(data.pairs) == data.n_lines
