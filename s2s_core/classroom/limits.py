"""A class's caps (students, open classes, lifetime, answer size, join rates) and their reading from the environment."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from s2s_core.errors import InputError

# The environment is the operator's, but a deploy tool can put anything there: cap it before parsing.
_MAX_ENV_CHARS = 16
_DIGITS = re.compile(r"[0-9]{1,6}")  # ASCII only: int() would also take "٣" or "1_000"


@dataclass(frozen=True)
class Limits:
    max_students: int = 200
    max_open_classes: int = 100
    lifetime_s: int = 6 * 3600
    max_answer_chars: int = 32
    session_joins_per_min: int = 6
    server_joins_per_min: int = 300
    poll_s: float = 1.0


# env name -> (Limits field, catalog key of the field, lo, hi, factor to the Limits unit)
ENV_VARS: dict[str, tuple[str, str, int, int, int]] = {
    "S2S_CLASS_HOURS": ("lifetime_s", "classroom.field.env_hours", 1, 72, 3600),
    "S2S_CLASS_MAX_STUDENTS": ("max_students", "classroom.field.env_max_students", 1, 1000, 1),
    "S2S_MAX_OPEN_CLASSES": ("max_open_classes", "classroom.field.env_max_open_classes", 1, 1000, 1),
}


def _env_int(raw: object, field: str, lo: int, hi: int) -> int:
    if not isinstance(raw, str) or len(raw) > _MAX_ENV_CHARS:
        raise InputError("classroom.errors.bad_setting", field, lo=lo, hi=hi)
    text = raw.strip()
    if not _DIGITS.fullmatch(text):
        raise InputError("classroom.errors.bad_setting", field, lo=lo, hi=hi)
    number = int(text)
    if not lo <= number <= hi:
        raise InputError("classroom.errors.bad_setting", field, lo=lo, hi=hi)
    return number


def limits_from_env(env: Mapping[str, str]) -> Limits:
    """The defaults, with S2S_CLASS_HOURS, S2S_CLASS_MAX_STUDENTS, S2S_MAX_OPEN_CLASSES applied when set.

    An unset or blank variable keeps the default; any other value outside its range is an InputError naming
    the variable, so a misconfigured server says so at start-up instead of running with a surprising cap."""
    changes: dict[str, int] = {}
    for name, (attr, field, lo, hi, factor) in ENV_VARS.items():
        raw = env.get(name)
        if raw is None or (isinstance(raw, str) and raw.strip() == "" and len(raw) <= _MAX_ENV_CHARS):
            continue
        changes[attr] = _env_int(raw, field, lo, hi) * factor
    return replace(Limits(), **changes)
