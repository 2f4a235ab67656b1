"""One Korean term per concept: the Korean catalog uses only locales/glossary.toml's term for each concept.

Run as a script (`.venv/bin/python tests/test_glossary.py`) to regenerate the table in docs/GLOSSARY.md from
the glossary; the test below fails while the two disagree.
"""

from __future__ import annotations

import re
import sys
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from the repository root
    sys.path.insert(0, str(ROOT))

from s2s_core.catalog import load_catalog  # noqa: E402

GLOSSARY = ROOT / "locales" / "glossary.toml"
DOC = ROOT / "docs" / "GLOSSARY.md"
BEGIN, END = "<!-- glossary:begin (generated from locales/glossary.toml) -->", "<!-- glossary:end -->"


@dataclass(frozen=True)
class Variant:
    text: str  # as written in the glossary (the literal, or the regex source)
    pattern: re.Pattern[str]


@dataclass(frozen=True)
class Concept:
    id: str
    en: tuple[str, ...]
    ko: str
    source: str
    note: str
    variants: tuple[Variant, ...]  # the forbidden Korean variants, literal ones first
    en_variants: tuple[Variant, ...]
    allow: tuple[tuple[str, str, str], ...]  # (key, variant text, why)


@cache
def concepts() -> tuple[Concept, ...]:
    with GLOSSARY.open("rb") as fh:
        raw = tomllib.load(fh)
    out = []
    for c in raw["concept"]:
        literal = [Variant(v, re.compile(re.escape(v))) for v in c.get("forbidden", [])]
        regex = [Variant(v, re.compile(v)) for v in c.get("forbidden_re", [])]
        out.append(
            Concept(
                id=c["id"],
                en=tuple(c["en"]),
                ko=c["ko"],
                source=c["source"],
                note=c.get("note", ""),
                variants=tuple(literal + regex),
                en_variants=tuple(Variant(v, re.compile(v)) for v in c.get("en_forbidden_re", [])),
                allow=tuple((a["key"], a["variant"], a["why"]) for a in c.get("allow", [])),
            )
        )
    return tuple(out)


def _ids() -> list[str]:
    return [c.id for c in concepts()]


def _fragment(text: str, match: re.Match[str], width: int = 18) -> str:
    start, end = max(0, match.start() - width), min(len(text), match.end() + width)
    return ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")


def violations(concept: Concept, catalog: dict[str, str], variants: tuple[Variant, ...]) -> list[str]:
    """Every "key: [variant] …fragment…" where a catalog string uses a forbidden variant not allowed for its key."""
    allowed = {(key, variant) for key, variant, _ in concept.allow}
    found = []
    for key, text in sorted(catalog.items()):
        for variant in variants:
            if (key, variant.text) in allowed:
                continue
            found += [f"{key}: [{variant.text}] {_fragment(text, m)}" for m in variant.pattern.finditer(text)]
    return found


# --- the glossary itself -------------------------------------------------------------------------------------


def test_glossary_entries_are_complete():
    seen = set()
    for c in concepts():
        assert c.id not in seen, f"duplicate concept id {c.id}"
        seen.add(c.id)
        assert c.ko.strip() and c.en and c.source.strip(), c.id
        assert c.variants or c.en_variants, f"{c.id}: a concept with nothing forbidden checks nothing"


def test_one_term_per_concept_and_one_concept_per_term():
    terms = [c.ko for c in concepts()]
    assert sorted({t for t in terms if terms.count(t) > 1}) == []


def test_no_term_is_both_canonical_and_forbidden():
    """No concept's term is, or contains, a variant that some concept forbids (its own or another's)."""
    clashes = [
        f"{c.id} term {c.ko!r} is forbidden by {d.id} [{v.text}]"
        for c in concepts()
        for d in concepts()
        for v in d.variants
        if v.pattern.search(c.ko)
    ]
    assert clashes == []


def test_every_allowance_is_still_needed():
    """An allowed use names a real Korean key whose text still contains that variant (no stale allowances)."""
    ko = load_catalog("ko")
    stale = []
    for c in concepts():
        by_text = {v.text: v for v in c.variants}
        for key, variant, why in c.allow:
            assert why.strip(), f"{c.id}: {key} needs a reason"
            assert variant in by_text, f"{c.id}: {key} allows {variant!r}, which the concept does not forbid"
            if key not in ko or not by_text[variant].pattern.search(ko[key]):
                stale.append(f"{c.id}: {key} [{variant}]")
    assert stale == []


# --- the catalogs --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("concept_id", _ids())
def test_korean_catalog_uses_only_the_glossary_term(concept_id):
    concept = next(c for c in concepts() if c.id == concept_id)
    found = violations(concept, load_catalog("ko"), concept.variants)
    assert found == [], f"use {concept.ko!r} ({', '.join(concept.en)}):\n" + "\n".join(found)


@pytest.mark.parametrize("concept_id", [c.id for c in concepts() if c.en_variants])
def test_english_catalog_uses_only_the_glossary_name(concept_id):
    concept = next(c for c in concepts() if c.id == concept_id)
    found = violations(concept, load_catalog("en"), concept.en_variants)
    assert found == [], f"use {concept.en[0]!r}:\n" + "\n".join(found)


def test_a_forbidden_variant_is_caught():
    """The check itself: a planted variant is reported with its key, an allowed key or a legitimate word is not."""
    gate = next(c for c in concepts() if c.id == "update_gate")
    planted = violations(gate, {"x.a": "가운데에 업데이트 게이트 z"}, gate.variants)
    assert planted == ["x.a: [업데이트 게이트] 가운데에 업데이트 게이트 z"]
    amap = next(c for c in concepts() if c.id == "attention_map")
    assert violations(amap, {"x.a": "z 히트맵의 진한 초록", "x.b": "어디서 멈출지도 배워야"}, amap.variants) == []
    assert len(violations(amap, {"x.a": "맵은 조심해서 읽으세요"}, amap.variants)) == 1
    clip = next(c for c in concepts() if c.id == "gradient_clipping")
    assert violations(clip, {"x.a": "기울기 크기 제한 전후"}, clip.variants) == []
    assert len(violations(clip, {"x.a": "크기 제한 전후"}, clip.variants)) == 1


# --- the human-readable page ---------------------------------------------------------------------------------


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render() -> str:
    lines = [
        BEGIN,
        "| concept | English | Korean term | source | never in Korean | note |",
        "|---|---|---|---|---|---|",
    ]
    for c in concepts():
        never = ", ".join(f"`{v.text}`" for v in c.variants)
        if c.en_variants:
            never += "; in English: " + ", ".join(f"`{v.text}`" for v in c.en_variants)
        allow = "".join(f" Allowed: `{key}` keeps `{variant}` ({why})." for key, variant, why in c.allow)
        row = [c.id, ", ".join(c.en), f"**{c.ko}**", c.source, never, c.note + allow]
        lines.append("| " + " | ".join(_cell(x) for x in row) + " |")
    lines.append(END)
    return "\n".join(lines)


def _generated_part(doc: str) -> str:
    start, end = doc.index(BEGIN), doc.index(END) + len(END)
    return doc[start:end]


def test_glossary_page_agrees_with_the_glossary():
    doc = DOC.read_text(encoding="utf-8")
    assert _generated_part(doc) == render(), "regenerate: .venv/bin/python tests/test_glossary.py"


if __name__ == "__main__":
    text = DOC.read_text(encoding="utf-8")
    DOC.write_text(text.replace(_generated_part(text), render()), encoding="utf-8")
    print(f"wrote {DOC.relative_to(ROOT)}")
