"""Korean and English text catalogs: locales/<lang>/<namespace>.toml, flattened to "namespace.key".

Pure Python (no streamlit), so tests can check the catalogs without running the app, and the core's notebook API
(s2s_core/show) labels its pictures with the same words the pages use. The page computations themselves never
read it: a page passes its words in (`words`), so a cached spec is keyed by its language.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path


def _locales_dir() -> Path:
    """locales/ at the repository's root; inside the package once installed (pyproject.toml ships the same files
    as s2s_core/locales, so `pip install .` gives the notebook API its words: s2s_core/show)."""
    here = Path(__file__).resolve().parent
    packaged = here / "locales"
    return packaged if packaged.is_dir() else here.parent / "locales"


LOCALES_DIR = _locales_dir()
LANGS = ("ko", "en")


def _flatten(prefix: str, table: dict, out: dict[str, str]) -> None:
    for name, value in table.items():
        key = f"{prefix}.{name}"
        if isinstance(value, dict):
            _flatten(key, value, out)
        else:
            out[key] = str(value)


@cache
def load_catalog(lang: str) -> dict[str, str]:
    """Every key of one language, e.g. {"attention.title": "Attention weighting", ...}."""
    out: dict[str, str] = {}
    for path in sorted((LOCALES_DIR / lang).glob("*.toml")):
        with path.open("rb") as fh:
            _flatten(path.stem, tomllib.load(fh), out)
    return out


def translate(lang: str, key: str, **fmt: object) -> str:
    """The text for key in lang with {placeholders} filled; a missing key shows itself (tests forbid it)."""
    text = load_catalog(lang if lang in LANGS else "en").get(key)
    if text is None:
        return f"⟦{key}⟧"
    try:
        return text.format(**fmt) if fmt else text
    except (KeyError, IndexError, ValueError):
        return text


def words(lang: str, prefix: str, keys: tuple[str, ...]) -> dict[str, str]:
    """The words a chart builder takes, {key: text of "<prefix>.<key>"}: the one way a page hands a picture its
    labels. `keys` is the builder's own tuple (e.g. s2s_core.rnn.picture.WORDS), so tests import the same list;
    `lang` is an argument (not the session's) because the spec is cached by it."""
    return {k: translate(lang, f"{prefix}.{k}") for k in keys}
