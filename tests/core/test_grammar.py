"""Toy Korean → English grammar: every generated pair well-formed and aligned, parsing inverts generation,
the held-out split by meaning holds. The rules below are written out by hand from issue 17, not read from the
module's tables, so a wrong table entry fails here."""

from __future__ import annotations

import random
import unicodedata
from collections import defaultdict

import pytest

from s2s_core import grammar as g

THIRD_SINGULAR = {"he", "she", "student", "child", "teacher", "doctor"}
COUNTABLE = {"book", "newspaper", "letter", "apple", "cake", "movie", "bag"}
PAST = {
    "read": "read",
    "write": "wrote",
    "eat": "ate",
    "drink": "drank",
    "watch": "watched",
    "buy": "bought",
    "like": "liked",
    "make": "made",
    "go": "went",
    "sleep": "slept",
    "study": "studied",
    "work": "worked",
}
THIRD = {"watch": "watches", "go": "goes", "study": "studies"}  # the rest add a plain -s
# English content word -> the Korean stem its source word starts with (verbs are checked by role and form).
STEM = {
    "book": "책",
    "newspaper": "신문",
    "letter": "편지",
    "apple": "사과",
    "cake": "케이크",
    "movie": "영화",
    "bag": "가방",
    "bread": "빵",
    "water": "물",
    "coffee": "커피",
    "milk": "우유",
    "music": "음악",
    "big": "큰",
    "small": "작은",
    "new": "새",
    "old": "오래된",
    "red": "빨간",
    "library": "도서관",
    "school": "학교",
    "home": "집",
    "park": "공원",
    "cafe": "카페",
    "restaurant": "식당",
    "yesterday": "어제",
    "today": "오늘",
    "every": "매일",
    "day": "매일",
    "now": "지금",
    "student": "학생",
    "child": "아이",
    "teacher": "선생님",
    "doctor": "의사",
    "he": "그",
    "she": "그녀",
    "we": "우리",
    "they": "그들",
}
ROLE = dict.fromkeys(("i", "you", "he", "she", "we", "they", "student", "child", "teacher", "doctor"), "subject")
ROLE |= dict.fromkeys((*PAST, *PAST.values(), *THIRD.values(), "do", "does", "did"), "verb")
ROLE |= {w + "s": "verb" for w in PAST} | {"not": "negation"}
ROLE |= dict.fromkeys(("big", "small", "new", "old", "red"), "adjective")
ROLE |= dict.fromkeys((*COUNTABLE, "bread", "water", "coffee", "milk", "music"), "object")
ROLE |= dict.fromkeys(("in", "at", "to", "library", "school", "home", "park", "cafe", "restaurant"), "place")
ROLE |= dict.fromkeys(("yesterday", "today", "every", "day", "now"), "time")
EN_ORDER = {"subject": 0, "verb": 1, "negation": 1, "adjective": 2, "object": 2, "place": 3, "time": 4}


def batchim(syllable: str) -> bool:
    return (ord(syllable) - 0xAC00) % 28 != 0


@pytest.fixture(scope="module")
def every() -> list:
    return list(g.all_meanings())


@pytest.fixture(scope="module")
def sample(every) -> list:
    """One meaning per subject × particle × verb × tense × negation × object × adjective, and one per
    verb × tense × negation × place × time: every combination of those slots, the others drawn at random."""
    rng = random.Random(17)
    groups: dict[tuple, list] = defaultdict(list)
    for m in every:
        groups[("a", m.subject, m.subject_particle, m.verb, m.tense, m.negated, m.obj, m.adjective)].append(m)
        groups[("b", m.verb, m.tense, m.negated, m.place, m.time)].append(m)
    return sorted({rng.choice(ms) for ms in groups.values()}, key=repr)


def korean_roles(m: g.Meaning) -> list[str]:
    optional = [("time", m.time), ("place", m.place), ("adjective", m.adjective), ("object", m.obj)]
    return ["subject"] + [r for r, v in optional if v is not None] + (["negation"] if m.negated else []) + ["verb"]


def check_korean(m: g.Meaning, ko: tuple[str, ...]) -> None:
    assert g.MIN_WORDS <= len(ko) <= g.MAX_WORDS
    roles = korean_roles(m)
    assert len(ko) == len(roles)
    word = dict(zip(roles, ko, strict=True))
    subject = word["subject"]
    if subject in ("내가", "네가"):  # the two irregular nominatives
        assert m.subject in ("i", "you") and m.subject_particle == "nominative"
    else:
        stem, particle = subject[:-1], subject[-1]
        after = batchim(stem[-1])
        assert particle == {"topic": "은" if after else "는", "nominative": "이" if after else "가"}[m.subject_particle]
    if m.obj is not None:
        assert word["object"][-1] == ("을" if batchim(word["object"][-2]) else "를")
    if m.place is not None:
        assert word["place"].endswith("에" if m.verb == "go" else "에서")
        assert word["place"].count("에") == 1
    if m.time is not None:
        assert (m.time, m.tense) not in {("yesterday", "present"), ("every_day", "past"), ("now", "past")}
    assert (word.get("adjective") is None) or m.obj in COUNTABLE


def check_english(m: g.Meaning, ko: tuple[str, ...], en: tuple[str, ...], align: tuple) -> None:
    third = m.subject in THIRD_SINGULAR
    at = 2 if en[0] == "the" else 1  # the verb phrase starts after "i" or "the student"
    if m.negated:
        aux = "did" if m.tense == "past" else ("does" if third else "do")
        assert en[at : at + 3] == (aux, "not", m.verb)
    elif m.tense == "past":
        assert en[at] == PAST[m.verb]
    else:
        assert en[at] == (THIRD.get(m.verb, m.verb + "s") if third else m.verb)
        assert en[at].endswith("s") == third  # -s exactly for he / she / the student ...
    articles = [i for i, w in enumerate(en) if w in ("a", "an")]
    assert len(articles) == (m.obj in COUNTABLE)
    for i in articles:
        assert (en[i] == "an") == (en[i + 1][0] in "aeiou")
    if "home" in en:  # at home, went home: never "the home" or "to home"
        assert en[en.index("home") - 1] not in ("the", "to")
    # Alignment: None exactly for a/an/the; otherwise the Korean word in the right slot, with the right stem.
    roles = korean_roles(m)
    assert len(align) == len(en)
    for word, source in zip(en, align, strict=True):
        if word in g.FUNCTION_WORDS:
            assert source is None
            continue
        assert source is not None and roles[source] == ROLE[word], (word, ko, en, align)
        if word in STEM:
            assert ko[source].startswith(STEM[word]), (word, ko[source])
    # English order: subject, verb, object, place, time (Korean puts time second and the verb last).
    ranks = [EN_ORDER[ROLE[w]] for w in en if w in ROLE]
    assert ranks == sorted(ranks)


def test_worked_example():
    p = g.translate(["나는", "도서관에서", "책을", "읽었다"])
    assert p is not None
    assert p.en == ("i", "read", "a", "book", "in", "the", "library")
    assert p.align == (0, 3, None, 2, 1, None, 1)
    assert p.meaning == g.Meaning("i", "topic", "read", "past", False, obj="book", place="library")


@pytest.mark.parametrize(
    ("ko", "en"),
    [
        ("그녀가 매일 공원에서 안 잔다", "she does not sleep in the park every day"),
        ("우리는 어제 집에 갔다", "we went home yesterday"),
        ("학생이 오래된 책을 읽는다", "the student reads an old book"),
        ("그들은 학교에서 물을 마셨다", "they drank water at school"),
        ("네가 지금 큰 가방을 안 산다", "you do not buy a big bag now"),
        ("선생님은 공부한다", "the teacher studies"),
    ],
)
def test_examples(ko, en):
    p = g.translate(ko.split())
    assert p is not None and " ".join(p.en) == en


def test_every_combination_is_well_formed(sample):
    seen_ko: set[str] = set()
    seen_en: set[str] = set()
    for m in sample:
        p = g.pair(m)
        assert p.meaning == m
        check_korean(m, p.ko)
        check_english(m, p.ko, p.en, p.align)
        assert g.parse_korean(p.ko) == m  # the inverse of korean()
        seen_ko |= set(p.ko)
        seen_en |= set(p.en)
    assert seen_ko == set(g.KO_VOCAB)  # every token in the vocabularies, and no vocabulary word never produced
    assert seen_en == set(g.EN_VOCAB)


def test_vocabularies():
    for vocab in (g.KO_VOCAB, g.EN_VOCAB):
        assert 40 <= len(vocab) <= 90
        assert list(vocab) == sorted(set(vocab))
    assert "나가" not in g.KO_VOCAB and "너가" not in g.KO_VOCAB
    assert set(g.FUNCTION_WORDS) == {"a", "an", "the"} and set(g.FUNCTION_WORDS) <= set(g.EN_VOCAB)
    table = g.vocabulary_table()
    assert ("object", "책을", "book") in table
    assert {kind for kind, _, _ in table} == set(g.ROLES)
    assert {w for _, ko, _ in table for w in ko.split(" / ")} == set(g.KO_VOCAB)


def test_counts(every):
    assert g.count_meanings(2, 2) == 20 * 8 * 2  # subject forms × verbs that need no object × tenses
    assert g.count_meanings(2, 7) == len(every) == len(set(every))
    assert sum(g.count_meanings(n, n) for n in range(2, 8)) == len(every)
    for bad in ((1, 7), (2, 8), (5, 4)):
        with pytest.raises(ValueError):
            g.count_meanings(*bad)


@pytest.mark.parametrize(
    "words",
    [
        "책을 나는 읽었다",  # object before subject
        "나는 읽었다 책을",  # verb not last
        "나는 책을",  # no verb
        "책을 읽었다",  # no subject
        "나는 어제 읽는다",  # past time, present verb
        "나는 매일 읽었다",
        "나는 지금 읽었다",
        "나는 도서관에서 어제 읽었다",  # time after place
        "나는 큰 읽었다",  # adjective without object
        "나는 큰 물을 마셨다",  # adjective with an uncountable object
        "나는 빨간 영화를 봤다",  # an adjective this object does not take
        "나는 책을 잤다",  # an object with a verb that takes none
        "나는 물을 읽었다",  # an object the verb does not take
        "나는 좋아한다",  # like needs an object
        "나는 학교에서 갔다",  # 가다 takes 에
        "나는 학교에 읽었다",  # 에 only with 가다
        "나는 나는 읽었다",  # a slot twice
        "나는 안 책을 읽었다",  # 안 right before the verb only
        "나는 책을 읽었다 안",
        "나가 읽었다",  # not the irregular 내가
        "나는 고양이를 읽었다",  # unknown word
        "읽었다",  # too short
        "",
        "나는 오늘 도서관에서 큰 책을 안 읽는다 읽었다",  # eight words
    ],
)
def test_outside_the_grammar(words):
    assert g.parse_korean(words.split()) is None
    assert g.translate(words.split()) is None


def test_parse_accepts_a_string_and_decomposed_jamo():
    m = g.parse_korean("나는 책을 읽었다")
    assert m is not None and m.obj == "book"
    assert g.parse_korean([unicodedata.normalize("NFD", w) for w in ("나는", "책을", "읽었다")]) == m


def test_random_meaning_has_the_asked_length():
    rng = random.Random(0)
    for length in range(g.MIN_WORDS, g.MAX_WORDS + 1):
        for _ in range(40):
            m = g.random_meaning(rng, length)
            assert g.is_valid(m) and len(g.korean(m)) == length
    for bad in (1, 8):
        with pytest.raises(ValueError):
            g.random_meaning(rng, bad)


def test_heldout_is_deterministic_distinct_and_excluded():
    heldout = g.make_heldout(30, 2, 7, seed=3)
    assert heldout == g.make_heldout(30, 2, 7, seed=3)
    assert heldout != g.make_heldout(30, 2, 7, seed=4)
    meanings = [p.meaning for p in heldout]
    assert len(set(meanings)) == len(meanings) == 30 * 6
    assert heldout == sorted(heldout, key=lambda p: (len(p.ko), p.ko))
    assert all(sum(len(p.ko) == n for p in heldout) == 30 for n in range(2, 8))
    exclude = set(meanings)
    train = g.sample_pairs(random.Random(3), 2000, 2, 7, exclude)
    assert not exclude & {p.meaning for p in train}
    assert {len(p.ko) for p in train} == set(range(2, 8))
    assert all(3 <= len(p.ko) <= 4 for p in g.sample_pairs(random.Random(3), 50, 3, 4, exclude))
    with pytest.raises(ValueError):
        g.make_heldout(321, 2, 2, seed=0)  # only 320 sentences of two words


def test_sample_pairs_when_nearly_everything_is_excluded():
    two = list(g.all_meanings(2, 2))
    kept = two[7]
    picked = g.sample_pairs(random.Random(0), 5, 2, 2, set(two) - {kept})
    assert [p.meaning for p in picked] == [kept] * 5
    with pytest.raises(ValueError):
        g.sample_pairs(random.Random(0), 1, 2, 2, set(two))


def test_nearest_words():
    assert g.nearest_words("책")[0] == "책을"
    assert set(g.nearest_words("읽다")[:2]) == {"읽는다", "읽었다"}
    assert g.nearest_words("어재")[0] == "어제"
    assert g.nearest_words("book") == ["책을"]  # an English word of the vocabulary: its Korean word
    assert g.nearest_words("xyz") == [] and g.nearest_words("") == []
    assert len(g.nearest_words("도서관", n=2)) == 2
