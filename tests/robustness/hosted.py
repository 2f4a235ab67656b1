"""What a hosted demo may rely on: the packages requirements.txt pulls in (with their own dependencies)."""

from __future__ import annotations

import ast
import re
import sys
from importlib.metadata import PackageNotFoundError, distribution, packages_distributions
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent.parent
# What a deploy ships: the code, its catalogs (locales/) and lessons (lessons/), the server config, the requirements.
APP_PARTS = (
    "app.py",
    "pages",
    "s2s_core",
    "s2s_db",
    "s2s_jobs",
    "s2s_ui",
    "locales",
    "lessons",
    ".streamlit",
    "requirements.txt",
)
LOCAL = {"s2s_core", "s2s_db", "s2s_jobs", "s2s_ui", "pages"}


def requirement_names(path: Path) -> list[str]:
    names = []
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-"):
            names.append(Requirement(line).name)
    return names


def runtime_closure(names: list[str]) -> set[str]:
    """Canonical names of the requirements and everything they require (markers evaluated, no extras)."""
    seen: set[str] = set()
    stack = list(names)
    while stack:
        name = canonicalize_name(stack.pop())
        if name in seen:
            continue
        try:
            dist = distribution(name)
        except PackageNotFoundError:
            continue
        seen.add(name)
        for raw in dist.requires or []:
            req = Requirement(raw)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                stack.append(req.name)
    return seen


def module_owners() -> dict[str, set[str]]:
    """Top-level importable name -> canonical distribution names providing it."""
    return {mod: {canonicalize_name(d) for d in dists} for mod, dists in packages_distributions().items()}


def dev_only_modules() -> set[str]:
    """Installed top-level modules that no runtime requirement provides (pytest, playwright, psutil, ...)."""
    allowed = runtime_closure(requirement_names(ROOT / "requirements.txt"))
    return {
        mod
        for mod, owners in module_owners().items()
        if not owners & allowed and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", mod)
    }


def app_imports() -> dict[str, set[str]]:
    """Top-level modules imported anywhere in the app's code -> files importing them (absolute imports only)."""
    found: dict[str, set[str]] = {}
    files = [
        ROOT / "app.py",
        *(ROOT / "pages").glob("*.py"),
        *(ROOT / "s2s_core").rglob("*.py"),
        *(ROOT / "s2s_db").rglob("*.py"),
        *(ROOT / "s2s_jobs").rglob("*.py"),
        *(ROOT / "s2s_ui").rglob("*.py"),
    ]
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                found.setdefault(name.split(".")[0], set()).add(str(path.relative_to(ROOT)))
    return found


def stdlib() -> frozenset[str]:
    return frozenset(sys.stdlib_module_names)


BLOCKER = '''
"""Launch streamlit with every dev-only package made unimportable (as on a host with requirements.txt only)."""
import importlib.abc, sys
BLOCKED = set({blocked!r})
LOG = {log!r}

class DevOnly(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        top = name.split(".")[0]
        if top in BLOCKED:
            # Who asked: the first frame outside the import machinery (the app, or a library trying extras).
            f = sys._getframe(1)
            while f and (f.f_code.co_filename.startswith("<frozen") or "importlib" in f.f_code.co_filename):
                f = f.f_back
            with open(LOG, "a") as fh:
                fh.write(f"{{name}} {{f.f_code.co_filename if f else '?'}}\\n")
            raise ModuleNotFoundError(f"No module named {{name!r}} (dev-only: not in requirements.txt)", name=name)
        return None

for mod in [m for m in sys.modules if m.split(".")[0] in BLOCKED]:
    del sys.modules[mod]
sys.meta_path.insert(0, DevOnly())
sys.argv = ["streamlit", "run", "app.py", *sys.argv[1:]]
from streamlit.web.cli import main
sys.exit(main())
'''


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Every file under root (bytecode caches aside) -> (size, mtime_ns)."""
    out = {}
    for path in root.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts:
            st = path.stat()
            out[str(path.relative_to(root))] = (st.st_size, st.st_mtime_ns)
    return out
