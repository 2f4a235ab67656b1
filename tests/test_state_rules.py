"""House rules of the page layer: one declaration per input, one mechanism per job, thin pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from s2s_ui.registry import existing_pages
from s2s_ui.state import Page

ROOT = Path(__file__).resolve().parent.parent
PAGE_FILES = sorted((ROOT / "pages").glob("*.py"))
UI_FILES = sorted((ROOT / "s2s_ui").rglob("*.py"))
MAX_PAGE_LINES = 250


def test_no_page_file_is_over_250_lines():
    long = {p.name: n for p in PAGE_FILES if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_PAGE_LINES}
    assert long == {}


@pytest.mark.parametrize("ns", [p.ns for p in existing_pages() if p.ns != "home"])
def test_every_page_declares_its_fields_and_draws_them_through_its_registry(ns):
    page = Page.of(ns)  # s2s_core/<ns>/fields.py: FIELDS
    prefixes = (f"{ns}_", "att_") if ns == "attention" else (f"{ns}_",)  # the attention page's inputs keep "att_"
    assert [f.key for f in page.fields if not f.key.startswith(prefixes)] == []
    kinds = [f.kind for f in page.fields]
    assert kinds.count("tab") == 1  # the open tab is a field, so it lives in the link
    homes = [ROOT / "pages" / f"{ns}.py", *sorted((ROOT / "s2s_ui" / ns).glob("*.py"))]  # the page or its package
    text = "".join(p.read_text(encoding="utf-8") for p in homes if p.exists())
    assert re.search(rf"Page\(\s*\"{ns}\"", text), "the page builds its registry from its fields"


def test_one_way_to_keep_state_in_the_link():
    """Only s2s_ui/link.py (the link's primitives), s2s_ui/state.py (the registry) and s2s_ui/i18n.py (?lang=) touch
    st.query_params; no page or UI helper keeps a hand-written list of keys or calls the old widget helpers."""
    allowed = {"s2s_ui/link.py", "s2s_ui/state.py", "s2s_ui/i18n.py"}
    files = [*PAGE_FILES, *UI_FILES, ROOT / "app.py"]
    rel = {p: str(p.relative_to(ROOT)) for p in files}
    # Streamlit's link (st.query_params, or imported by name); a Starlette request's own query_params (the follow
    # route, s2s_ui/classroom/route.py) is an HTTP request's, not the page's link.
    streamlit_link = re.compile(r"\bst\.query_params|\bstreamlit\.query_params|import[^\n]*\bquery_params\b")
    query = [rel[p] for p in files if streamlit_link.search(p.read_text(encoding="utf-8")) and rel[p] not in allowed]
    assert query == []
    helpers = r"(?<![.\w])(linked|matrix_input|reset_button|try_this|current_step|step_view)\("
    old = re.compile(helpers + r"|\b(INPUT_KEYS|KEYS)\s*=")
    offenders = [p.name for p in PAGE_FILES if old.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_no_docstring_or_comment_points_outside_the_repository():
    dirs = ("pages", "s2s_core", "s2s_ui", "s2s_jobs", "scripts", "tests")
    files = [p for d in dirs for p in (ROOT / d).rglob("*.py")]
    files += [ROOT / "app.py", ROOT / "Makefile", *(ROOT / "docs").glob("*.md"), ROOT / "README.md"]
    outside = re.compile(r"GUIDE\.md|\.\./shared|design[ ]guide")
    offenders = [str(p.relative_to(ROOT)) for p in files if outside.search(p.read_text(encoding="utf-8"))]
    assert offenders == []
