"""The learner's own parallel sentences for the Translation lab: pasted or uploaded text, one pair a line.

    data = read_pairs(raw, source_chars=False, target_chars=False)   # raw: str (pasted) or bytes (uploaded)
    data.pairs       # the usable pairs, in order: Pair(line, source tokens, target tokens)
    data.problems    # each bad line: Problem(line, key, params), named to the learner; the rest is used
    split = split_heldout(data.pairs, seed=0)                        # held out by distinct target

A line is `source<TAB>target`. Tokens are whitespace-separated words, or each character (spaces dropped) for a
language written without spaces. Every bad line is named with its number and why (no tab or more than one, an
empty side, too many tokens, an invisible or control character, a reserved token); the text as a whole is refused
only when it cannot be read at all (not UTF-8 text, over the size cap, or no usable pair). Caps live here because
a page, a link or an upload can hand over anything. Nothing is written anywhere: the caller keeps the data in the
session.
"""

from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass
from typing import Any

from s2s_core.errors import InputError
from s2s_core.vocab import SPECIALS

MAX_BYTES = 512 * 1024  # the whole text: 2,000 pairs of 12 short tokens a side fit with room to spare
MAX_PAIRS = 2000  # usable pairs; later lines are named as over the cap
MAX_PAIR_TOKENS = 12  # tokens on each side of a pair
MAX_PROBLEMS = 50  # bad lines named one by one; the rest are counted
MIN_PAIRS = 10  # fewer usable pairs than this cannot be split and trained on
HELDOUT_FRACTION = 0.1  # of the distinct targets, held out for the exact match
FIELD = "translation.own.field"  # the field every message names

_SEPARATOR = "\t"


@dataclass(frozen=True)
class Pair:
    line: int  # 1-based line number in the learner's text
    source: tuple[str, ...]
    target: tuple[str, ...]


@dataclass(frozen=True)
class Problem:
    line: int
    key: str  # catalog key of why the line was not used
    params: dict[str, Any]


@dataclass(frozen=True)
class OwnData:
    pairs: tuple[Pair, ...]
    problems: tuple[Problem, ...]  # at most MAX_PROBLEMS, in line order
    n_bad: int  # every bad line, named or not
    n_lines: int  # non-blank lines read

    @property
    def unnamed_bad(self) -> int:
        return self.n_bad - len(self.problems)


@dataclass(frozen=True)
class Split:
    train: tuple[Pair, ...]
    heldout: tuple[Pair, ...]  # every pair whose target is one of the held-out targets
    heldout_targets: tuple[tuple[str, ...], ...]


def decode(raw: str | bytes) -> str:
    """The learner's text: a pasted string, or an upload's bytes as UTF-8 (a byte-order mark dropped). Binary data
    and text over MAX_BYTES are refused as a whole."""
    if isinstance(raw, bytes | bytearray):
        if len(raw) > MAX_BYTES:
            raise InputError("translation.own.too_big", FIELD, size=len(raw), limit=MAX_BYTES)
        try:
            text = bytes(raw).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise InputError("translation.own.not_text", FIELD) from None
    elif isinstance(raw, str):
        if len(raw) > MAX_BYTES:  # characters: a str over the byte cap in characters is over it in bytes too
            raise InputError("translation.own.too_big", FIELD, size=len(raw), limit=MAX_BYTES)
        text = raw.removeprefix("\ufeff")
    else:
        raise InputError("translation.own.not_text", FIELD)
    if "\x00" in text:
        raise InputError("translation.own.not_text", FIELD)
    return text


def _invisible(text: str) -> str | None:
    """The first control or format character (zero-width, right-to-left override, ...) other than the tab, as
    U+XXXX, or None. Right-to-left letters are letters and pass; only the invisible ones that change how a line
    reads are refused."""
    for ch in text:
        if ch != _SEPARATOR and unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn"):
            return f"U+{ord(ch):04X}"
    return None


def tokens_of(side: str, chars: bool) -> tuple[str, ...]:
    """One side's tokens: whitespace-separated words, or each character (spaces dropped)."""
    return tuple(ch for ch in side if not ch.isspace()) if chars else tuple(side.split())


def _read_line(line: str, n: int, source_chars: bool, target_chars: bool) -> Pair | Problem:
    line = unicodedata.normalize("NFC", line)
    found = _invisible(line)
    if found is not None:
        return Problem(n, "translation.own.invisible", {"line": n, "char": found})
    columns = line.split(_SEPARATOR)
    if len(columns) != 2:
        return Problem(n, "translation.own.columns", {"line": n, "count": len(columns)})
    source, target = tokens_of(columns[0], source_chars), tokens_of(columns[1], target_chars)
    if not source or not target:
        return Problem(n, "translation.own.empty_side", {"line": n})
    longest = max(len(source), len(target))
    if longest > MAX_PAIR_TOKENS:
        return Problem(n, "translation.own.too_long", {"line": n, "count": longest, "limit": MAX_PAIR_TOKENS})
    reserved = next((tok for tok in (*source, *target) if tok in SPECIALS), None)
    if reserved is not None:
        return Problem(n, "translation.own.reserved", {"line": n, "token": reserved})
    return Pair(n, source, target)


def read_pairs(raw: str | bytes, *, source_chars: bool = False, target_chars: bool = False) -> OwnData:
    """Every usable pair of the learner's text, and every bad line named (module docstring). Blank lines are
    skipped. Refused as a whole (InputError naming the field): unreadable text, or fewer than MIN_PAIRS pairs."""
    text = decode(raw)
    pairs: list[Pair] = []
    problems: list[Problem] = []
    n_bad = n_lines = 0
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        n_lines += 1
        read = _read_line(line, n, source_chars, target_chars)
        if isinstance(read, Pair) and len(pairs) >= MAX_PAIRS:
            read = Problem(n, "translation.own.over_cap", {"line": n, "limit": MAX_PAIRS})
        if isinstance(read, Pair):
            pairs.append(read)
            continue
        n_bad += 1
        if len(problems) < MAX_PROBLEMS:
            problems.append(read)
    if len(pairs) < MIN_PAIRS:
        raise InputError("translation.own.too_few", FIELD, count=len(pairs), least=MIN_PAIRS, bad=n_bad)
    return OwnData(tuple(pairs), tuple(problems), n_bad, n_lines)


def split_heldout(pairs: tuple[Pair, ...], *, seed: int, fraction: float = HELDOUT_FRACTION) -> Split:
    """Hold out a `fraction` of the distinct targets (at least one, and never all): every pair with a held-out
    target is held out, so the exact match is measured on sentences the model never saw as answers. The choice
    depends on the seed and on the targets only, not on their order."""
    targets = sorted({p.target for p in pairs})
    if len(targets) < 2:
        raise InputError("translation.own.one_target", FIELD)
    k = min(max(1, round(fraction * len(targets))), len(targets) - 1)
    held = frozenset(random.Random(seed).sample(targets, k))
    train = tuple(p for p in pairs if p.target not in held)
    heldout = tuple(p for p in pairs if p.target in held)
    return Split(train, heldout, tuple(sorted(held)))
