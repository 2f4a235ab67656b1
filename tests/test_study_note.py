"""What the app attributes to the study note is in the study note (issue 24 §2), on every page, in both languages.

The audit found cases that called 나는 도서관에서 책을 읽는다 "the syllabus's example" and a corpus "the
syllabus's own": the note has neither. Every catalog sentence that names the note (by its one name, which the
glossary test enforces) quotes what it attributes to it, and every Korean phrase it quotes is in the note.
"""

from __future__ import annotations

import re

import pytest

from s2s_core.catalog import LANGS, load_catalog
from tests.study_note import HANGUL, NAMES, QUOTED, korean_quotes, text

# A sentence that says something IS the note's (its example, sentence, corpus, batch …) must quote it.
CLAIMS = {
    "en": re.compile(
        r"study note's (own )?(corpus|sentences?|example|batch|prefix)|\bstudy note (reads|writes)\b", re.I
    ),
    "ko": re.compile(r"학습 노트의 (말뭉치|문장|예문|예\b|배치|앞부분)|학습 노트는"),
}


def sentences_naming_the_note(lang: str) -> list[tuple[str, str]]:
    """(key, sentence) for every sentence of the catalogs that names the note."""
    out = []
    for key, value in load_catalog(lang).items():
        for sentence in re.split(r"(?<=[.!?。])\s+", value):
            if NAMES[lang].search(sentence):
                out.append((key, sentence))
    return out


def test_the_note_is_in_the_repository():
    assert "## 1." in text() and "[3.4, 2.2]" in text()  # the attention page's worked example comes from it


@pytest.mark.parametrize("lang", LANGS)
def test_every_phrase_quoted_from_the_note_is_in_it(lang):
    found = sentences_naming_the_note(lang)
    assert found, lang  # the Korean try-this cases name the note
    for key, sentence in found:
        code = re.findall(r"`([^`]+)`", sentence)  # code or Korean in backticks: the note's own words
        missing = [q for q in dict.fromkeys(korean_quotes(sentence) + code) if q not in text()]
        assert not missing, f"{lang} {key}: {missing} is not in the study note"
        if CLAIMS[lang].search(sentence):  # what it calls the note's, it quotes
            assert korean_quotes(sentence) or code, f"{lang} {key}: claims without a quote: {sentence}"
        if lang == "en":  # no unquoted Korean beside the note's name: it would read as the note's
            assert not HANGUL.search(QUOTED.sub("", sentence)), f"{key}: {sentence}"


def test_the_rule_catches_the_old_attributions():
    """The sentences the audit found would fail: not in the note, or a claim without a quote."""
    assert "나는 도서관에서 책을 읽는다" not in text() and "나는 → 책을 → 읽는다" in text()
    old = "The study note's example: 나는 도서관에서 책을 읽는다, one word per step."
    assert CLAIMS["en"].search(old) and not korean_quotes(old) and HANGUL.search(QUOTED.sub("", old))
    quoted_old = "학습 노트의 예문 `나는 도서관에서 책을 읽는다`"
    assert [q for q in korean_quotes(quoted_old) if q not in text()]
