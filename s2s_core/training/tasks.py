"""Toy tasks generated from a seed: reverse, copy, sort, reading a number aloud in Korean or English, picking the
name and the quantity out of a sentence of filler words (names), and translating a Korean sentence of the
Translation lab's toy grammar into English (ko_en).

Stdlib only (the code expander copies this file). Sources are token lists (digits, or Korean words for ko_en);
targets are token lists.
"""

from __future__ import annotations

import random
from functools import lru_cache

from s2s_core.grammar import EN_VOCAB, KO_VOCAB, count_meanings, korean, random_meaning, split_key, translate

PAD, SOS, EOS, UNK = "<pad>", "<sos>", "<eos>", "<unk>"
PAD_ID, SOS_ID, EOS_ID, UNK_ID = 0, 1, 2, 3
SPECIALS = (PAD, SOS, EOS, UNK)
DIGITS = tuple("0123456789")
NUM_TASKS = ("num_ko", "num_en")
NUM_MAX_DIGITS = 6  # the number tasks read 0 .. 999 999
KO_EN = "ko_en"  # the Translation lab: sources are Korean words, not digits
# The names task (study note §5: names and quantities are what one vector loses first): a source is filler words
# with one name and one quantity (1 to 6 digits, one token each) somewhere among them; the target copies the name,
# then the quantity's digits ("the old Mina sold 4 2 pears" -> "Mina 4 2").
NAMES_TASK = "names"
NAMES = ("Mina", "Jun", "Sora", "Tom", "Ana", "Ben", "Yuna", "Leo")
FILLERS = (
    "the", "a", "and", "then", "today", "sold", "bought", "saw",
    "at", "market", "apples", "pears", "red", "big", "some", "old",
)  # fmt: skip
NAMES_MAX_DIGITS = 6  # a quantity up to 999 999, as the number tasks read
NAMES_MIN_LEN = 3  # a name, one digit and one filler word at least

KO_DIGITS = ("영", "일", "이", "삼", "사", "오", "육", "칠", "팔", "구")
KO_UNITS = ("", "십", "백", "천")
EN_ONES = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
)
EN_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def korean_number(n: int) -> list[str]:
    """Sino-Korean reading, one syllable per token: 3017 -> 삼 천 십 칠; 1 before a unit is silent (십, not 일십)."""
    if n == 0:
        return [KO_DIGITS[0]]

    def below_10000(x: int) -> list[str]:
        out: list[str] = []
        for place in (3, 2, 1, 0):
            d = x // 10**place % 10
            if d == 0:
                continue
            if place == 0 or d != 1:
                out.append(KO_DIGITS[d])
            if place:
                out.append(KO_UNITS[place])
        return out

    high, low = divmod(n, 10000)
    # 10000 is read 만 (not 일만), like 10 is 십.
    head = ([] if high == 1 else below_10000(high)) + ["만"] if high else []
    return head + below_10000(low)


def english_number(n: int) -> list[str]:
    """English words, one per token: 3017 -> three thousand seventeen; 342 -> three hundred forty two."""
    if n == 0:
        return [EN_ONES[0]]

    def below_1000(x: int) -> list[str]:
        out: list[str] = []
        if x >= 100:
            out += [EN_ONES[x // 100], "hundred"]
            x %= 100
        if x >= 20:
            out.append(EN_TENS[x // 10])
            x %= 10
        if x:
            out.append(EN_ONES[x])
        return out

    high, low = divmod(n, 1000)
    return (below_1000(high) + ["thousand"] if high else []) + below_1000(low)


def copied(source: list[str]) -> tuple[str | None, tuple[str, ...]]:
    """The names task's two copied items in a source: its (first) name and its (first) run of digits."""
    name = next((tok for tok in source if tok in NAMES), None)
    start = next((i for i, tok in enumerate(source) if tok in DIGITS), None)
    if start is None:
        return name, ()
    end = start
    while end < len(source) and source[end] in DIGITS:
        end += 1
    return name, tuple(source[start:end])


def target_tokens(task: str, source: list[str]) -> list[str]:
    """The right answer for a source (one-digit strings, or Korean words for ko_en). A Korean sentence outside
    the toy grammar has no right answer: ValueError (reference() says None instead)."""
    if task == KO_EN:
        found = translate(source)
        if found is None:
            raise ValueError(f"outside the grammar: {' '.join(source)}")
        return list(found.en)
    if task == "reverse":
        return source[::-1]
    if task == "copy":
        return list(source)
    if task == "sort":
        return sorted(source)
    if task == "num_ko":
        return korean_number(int("".join(source)))
    if task == "num_en":
        return english_number(int("".join(source)))
    if task == NAMES_TASK:
        name, quantity = copied(source)
        return ([name] if name else []) + list(quantity)
    raise ValueError(task)


def reference(task: str, source: list[str]) -> list[str] | None:
    """target_tokens(), or None for a typed Korean sentence the grammar cannot produce (no reference to compare)."""
    if task == KO_EN and translate(source) is None:
        return None
    return target_tokens(task, source)


def target_vocab(task: str) -> tuple[str, ...]:
    """Every token the task's targets can use, after the four specials (ids 0..3)."""
    if task == KO_EN:
        words = EN_VOCAB
    elif task == "num_ko":
        words = KO_DIGITS + ("십", "백", "천", "만")
    elif task == "num_en":
        words = EN_ONES + EN_TENS[2:] + ("hundred", "thousand")
    elif task == NAMES_TASK:
        words = NAMES + DIGITS
    else:
        words = DIGITS
    return SPECIALS + words


def source_vocab(task: str) -> tuple[str, ...]:
    """Every source token, after the four specials: the ten digits, the toy grammar's Korean words, or the names
    task's names, digits and filler words."""
    if task == NAMES_TASK:
        return SPECIALS + NAMES + DIGITS + FILLERS
    return SPECIALS + (KO_VOCAB if task == KO_EN else DIGITS)


def random_source(rng: random.Random, task: str, length: int) -> list[str]:
    """One source of `length` tokens: digits (a number has no leading zero, except the number 0 itself), or a
    Korean sentence of `length` words drawn from the toy grammar."""
    if task == KO_EN:
        return list(korean(random_meaning(rng, length)))
    if task == NAMES_TASK:
        return names_source(rng, length)
    digits = [rng.choice(DIGITS) for _ in range(length)]
    if task in NUM_TASKS and length > 1 and digits[0] == "0":
        digits[0] = rng.choice(DIGITS[1:])
    return digits


def names_source(rng: random.Random, length: int) -> list[str]:
    """length tokens: filler words with one name and one quantity (a number without a leading zero, one token per
    digit) put in at random places."""
    n_digits = rng.randint(1, min(NAMES_MAX_DIGITS, length - 2))
    quantity = [rng.choice(DIGITS[1:] if n_digits > 1 else DIGITS)] + [rng.choice(DIGITS) for _ in range(n_digits - 1)]
    words = [rng.choice(FILLERS) for _ in range(length - 1 - n_digits)]
    words.insert(rng.randint(0, len(words)), rng.choice(NAMES))
    at = rng.randint(0, len(words))
    return words[:at] + quantity + words[at:]


def possible_sources(task: str, length: int) -> int:
    """How many different sources of this length exist (bounds the held-out set for short lengths)."""
    if task == KO_EN:
        return count_meanings(length, length)
    if task == NAMES_TASK:  # far more than any held-out set: a lower bound (one-digit quantities only) is enough
        return len(NAMES) * 10 * len(FILLERS) ** (length - 2) * (length - 1) * length
    return 9 * 10 ** (length - 1) if task in NUM_TASKS and length > 1 else 10**length


@lru_cache(maxsize=8192)  # the held-out sources' keys are asked for on every batch
def heldout_key(task: str, source: tuple[str, ...]) -> tuple[str, ...]:
    """The unit the held-out split is made of: the source itself, or for ko_en its English sentence, so that 나는/내가
    (or 읽는다/읽었다: "i read") variants of one English target all fall on the same side."""
    if task == KO_EN:
        key = split_key(list(source))
        if key is not None:
            return key
    return tuple(source)


def make_heldout(task: str, min_len: int, max_len: int, per_len: int, seed: int) -> list[list[str]]:
    """Sources kept out of training: per_len distinct ones per length (fewer when a length has few), distinct by
    heldout_key (for ko_en: one Korean sentence per held-out English sentence)."""
    rng = random.Random(f"heldout-{seed}")  # its own stream, so it never shifts the training batches
    out: list[list[str]] = []
    for length in range(min_len, max_len + 1):
        # Hold out at most a fifth of a short length's sources, so training still sees most of them.
        want = min(per_len, possible_sources(task, length) // 5) or 1
        seen: dict[tuple[str, ...], tuple[str, ...]] = {}
        while len(seen) < want:
            source = tuple(random_source(rng, task, length))
            seen.setdefault(heldout_key(task, source), source)
        out += [list(s) for s in sorted(seen.values())]
    return out


def sample_sources(
    rng: random.Random, task: str, min_len: int, max_len: int, n: int, exclude: set[tuple[str, ...]]
) -> list[list[str]]:
    """n training sources with uniform lengths, none of them sharing a heldout_key with the held-out set (for
    ko_en: no training target is a held-out English sentence)."""
    keys = {heldout_key(task, s) for s in exclude}
    out: list[list[str]] = []
    while len(out) < n:
        src = random_source(rng, task, rng.randint(min_len, max_len))
        if heldout_key(task, tuple(src)) not in keys:
            out.append(src)
    return out
