"""A student's answer to a predict-then-reveal step, and the class's tally of answers."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from s2s_core.classroom.limits import Limits
from s2s_core.errors import InputError

MAX_ANSWER_CHARS = Limits().max_answer_chars


@dataclass(frozen=True)
class Tally:
    counts: tuple[tuple[str, int], ...]  # (option id, answers) in the question's order, zeros included
    total: int  # answers counted (those naming one of the options)


def parse_answer(option: object, options: Sequence[str]) -> str:
    """One of the question's option ids; anything else (of any type or size) is an InputError."""
    if not isinstance(option, str) or len(option) > MAX_ANSWER_CHARS:
        raise InputError("classroom.errors.bad_answer", "classroom.field.answer")
    text = option.strip()
    # The options are the lesson's, but a parse function trusts nothing: a question with no options (or a
    # non-list) accepts no answer instead of raising a TypeError.
    known = options if isinstance(options, (list, tuple)) else ()
    if not any(isinstance(o, str) and o == text for o in known):
        raise InputError("classroom.errors.bad_answer", "classroom.field.answer")
    return text


def tally(answers: Iterable[str], options: Sequence[str]) -> Tally:
    """How many chose each option, in the options' order. An answer naming no option (a question edited after
    it was answered) is not counted, so the total always equals the sum of the bars drawn."""
    order = tuple(dict.fromkeys(options))  # a repeated option id is one bar
    wanted = set(order)
    seen = Counter(a for a in answers if isinstance(a, str) and a in wanted)
    counts = tuple((o, seen[o]) for o in order)
    return Tally(counts, sum(n for _, n in counts))
