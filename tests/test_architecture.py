"""House rules that can be checked: the core never imports streamlit; pages hold no math."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_core_imports_without_streamlit():
    code = (
        "import importlib, pkgutil, sys, s2s_core\n"
        "for m in pkgutil.walk_packages(s2s_core.__path__, 's2s_core.'):\n"
        "    importlib.import_module(m.name)\n"
        "assert 'streamlit' not in sys.modules, 'streamlit imported by the core'\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_pages_hold_no_math():
    math = re.compile(
        r"torch\.(matmul|tanh|sigmoid|softmax|einsum|bmm|tensor)|nn\.(LSTM|GRU|RNN|Linear)\(|\bimport torch\b"
    )
    offenders = [p.name for p in sorted((ROOT / "pages").glob("*.py")) if math.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_pages_hold_no_literal_ui_strings():
    literal = re.compile(
        r"""st\.(title|header|subheader|markdown|caption|info|warning|error|success)\(\s*f?["'][A-Za-z가-힣]"""
    )
    offenders = [p.name for p in sorted((ROOT / "pages").glob("*.py")) if literal.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


# The one exception: s2s_ui/style.py injects the app's fixed CSS (a constant string, never user text).
HTML_ALLOWED = {"s2s_ui/style.py"}


def test_no_unsafe_html_anywhere():
    offenders = [
        str(p.relative_to(ROOT))
        for d in ("pages", "s2s_ui")
        for p in sorted((ROOT / d).rglob("*.py"))
        if ("unsafe_allow_html=True" in p.read_text(encoding="utf-8") or "st.html(" in p.read_text(encoding="utf-8"))
        and str(p.relative_to(ROOT)) not in HTML_ALLOWED
    ]
    assert offenders == []


def test_every_page_starts_with_page_header():
    """page_header() (called by explainer()) also reroutes a bare first-visit run through app.py (s2s_ui/frame.py)."""
    offenders = [
        p.name
        for p in sorted((ROOT / "pages").glob("*.py"))
        if not re.search(r"\b(page_header|explainer)\(", p.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_every_url_path_is_its_file_stem():
    """A fresh server's first deep link to a path that is not a file name under pages/ shows "Page not found"."""
    from s2s_ui.registry import PAGES

    assert [(p.ns, p.url) for p in PAGES if Path(p.file).stem != p.url] == []


def test_one_way_to_keep_state_in_the_link():
    """Every linked widget goes through s2s_ui/link.py: no Streamlit binding, no private query-param fields."""
    files = [*sorted((ROOT / "pages").glob("*.py")), *sorted((ROOT / "s2s_ui").rglob("*.py")), ROOT / "app.py"]
    files.remove(ROOT / "s2s_ui" / "link.py")  # its docstring says why binding is not used
    # Streamlit's widget binding only: a Vega-Lite slider bound inside a chart (s2s_ui/steps.py) is not URL state.
    streamlit_bind = re.compile(r"\bbind\s*=\s*[\"']query-params")
    bound = [str(p.relative_to(ROOT)) for p in files if streamlit_bind.search(p.read_text(encoding="utf-8"))]
    private = [str(p.relative_to(ROOT)) for p in files if "_initial_query_params" in p.read_text(encoding="utf-8")]
    assert bound == [] and private == []
