"""The study note the app teaches (docs/study_note.ko.txt, Korean), for tests that check what the app quotes from it.

The note is kept in the repository, unchanged, so that a test can check every phrase the app attributes to it;
the app itself never shows it (its explanations are written in the app's own words).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

NOTE = Path(__file__).resolve().parents[1] / "docs" / "study_note.ko.txt"
# The note's one name in each language (locales/glossary.toml); other names are the glossary test's to forbid.
NAMES = {"en": re.compile(r"\bstudy note\b", re.I), "ko": re.compile(r"학습 노트")}
# Quoted as the note's: in backticks or double quotation marks (single ones mark the app's own additions).
QUOTED = re.compile(r"`([^`]+)`|“([^”]+)”|\"([^\"]+)\"")
HANGUL = re.compile("[가-힣]")


@cache
def text() -> str:
    return NOTE.read_text(encoding="utf-8")


def quoted(sentence: str) -> list[str]:
    """The phrases a sentence quotes (in backticks or quotation marks)."""
    return [next(g for g in m.groups() if g) for m in QUOTED.finditer(sentence)]


def korean_quotes(sentence: str) -> list[str]:
    return [q for q in quoted(sentence) if HANGUL.search(q)]
