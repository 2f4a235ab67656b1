"""The core's packages for `pip install .` (the metadata is in pyproject.toml): s2s_core and its subpackages, and
the text catalogs at the repository's root, locales/, shipped inside it as s2s_core/locales so the notebook API's
pictures carry the pages' words (s2s_core/catalog.py finds them in either place). Tests: tests/test_package.py."""

from pathlib import Path

from setuptools import find_packages, setup

# locales/<lang>/ as data-only packages s2s_core.locales.<lang> (setuptools ships data files by package).
LANGUAGES = sorted(p.name for p in Path(__file__).resolve().parent.joinpath("locales").iterdir() if p.is_dir())
CATALOGS = ["s2s_core.locales", *(f"s2s_core.locales.{lang}" for lang in LANGUAGES)]

setup(
    packages=[*find_packages(include=["s2s_core", "s2s_core.*"]), *CATALOGS],
    package_dir={"s2s_core.locales": "locales"},
    package_data={name: ["*.toml"] for name in CATALOGS},
)
