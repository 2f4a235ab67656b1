"""House rules that can be checked: the core never imports streamlit, the worker pool, the database or process
machinery; the database layer never imports the jobs or the UI; no import cycle between modules or packages; nothing
in the app looks at what the tests imported; pages hold no math."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


# The core, the database, the training jobs, the Streamlit pieces (in that order: each imports only those before it).
LAYERS = ("s2s_core", "s2s_db", "s2s_jobs", "s2s_ui")


def test_core_imports_without_streamlit_or_the_worker_pool():
    """Importing every core module loads no streamlit, no s2s_jobs, and no process machinery of its own: the
    multiprocessing / concurrent.futures modules loaded are exactly those torch, pandas and altair load themselves
    (torch imports torch.multiprocessing), never a forkserver, a process pool or a popen."""
    code = (
        "import importlib, pkgutil, sys\n"
        "import altair, pandas, torch\n"
        "def machinery():\n"
        "    return {m for m in sys.modules if m.split('.')[0] in ('multiprocessing', 'concurrent')}\n"
        "theirs = machinery()\n"
        "import s2s_core\n"
        "for m in pkgutil.walk_packages(s2s_core.__path__, 's2s_core.'):\n"
        "    importlib.import_module(m.name)\n"
        "assert 'streamlit' not in sys.modules, 'streamlit imported by the core'\n"
        "assert not [m for m in sys.modules if m.startswith('s2s_jobs')], 's2s_jobs imported by the core'\n"
        "assert not [m for m in sys.modules if m.split('.')[0] in ('s2s_db', 'sqlalchemy', 'alembic', 'psycopg')]\n"
        "assert machinery() == theirs, sorted(machinery() - theirs)\n"
        "assert not [m for m in theirs if m.rsplit('.', 1)[-1] in ('forkserver', 'pool', 'process')\n"
        "            and m != 'multiprocessing.process'], sorted(theirs)\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


CORE_NEVER_IMPORTS = ("streamlit", "s2s_ui", "s2s_jobs", "multiprocessing", "concurrent", "subprocess")
CORE_NEVER_IMPORTS += ("s2s_db", "sqlalchemy", "alembic", "psycopg")  # the core is pure: no database, no driver
DB_NEVER_IMPORTS = ("s2s_jobs", "s2s_ui", "streamlit")


def test_no_core_module_imports_the_ui_the_jobs_or_process_machinery():
    """Anywhere in a core file (a function's own import too): the pool, the queue and the UI live outside the core."""
    offenders = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in sorted((ROOT / "s2s_core").rglob("*.py"))
        for name in _imported_names(ast.parse(path.read_text(encoding="utf-8")), anywhere=True)
        if name.split(".")[0] in CORE_NEVER_IMPORTS
    ]
    assert offenders == []


def test_no_database_module_imports_the_jobs_or_the_ui():
    """Anywhere in an s2s_db file: the database sits below the jobs and the UI (a migration script too)."""
    offenders = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in sorted((ROOT / "s2s_db").rglob("*.py"))
        for name in _imported_names(ast.parse(path.read_text(encoding="utf-8")), anywhere=True)
        if name.split(".")[0] in DB_NEVER_IMPORTS
    ]
    assert offenders == []


def test_no_import_cycle_between_modules_or_packages():
    """The module-level imports of s2s_core, s2s_db, s2s_jobs and s2s_ui (read with ast: an import inside a function, or
    under `if TYPE_CHECKING`, runs later or never) form no cycle; nor do their packages (s2s_core.training,
    s2s_ui.training, ...; a top-level module belongs to its package, s2s_core.fields to s2s_core)."""
    modules, edges = import_graph()
    assert _cycles(edges) == []
    packages: dict[str, set[str]] = {_package(m, modules): set() for m in modules}
    for source, targets in edges.items():
        packages[_package(source, modules)] |= {_package(t, modules) for t in targets} - {_package(source, modules)}
    assert _cycles(packages) == []
    layer = {p: LAYERS.index(p.split(".")[0]) for p in packages}
    assert [(a, b) for a, bs in packages.items() for b in bs if layer[b] > layer[a]] == []  # core <- db <- jobs <- ui


def test_nothing_in_the_app_looks_at_what_the_tests_imported():
    """No switch that tests flip by being there (the training backend was once chosen by looking for pytest in
    sys.modules): what a test runs is chosen by explicit configuration (tests/training_backend.py)."""
    files = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py"))]
    files += [p for d in LAYERS for p in sorted((ROOT / d).rglob("*.py"))]
    sniff = re.compile(r"""["'](pytest|_pytest|streamlit\.testing)["']|PYTEST_CURRENT_TEST""")
    assert [str(p.relative_to(ROOT)) for p in files if sniff.search(p.read_text(encoding="utf-8"))] == []


def import_graph() -> tuple[dict[str, bool], dict[str, set[str]]]:
    """({module: is a package}, {module: the modules it imports at module level}) over the LAYERS' packages.
    `from a.b import c` is an edge to a.b.c when that is a module, else to a.b."""
    paths: dict[str, Path] = {}
    modules: dict[str, bool] = {}
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            paths[name], modules[name] = path, parts[-1] == "__init__"
    edges: dict[str, set[str]] = {}
    for name, path in paths.items():
        targets = _imported_names(ast.parse(path.read_text(encoding="utf-8")), anywhere=False, modules=modules)
        edges[name] = {t for t in targets if t in modules and t != name}
    return modules, edges


def _imported_names(tree: ast.Module, *, anywhere: bool, modules: dict[str, bool] | None = None) -> list[str]:
    """The modules a file imports: every import statement (anywhere=True), or those that run when it is imported."""
    nodes = ast.walk(tree) if anywhere else _module_level(tree.body)
    names: list[str] = []
    for node in nodes:
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names += [
                f"{node.module}.{a.name}" if modules and f"{node.module}.{a.name}" in modules else node.module
                for a in node.names
            ]
    return names


def _module_level(body: list[ast.stmt]):
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and "TYPE_CHECKING" not in ast.unparse(node.test):
            yield from _module_level(node.body)
            yield from _module_level(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, *(h.body for h in node.handlers), node.orelse, node.finalbody):
                yield from _module_level(block)


def _package(module: str, modules: dict[str, bool]) -> str:
    return module if modules[module] else module.rpartition(".")[0]


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one member (Tarjan), each sorted: every import cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while not component or component[-1] != v:
                component.append(stack.pop())
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


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
