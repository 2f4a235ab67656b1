"""A toy Korean → English grammar that generates parallel sentences and knows, for every English word, the Korean
word it translates (the alignment a good attention map should find).

Shared by the Training lab's task "ko_en" (s2s_core/training/tasks.py) and the Translation lab
(s2s_core/translation), so it lives beside them, not inside either. Stdlib only: the Training lab's code expander
copies this file into its script.

Korean order (SOV):  subject, [time], [place], [[adjective] object], [안] verb
English order (SVO): subject, verb phrase, [a/an [adjective]] object, [place], [time]
Time moves from second place in Korean to the end in English and the verb from the end to second place, so the
alignment crosses. Korean tokens are eojeol (a word with its particle attached: 책을, 도서관에서); English tokens
are lower-case words. The grammar makes 123 816 sentences of 2 to 7 Korean words (tests/core/test_grammar.py
counts them). It is a toy, one plain declarative clause, but what it says is good Korean and English:
- a 하다 verb is negated inside: 공부 안 한다, 일 안 했다 (not 안 공부한다);
- 선생님 takes the honorific verb (주무신다, 드신다, 읽으신다) and 께서 as its nominative; 드신다 is both "eats" and
  "drinks", so with 선생님 those two verbs need their object (커피를 드신다, not a bare 드신다);
- with 지금 or 오늘 a present verb is happening now, so English uses the progressive ("the teacher is sleeping
  now", "i am not reading a book today"); 좋아하다 (like) is a state and takes no time word at all;
- 매일 with 안 is left out: "매일 안 읽는다" means "never", which "do not read every day" ("not every day")
  would get wrong.
"""

from __future__ import annotations

import difflib
import itertools
import random
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

MIN_WORDS, MAX_WORDS = 2, 7  # Korean words: subject + verb .. every slot filled
TENSES = ("present", "past")
PARTICLES = ("topic", "nominative")  # 은/는 vs 이/가 (께서): both translate the same in this grammar
NEGATION = "안"
FUNCTION_WORDS = ("a", "an", "the")  # English words with no Korean source (Korean has no articles)
# The Korean slot order; verb_noun is a 하다 verb's noun when 안 splits it (공부 안 한다).
ROLES = ("subject", "time", "place", "adjective", "object", "verb_noun", "negation", "verb")
# 하다 after its noun (공부 안 한다): (tense, honorific) -> the form.
HADA = {("present", False): "한다", ("past", False): "했다", ("present", True): "하신다", ("past", True): "하셨다"}


@dataclass(frozen=True)
class Meaning:
    """One combination of slot choices; hashable. The held-out split is by English sentence (split_key)."""

    subject: str  # a key of SUBJECTS
    subject_particle: str  # "topic" (은/는) | "nominative" (이/가, 께서 for 선생님)
    verb: str  # a key of VERBS
    tense: str  # "present" | "past"
    negated: bool  # 안 + verb  ->  do/does/did not + base form (am/is/are not + -ing in the progressive)
    obj: str | None = None  # a key of OBJECTS the verb takes
    adjective: str | None = None  # a key of ADJECTIVES; only with a countable object that allows it
    place: str | None = None  # a key of PLACES: 에서 (at/in) with most verbs, 에 (to) with 가다
    time: str | None = None  # a key of TIMES; must agree with the tense


@dataclass(frozen=True)
class Pair:
    """A generated sentence pair; align[i] is the index into ko of the word en[i] translates (None: no source);
    verb_row is the index into en of the main (lexical) verb: read, reads, reading, study in "did not study"."""

    meaning: Meaning
    ko: tuple[str, ...]
    en: tuple[str, ...]
    align: tuple[int | None, ...]
    verb_row: int


@dataclass(frozen=True)
class Subject:
    ko: str  # the noun; its particle follows the batchim rule (내가/네가, 선생님께서 excepted)
    en: tuple[str, ...]
    third_singular: bool  # takes reads / does not / is
    honorific: bool = False  # 선생님: the verb takes -시- (읽으신다, 주무신다)


@dataclass(frozen=True)
class Verb:
    present: str  # Korean plain present: 읽는다
    past: str  # Korean plain past: 읽었다
    honorific_present: str  # with 선생님: 읽으신다
    honorific_past: str  # 읽으셨다
    base: str  # read
    third: str  # reads
    en_past: str  # read
    ing: str | None  # reading; None for a state (like): no progressive, no time word
    objects: tuple[str, ...] = ()  # the OBJECTS keys that make sense with it
    needs_object: bool = False  # "I buy." is not a sentence; "I read." is
    destination: bool = False  # 가다: the place takes 에 ("to the library"), not 에서
    noun: str | None = None  # a 하다 verb's noun: 공부 안 한다
    honorific_needs_object: bool = False  # 드신다 is eat and drink: with 선생님 only the object tells which


@dataclass(frozen=True)
class Thing:
    ko: str
    en: str
    countable: bool  # a/an before it; uncountable nouns (bread, water, ...) take no article
    adjectives: tuple[str, ...] = ()  # the ADJECTIVES keys that make sense with it (only countable ones have any)


@dataclass(frozen=True)
class Place:
    ko: str
    at: tuple[str, ...]  # with 에서: where it happens
    to: tuple[str, ...]  # with 에 (가다 only): where one goes


@dataclass(frozen=True)
class Time:
    ko: str
    en: tuple[str, ...]
    tenses: tuple[str, ...]  # 어제 is past only; 매일 and 지금 present only
    progressive: bool = False  # a present verb with it is happening now: "is sleeping now", "am reading today"
    negatable: bool = True  # 매일 안 읽는다 is "never", not "not every day": left out


SUBJECTS = {
    "i": Subject("나", ("i",), False),
    "you": Subject("너", ("you",), False),
    "he": Subject("그", ("he",), True),
    "she": Subject("그녀", ("she",), True),
    "we": Subject("우리", ("we",), False),
    "they": Subject("그들", ("they",), False),
    "student": Subject("학생", ("the", "student"), True),
    "child": Subject("아이", ("the", "child"), True),
    "teacher": Subject("선생님", ("the", "teacher"), True, honorific=True),
    "doctor": Subject("의사", ("the", "doctor"), True),
}
IRREGULAR_NOMINATIVE = {"나": "내가", "너": "네가", "선생님": "선생님께서"}  # not 나가/너가; 께서 for 선생님

VERBS = {
    "read": Verb(
        "읽는다", "읽었다", "읽으신다", "읽으셨다", "read", "reads", "read", "reading", ("book", "newspaper", "letter")
    ),
    "write": Verb("쓴다", "썼다", "쓰신다", "쓰셨다", "write", "writes", "wrote", "writing", ("letter", "book")),
    "eat": Verb(
        "먹는다",
        "먹었다",
        "드신다",
        "드셨다",
        "eat",
        "eats",
        "ate",
        "eating",
        ("apple", "bread", "cake"),
        honorific_needs_object=True,
    ),
    "drink": Verb(
        "마신다",
        "마셨다",
        "드신다",
        "드셨다",
        "drink",
        "drinks",
        "drank",
        "drinking",
        ("water", "coffee", "milk"),
        honorific_needs_object=True,
    ),
    "watch": Verb(
        "본다", "봤다", "보신다", "보셨다", "watch", "watches", "watched", "watching", ("movie",), needs_object=True
    ),
    "buy": Verb(
        "산다",
        "샀다",
        "사신다",
        "사셨다",
        "buy",
        "buys",
        "bought",
        "buying",
        ("book", "apple", "cake", "milk", "bag"),
        needs_object=True,
    ),
    "like": Verb(
        "좋아한다",
        "좋아했다",
        "좋아하신다",
        "좋아하셨다",
        "like",
        "likes",
        "liked",
        None,
        ("music", "coffee", "milk", "bread"),
        needs_object=True,
    ),
    "make": Verb(
        "만든다",
        "만들었다",
        "만드신다",
        "만드셨다",
        "make",
        "makes",
        "made",
        "making",
        ("cake", "bread"),
        needs_object=True,
    ),
    "go": Verb("간다", "갔다", "가신다", "가셨다", "go", "goes", "went", "going", destination=True),
    "sleep": Verb("잔다", "잤다", "주무신다", "주무셨다", "sleep", "sleeps", "slept", "sleeping"),
    "study": Verb(
        "공부한다", "공부했다", "공부하신다", "공부하셨다", "study", "studies", "studied", "studying", noun="공부"
    ),
    "work": Verb("일한다", "일했다", "일하신다", "일하셨다", "work", "works", "worked", "working", noun="일"),
}

ADJECTIVES = {"big": "큰", "small": "작은", "new": "새", "old": "오래된", "red": "빨간"}
_ANY = tuple(ADJECTIVES)

OBJECTS = {
    "book": Thing("책", "book", True, _ANY),
    "newspaper": Thing("신문", "newspaper", True, ("new", "old")),
    "letter": Thing("편지", "letter", True, ("new", "old")),
    "apple": Thing("사과", "apple", True, ("big", "small", "red")),
    "cake": Thing("케이크", "cake", True, ("big", "small")),
    "movie": Thing("영화", "movie", True, ("new", "old")),
    "bag": Thing("가방", "bag", True, _ANY),
    "bread": Thing("빵", "bread", False),
    "water": Thing("물", "water", False),
    "coffee": Thing("커피", "coffee", False),
    "milk": Thing("우유", "milk", False),
    "music": Thing("음악", "music", False),
}

PLACES = {
    "library": Place("도서관", ("in", "the", "library"), ("to", "the", "library")),
    "school": Place("학교", ("at", "school"), ("to", "school")),
    "home": Place("집", ("at", "home"), ("home",)),  # "went home": no preposition
    "park": Place("공원", ("in", "the", "park"), ("to", "the", "park")),
    "cafe": Place("카페", ("at", "the", "cafe"), ("to", "the", "cafe")),
    "restaurant": Place("식당", ("at", "the", "restaurant"), ("to", "the", "restaurant")),
}

TIMES = {
    "yesterday": Time("어제", ("yesterday",), ("past",)),
    "today": Time("오늘", ("today",), TENSES, progressive=True),
    "every_day": Time("매일", ("every", "day"), ("present",), negatable=False),  # two English words from 매일
    "now": Time("지금", ("now",), ("present",), progressive=True),
}


# 1) Korean morphology: the particle after a noun depends on whether its last syllable has a final consonant.
def has_batchim(syllable: str) -> bool:
    """True when a Hangul syllable ends in a consonant (책, 학생), False for 나, 사과 or a non-Hangul character."""
    code = ord(syllable) - 0xAC00
    return 0 <= code < 11172 and code % 28 != 0


def _with_particle(noun: str, after_consonant: str, after_vowel: str) -> str:
    return noun + (after_consonant if has_batchim(noun[-1]) else after_vowel)


def subject_word(key: str, particle: str) -> str:
    """나는 / 내가, 학생은 / 학생이, 선생님은 / 선생님께서."""
    noun = SUBJECTS[key].ko
    if particle == "topic":
        return _with_particle(noun, "은", "는")
    return IRREGULAR_NOMINATIVE.get(noun) or _with_particle(noun, "이", "가")


def object_word(key: str) -> str:
    """책을, 사과를."""
    return _with_particle(OBJECTS[key].ko, "을", "를")


def place_word(key: str, destination: bool) -> str:
    """도서관에서 (where it happens) or 도서관에 (where 가다 goes)."""
    return PLACES[key].ko + ("에" if destination else "에서")


def verb_word(key: str, tense: str, honorific: bool) -> str:
    """읽는다 / 읽었다, or with 선생님 읽으신다 / 읽으셨다."""
    verb = VERBS[key]
    if honorific:
        return verb.honorific_past if tense == "past" else verb.honorific_present
    return verb.past if tense == "past" else verb.present


def progressive(m: Meaning) -> bool:
    """A present verb with 지금 or 오늘: happening now, so English says "is reading", not "reads"."""
    return m.tense == "present" and m.time is not None and TIMES[m.time].progressive


# 2) Which combinations are sentences of the grammar.
def is_valid(m: Meaning) -> bool:
    """Every key known, the object one the verb takes, the adjective one the object takes, the time in tense (and
    none with a state verb), no 매일 with 안, and an object for 드신다."""
    verb = VERBS.get(m.verb)
    if verb is None or m.subject not in SUBJECTS or m.subject_particle not in PARTICLES or m.tense not in TENSES:
        return False
    if not isinstance(m.negated, bool):
        return False
    if m.obj is None:
        if verb.needs_object or m.adjective is not None:
            return False
        if verb.honorific_needs_object and SUBJECTS[m.subject].honorific:
            return False
    elif m.obj not in verb.objects:
        return False
    if m.adjective is not None and m.adjective not in OBJECTS[m.obj].adjectives:
        return False
    if m.place is not None and m.place not in PLACES:
        return False
    if m.time is None:
        return True
    time = TIMES.get(m.time)
    if time is None or m.tense not in time.tenses or verb.ing is None:
        return False
    return time.negatable or not m.negated


def _require(m: Meaning) -> None:
    if not is_valid(m):
        raise ValueError(f"not a meaning of the toy grammar: {m}")


# 3) Generation: Korean words with their roles, then English words aligned to those positions.
def _korean_slots(m: Meaning) -> list[tuple[str, str]]:
    """(role, word) in Korean order."""
    verb, honorific = VERBS[m.verb], SUBJECTS[m.subject].honorific
    slots = [("subject", subject_word(m.subject, m.subject_particle))]
    if m.time is not None:
        slots.append(("time", TIMES[m.time].ko))
    if m.place is not None:
        slots.append(("place", place_word(m.place, verb.destination)))
    if m.adjective is not None:
        slots.append(("adjective", ADJECTIVES[m.adjective]))
    if m.obj is not None:
        slots.append(("object", object_word(m.obj)))
    if m.negated and verb.noun is not None:  # 공부 안 한다: 안 goes between the noun and 하다
        slots += [("verb_noun", verb.noun), ("negation", NEGATION), ("verb", HADA[m.tense, honorific])]
    elif m.negated:
        slots += [("negation", NEGATION), ("verb", verb_word(m.verb, m.tense, honorific))]
    else:
        slots.append(("verb", verb_word(m.verb, m.tense, honorific)))
    return slots


def korean(m: Meaning) -> tuple[str, ...]:
    """The Korean sentence as eojeol tokens: ("나는", "도서관에서", "책을", "읽었다")."""
    _require(m)
    words = tuple(word for _, word in _korean_slots(m))
    if len(_MADE) >= 1 << 16:  # bounded: a long-lived server draws many sentences
        _MADE.clear()
    _MADE[words] = m
    return words


_MADE: dict[tuple[str, ...], Meaning] = {}  # sentences just generated -> their meaning: split_key need not parse


def _verb_phrase(m: Meaning) -> list[tuple[str, str]]:
    """(word, role its source has): reads / read / does not read / did not read / is reading / am not reading.
    An auxiliary (do, is ...) carries the tense, so its source is the Korean verb; the main verb's source is the
    Korean verb too, or the noun of a split 하다 verb (did not study: study <- 공부)."""
    verb, subject = VERBS[m.verb], SUBJECTS[m.subject]
    main = "verb_noun" if m.negated and verb.noun is not None else "verb"
    negation = [("not", "negation")] if m.negated else []
    if progressive(m):
        be = "am" if m.subject == "i" else ("is" if subject.third_singular else "are")
        return [(be, "verb"), *negation, (verb.ing, main)]  # type: ignore[list-item]
    if m.negated:
        aux = "did" if m.tense == "past" else ("does" if subject.third_singular else "do")
        return [(aux, "verb"), *negation, (verb.base, main)]
    if m.tense == "past":
        return [(verb.en_past, "verb")]
    return [(verb.third if subject.third_singular else verb.base, "verb")]


def _object_phrase(m: Meaning) -> list[tuple[str, str]]:
    if m.obj is None:
        return []
    thing = OBJECTS[m.obj]
    words = [(thing.en, "object")]
    if m.adjective is not None:
        words.insert(0, (m.adjective, "adjective"))
    if thing.countable:
        article = "an" if words[0][0][0] in "aeiou" else "a"  # by the next word: an apple, an old book, a big apple
        words.insert(0, (article, "object"))
    return words


def english(m: Meaning) -> tuple[tuple[str, ...], tuple[int | None, ...]]:
    """English tokens and, per token, the index of its Korean source word (None for a/an/the)."""
    words, align, _ = _english(m)
    return words, align


def _english(m: Meaning) -> tuple[tuple[str, ...], tuple[int | None, ...], int]:
    _require(m)
    position = {role: i for i, (role, _) in enumerate(_korean_slots(m))}
    phrase = [(word, "subject") for word in SUBJECTS[m.subject].en]
    verb_phrase = _verb_phrase(m)
    phrase += verb_phrase
    verb_row = len(phrase) - 1  # the verb phrase ends with the main verb
    phrase += _object_phrase(m)
    if m.place is not None:
        place = PLACES[m.place]
        phrase += [(word, "place") for word in (place.to if VERBS[m.verb].destination else place.at)]
    if m.time is not None:
        phrase += [(word, "time") for word in TIMES[m.time].en]
    words = tuple(word for word, _ in phrase)
    align = tuple(None if word in FUNCTION_WORDS else position[role] for word, role in phrase)
    return words, align, verb_row


@lru_cache(maxsize=1 << 16)  # training draws the same short sentences many times
def pair(m: Meaning) -> Pair:
    """The Korean sentence, its English translation, the alignment and the main verb's row."""
    en, align, verb_row = _english(m)
    return Pair(m, korean(m), en, align, verb_row)


# 4) Reading Korean back: each word names its slot (드신다 two), so parsing is a lookup, then the order and
#    agreement checks by regenerating the sentence.
@dataclass(frozen=True)
class _Entry:
    role: str
    key: str = ""  # "" for the 하다 that follows a verb's noun: its verb is the noun's
    form: str = ""  # the particle of a subject, or the tense of a verb


def _index() -> dict[str, tuple[_Entry, ...]]:
    index: dict[str, list[_Entry]] = {}

    def add(word: str, entry: _Entry) -> None:
        if entry not in index.setdefault(word, []):
            index[word].append(entry)

    for key in SUBJECTS:
        for particle in PARTICLES:
            add(subject_word(key, particle), _Entry("subject", key, particle))
    for key, time in TIMES.items():
        add(time.ko, _Entry("time", key))
    for key in PLACES:
        add(place_word(key, False), _Entry("place", key))
        add(place_word(key, True), _Entry("place", key))  # 에 vs 에서 is checked against the verb by regenerating
    for key, word in ADJECTIVES.items():
        add(word, _Entry("adjective", key))
    for key in OBJECTS:
        add(object_word(key), _Entry("object", key))
    add(NEGATION, _Entry("negation"))
    for key, verb in VERBS.items():
        for tense in TENSES:
            for honorific in (False, True):
                add(verb_word(key, tense, honorific), _Entry("verb", key, tense))
        if verb.noun is not None:
            add(verb.noun, _Entry("verb_noun", key))
    for (tense, _), word in HADA.items():
        add(word, _Entry("verb", "", tense))
    return {word: tuple(entries) for word, entries in index.items()}


_KO_INDEX = _index()


def _normal(word: object) -> str:
    """NFC: a word typed on some systems arrives as separate jamo (NFD) and would not match the vocabulary."""
    return unicodedata.normalize("NFC", str(word)).strip()


def _meaning_of(entries: Sequence[_Entry]) -> Meaning | None:
    """The meaning one reading of the words names, or None when the slots are out of order, twice, or missing."""
    ranks = [ROLES.index(e.role) for e in entries]
    if any(a >= b for a, b in itertools.pairwise(ranks)):  # out of the Korean order, or the same slot twice
        return None
    found = {e.role: e for e in entries}
    if "subject" not in found or "verb" not in found:
        return None
    verb = found["verb_noun"].key if "verb_noun" in found else found["verb"].key
    if not verb:  # a bare 한다 with no noun before it
        return None
    return Meaning(
        subject=found["subject"].key,
        subject_particle=found["subject"].form,
        verb=verb,
        tense=found["verb"].form,
        negated="negation" in found,
        obj=found["object"].key if "object" in found else None,
        adjective=found["adjective"].key if "adjective" in found else None,
        place=found["place"].key if "place" in found else None,
        time=found["time"].key if "time" in found else None,
    )


def parse_korean(tokens: Sequence[str] | str) -> Meaning | None:
    """The meaning of a Korean sentence (tokens, or a string split on spaces), or None when the grammar cannot
    produce it: an unknown word, wrong order, a slot twice, no subject or verb, 어제 with a present verb, an
    adjective without a countable object, an object the verb does not take, 에서 with 가다, 안 공부한다, 선생님 with
    a plain verb ..."""
    if isinstance(tokens, str):
        tokens = tokens.split()
    if not isinstance(tokens, (list, tuple)):  # anything else (None, a number) is no sentence of the grammar
        return None
    words = tuple(_normal(w) for w in tokens)
    if not MIN_WORDS <= len(words) <= MAX_WORDS:
        return None
    readings = [_KO_INDEX.get(word) for word in words]
    if any(r is None for r in readings):
        return None
    for entries in itertools.product(*readings):  # one reading per word but for 드신다 (eat or drink)
        m = _meaning_of(entries)  # type: ignore[arg-type]
        # Regenerating catches what the lookup cannot: 에 vs 에서, the honorific, where 안 goes, 드신다's object.
        if m is not None and is_valid(m) and korean(m) == words:
            return m
    return None


def translate(tokens: Sequence[str] | str) -> Pair | None:
    """The pair for a Korean sentence of the grammar, or None."""
    m = parse_korean(tokens)
    return None if m is None else pair(m)


def split_key(tokens: Sequence[str] | str) -> tuple[str, ...] | None:
    """The unit of the held-out split: the English sentence. 나는/내가 책을 읽는다 (and 나는 책을 읽었다: "i read a
    book" either way) fall on the same side, so no held-out English target is ever a training target."""
    return _split_key(tuple(tokens.split() if isinstance(tokens, str) else tokens))


@lru_cache(maxsize=1 << 16)  # asked for every training sentence drawn, and for the held-out set at every batch
def _split_key(tokens: tuple[str, ...]) -> tuple[str, ...] | None:
    m = _MADE.get(tokens) or parse_korean(tokens)  # a training draw was generated a moment ago: no parse
    return None if m is None else pair(m).en


# 5) Enumeration and sampling. A "skeleton" is a meaning without its subject; every subject but 선생님 fits every
#    skeleton (선생님 not one of 드신다 without its object).
def _object_options(verb: Verb) -> list[tuple[str | None, str | None]]:
    options: list[tuple[str | None, str | None]] = [] if verb.needs_object else [(None, None)]
    for key in verb.objects:
        options += [(key, None)] + [(key, adjective) for adjective in OBJECTS[key].adjectives]
    return options


def _subject_forms(fields: dict[str, object]) -> int:
    """How many (subject, particle) pairs make a sentence with this skeleton."""
    return sum(is_valid(Meaning(subject=s, subject_particle=p, **fields)) for s in SUBJECTS for p in PARTICLES)  # type: ignore[arg-type]


@cache
def _skeletons() -> dict[int, tuple[tuple[dict[str, object], int], ...]]:
    """(meaning fields other than the subject, how many subject forms fit), grouped by Korean length, in a fixed
    order (sampling repeats)."""
    by_length: dict[int, list[tuple[dict[str, object], int]]] = {n: [] for n in range(MIN_WORDS, MAX_WORDS + 1)}
    for verb_key, verb in VERBS.items():
        for tense in TENSES:
            times = [None] + [key for key, time in TIMES.items() if tense in time.tenses]
            for negated in (False, True):
                for obj, adjective in _object_options(verb):
                    for place in (None, *PLACES):
                        for time in times:
                            fields = dict(verb=verb_key, tense=tense, negated=negated, obj=obj, adjective=adjective)
                            fields |= dict(place=place, time=time)
                            forms = _subject_forms(fields)
                            if not forms:
                                continue
                            split = negated and verb.noun is not None  # 공부 안 한다: one word more
                            extra = sum(v is not None for v in (obj, adjective, place, time)) + negated + split
                            by_length[MIN_WORDS + extra].append((fields, forms))
    return {n: tuple(skeletons) for n, skeletons in by_length.items()}


def _check_lengths(min_len: int, max_len: int) -> None:
    if not MIN_WORDS <= min_len <= max_len <= MAX_WORDS:
        raise ValueError(f"lengths must satisfy {MIN_WORDS} <= min_len <= max_len <= {MAX_WORDS}: {min_len}, {max_len}")


def all_meanings(min_len: int = MIN_WORDS, max_len: int = MAX_WORDS) -> Iterator[Meaning]:
    """Every meaning whose Korean has min_len..max_len words (count_meanings(2, 7) in all: enumerate with care)."""
    _check_lengths(min_len, max_len)
    for length in range(min_len, max_len + 1):
        for fields, _ in _skeletons()[length]:
            for subject in SUBJECTS:
                for particle in PARTICLES:
                    m = Meaning(subject=subject, subject_particle=particle, **fields)  # type: ignore[arg-type]
                    if is_valid(m):
                        yield m


def count_meanings(min_len: int, max_len: int) -> int:
    """How many distinct Korean sentences of min_len..max_len words the grammar has."""
    _check_lengths(min_len, max_len)
    return sum(forms for n in range(min_len, max_len + 1) for _, forms in _skeletons()[n])


def random_meaning(rng: random.Random, length: int) -> Meaning:
    """A meaning whose Korean has exactly `length` words, uniform over all such meanings (a skeleton and a
    subject form drawn until they fit: 선생님 with a bare 드신다 is drawn again)."""
    _check_lengths(length, length)
    skeletons = _skeletons()[length]
    while True:
        fields, _ = rng.choice(skeletons)
        subject, particle = rng.choice(tuple(SUBJECTS)), rng.choice(PARTICLES)
        m = Meaning(subject=subject, subject_particle=particle, **fields)  # type: ignore[arg-type]
        if is_valid(m):
            return m


def _fresh_meaning(rng: random.Random, length: int, exclude: set[tuple[str, ...]]) -> Meaning:
    for _ in range(64):  # the held-out set is a small share of a length, so this almost always succeeds at once
        m = random_meaning(rng, length)
        if pair(m).en not in exclude:
            return m
    left = [m for m in all_meanings(length, length) if pair(m).en not in exclude]  # nearly all excluded
    if not left:
        raise ValueError(f"every sentence of {length} words is excluded")
    return rng.choice(left)


def sample_pairs(rng: random.Random, n: int, min_len: int, max_len: int, exclude: set[tuple[str, ...]]) -> list[Pair]:
    """n pairs (repeats allowed) with lengths uniform in [min_len, max_len], none of whose English sentences
    (split_key) is excluded."""
    _check_lengths(min_len, max_len)
    return [pair(_fresh_meaning(rng, rng.randint(min_len, max_len), exclude)) for _ in range(n)]


def make_heldout(n_per_len: int, min_len: int, max_len: int, seed: int) -> list[Pair]:
    """n_per_len distinct English sentences per length (one Korean form each), from their own random stream (so
    they never shift the training batches), sorted by length then Korean words. ValueError if a length has fewer
    than n_per_len sentences."""
    _check_lengths(min_len, max_len)
    rng = random.Random(f"ko-en-heldout-{seed}")
    chosen: list[Pair] = []
    for length in range(min_len, max_len + 1):
        if not 0 <= n_per_len <= count_meanings(length, length):
            raise ValueError(f"{n_per_len} held-out sentences of {length} words: only {count_meanings(length, length)}")
        picked: dict[tuple[str, ...], Pair] = {}
        for _ in range(100 * n_per_len + 100):
            if len(picked) >= n_per_len:
                break
            p = pair(random_meaning(rng, length))
            picked.setdefault(p.en, p)
        if len(picked) < n_per_len:
            raise ValueError(f"{n_per_len} held-out English sentences of {length} words: found {len(picked)}")
        chosen += picked.values()
    return sorted(chosen, key=lambda p: (len(p.ko), p.ko))


# 6) Vocabularies and help for the page.
KO_VOCAB: tuple[str, ...] = tuple(sorted(_KO_INDEX))


def words_by_role() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Every word of KO_VOCAB once, grouped by the slot it fills (a role of ROLES, in the Korean order: subject,
    time, place, adjective, object, verb noun, negation, verb), each group in the grammar's own order (a verb's
    present, past and honorific forms together): the words the Translation lab offers to insert."""
    groups: dict[str, list[str]] = {role: [] for role in ROLES}
    for word, entries in _KO_INDEX.items():
        groups[entries[0].role].append(word)
    return tuple((role, tuple(words)) for role, words in groups.items() if words)


def _english_words() -> set[str]:
    words = {w for s in SUBJECTS.values() for w in s.en} | {"do", "does", "did", "not", "a", "an", "am", "is", "are"}
    words |= {w for v in VERBS.values() for w in (v.base, v.third, v.en_past, v.ing) if w is not None}
    words |= set(ADJECTIVES) | {t.en for t in OBJECTS.values()}
    words |= {w for p in PLACES.values() for w in p.at + p.to} | {w for t in TIMES.values() for w in t.en}
    return words


EN_VOCAB: tuple[str, ...] = tuple(sorted(_english_words()))


def _shown(words: Sequence[str]) -> str:
    return " ".join("I" if w == "i" else w for w in words)


def vocabulary_table() -> list[tuple[str, str, str]]:
    """(kind, Korean word(s), English) in the Korean slot order; kind is one of ROLES (the page translates it).
    A verb's Korean: plain present / past / with 선생님 present / past."""
    rows = [
        ("subject", f"{subject_word(k, 'topic')} / {subject_word(k, 'nominative')}", _shown(s.en))
        for k, s in SUBJECTS.items()
    ]
    rows += [("time", t.ko, _shown(t.en)) for t in TIMES.values()]
    rows += [
        ("place", f"{place_word(k, False)} / {place_word(k, True)}", f"{_shown(p.at)} / {_shown(p.to)}")
        for k, p in PLACES.items()
    ]
    rows += [("adjective", ko, en) for en, ko in ADJECTIVES.items()]
    rows += [("object", object_word(k), t.en) for k, t in OBJECTS.items()]
    rows += [("verb_noun", v.noun, v.base) for v in VERBS.values() if v.noun is not None]
    rows += [("negation", NEGATION, "not")]
    for v in VERBS.values():
        ko = " / ".join((v.present, v.past, v.honorific_present, v.honorific_past))
        en = " / ".join(w for w in (f"{v.base} ({v.third})", v.en_past, v.ing) if w is not None)
        rows.append(("verb", ko, en))
    nouns = " / ".join(v.noun for v in VERBS.values() if v.noun is not None)
    rows.append(("verb", " / ".join(HADA.values()), f"({nouns} {NEGATION}) do / did"))
    return rows


def _by_english() -> dict[str, tuple[str, ...]]:
    """An English word a learner may type by mistake -> the Korean words that translate it."""
    out: dict[str, list[str]] = {}
    for ko, entries in _KO_INDEX.items():
        for entry in entries:
            if entry.role == "negation":
                glosses: tuple[str | None, ...] = ("not",)
            elif entry.role == "subject":
                glosses = SUBJECTS[entry.key].en[-1:]
            elif entry.role == "verb" and entry.key:
                verb = VERBS[entry.key]
                glosses = (verb.base, verb.third, verb.en_past, verb.ing)
            elif entry.role in ("object", "adjective", "place", "verb_noun"):
                glosses = (entry.key,)
            elif entry.role == "time":
                glosses = TIMES[entry.key].en[-1:] if entry.key != "every_day" else ()
            else:  # the 하다 after a noun: no English word of its own
                glosses = ()
            for gloss in set(glosses) - {None}:
                out.setdefault(gloss, []).append(ko)  # type: ignore[arg-type]
    return {gloss: tuple(sorted(set(words))) for gloss, words in out.items()}


_BY_ENGLISH = _by_english()
_JAMO = {word: unicodedata.normalize("NFD", word) for word in KO_VOCAB}  # 읽 -> ᄋ ᅵ ᆰ: letters, not syllables
NEAR_CUTOFF = 0.3  # below this a suggestion shares at most a letter or two: more confusing than helpful


def nearest_words(word: str, n: int = 3) -> list[str]:
    """Up to n KO_VOCAB words closest to an unknown word, compared letter by letter (Hangul jamo), so 책 finds
    책을 and 읽다 finds 읽는다 / 읽었다; an English word of the vocabulary gives its Korean words (book -> 책을)."""
    text = _normal(word)
    if n <= 0 or not text:
        return []
    if text.lower() in _BY_ENGLISH:
        return list(_BY_ENGLISH[text.lower()][:n])
    letters = unicodedata.normalize("NFD", text)
    scored = [(-difflib.SequenceMatcher(None, letters, jamo).ratio(), known) for known, jamo in _JAMO.items()]
    return [known for score, known in sorted(scored)[:n] if -score >= NEAR_CUTOFF]
