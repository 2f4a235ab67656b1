"""AppTest helpers: run one page of the real app (app.py router) in a chosen language."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.training_backend import inprocess_training  # noqa: F401  (autouse: AppTests train in-process)

ROOT = Path(__file__).resolve().parent.parent.parent
LANGS = ("ko", "en")


def open_page(page: str, lang: str, query: dict[str, str] | None = None, timeout: float = 60) -> AppTest:
    """Start the app in `lang` (via ?lang=), switch to pages/<page>.py, run it; query adds URL params."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    if page != "home":
        for key, value in (query or {}).items():
            at.query_params[key] = value
        at.switch_page(f"pages/{page}.py").run()
    return at


def all_text(at: AppTest) -> str:
    """Every visible text element, joined, for 'the key values appear' assertions."""
    parts: list[str] = []
    for kind in (
        "title",
        "header",
        "subheader",
        "markdown",
        "caption",
        "info",
        "warning",
        "error",
        "success",
        "code",
        "text",
    ):
        parts += [str(el.value) for el in getattr(at, kind)]
    return "\n".join(parts)


def toasts(at: AppTest) -> str:
    """Every toast's text (the link helper reports a rejected link value in one), markdown escapes removed."""
    return " ".join(str(x.value) for x in at.toast).replace("\\", "")


@pytest.fixture
def lang() -> str:
    """The language the behaviour tests run in: English. Both catalogs hold the same keys
    (tests/test_catalogs.py) and every page opens in both languages in tests/app/test_smoke_app.py, so a
    second language would only repeat the same code paths."""
    return "en"


@pytest.fixture
def page_runner() -> Callable[..., AppTest]:
    return open_page


def open_tab(at: AppTest, ns: str, label_key: str, lang: str = "en") -> AppTest:
    """Open one of the page's folded tabs as a learner does (its tab widget's value), then rerun: the server
    draws only the open tab, and so does every test (no tab is drawn unless it was opened)."""
    from s2s_core.catalog import translate

    at.session_state[f"{ns}_tabs"] = translate(lang, label_key)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at
