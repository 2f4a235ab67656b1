"""Every key exists in both languages, placeholders agree, and every key the code names exists."""

from __future__ import annotations

import re
import string
from pathlib import Path

from s2s_core.catalog import LANGS, load_catalog

ROOT = Path(__file__).resolve().parent.parent
CODE_DIRS = ("app.py", "pages", "s2s_ui", "s2s_core")


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_both_languages_have_the_same_keys():
    ko, en = load_catalog("ko"), load_catalog("en")
    assert sorted(set(ko) - set(en)) == [], "keys only in Korean"
    assert sorted(set(en) - set(ko)) == [], "keys only in English"


def test_placeholders_agree_between_languages():
    ko, en = load_catalog("ko"), load_catalog("en")
    mismatched = [k for k in en if _placeholders(en[k]) != _placeholders(ko[k])]
    assert mismatched == []


def test_no_empty_strings():
    for lang in LANGS:
        assert [k for k, v in load_catalog(lang).items() if not v.strip()] == []


def _code_files() -> list[Path]:
    files: list[Path] = []
    for name in CODE_DIRS:
        path = ROOT / name
        files += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return files


def test_every_key_named_in_code_exists():
    """A string literal shaped like "<namespace>.<key>" for a known namespace must be a real key."""
    catalog = load_catalog("en")
    namespaces = {k.split(".")[0] for k in catalog}
    pattern = re.compile(r"""["']((?:{})\.[a-z0-9_]+(?:\.[a-z0-9_]+)*)["']""".format("|".join(sorted(namespaces))))
    missing = []
    for path in _code_files():
        for key in pattern.findall(path.read_text(encoding="utf-8")):
            if key.endswith((".py", ".toml")):
                continue
            if key.endswith("_"):  # a prefix completed at run time, e.g. "scoring.from_" + option
                assert any(k.startswith(key) for k in catalog), f"{path.name}: no key starts with {key}"
                continue
            if any(k.startswith(f"{key}.") for k in catalog):  # a section's prefix, as s2s_core.catalog.words takes
                continue
            if key not in catalog:
                missing.append(f"{path.relative_to(ROOT)}: {key}")
    assert missing == []


def test_every_existing_page_has_title_intro_summary():
    from s2s_ui.registry import existing_pages

    catalog = load_catalog("en")
    for spec in existing_pages():
        for part in ("title", "intro", "summary"):
            assert f"{spec.ns}.{part}" in catalog, f"{spec.ns}.{part}"
