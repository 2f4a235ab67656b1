"""The core installs as a package (pyproject.toml): a wheel built from the repository holds s2s_core and nothing of
the app, asks for no Streamlit, and, installed on its own, imports and computes with Streamlit made unimportable
and the repository out of sight (issue 29: `pip install .`, the import name s2s_core)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Run by a fresh interpreter: the installed core, not the repository's, with `import streamlit` failing.
USE_INSTALLED = """
import sys
sys.path = [p for p in sys.path if p not in ("", {root!r})]  # the repository itself out of sight
sys.path.insert(0, {site!r})
sys.modules["streamlit"] = None  # any `import streamlit` now raises ImportError
import torch
import s2s_core
from s2s_core.lstm.compute import explain_lstm, make_lstm
from s2s_core.own_weights import load_weights
assert s2s_core.__file__.startswith({site!r}), s2s_core.__file__
x = torch.randn(4, 3, dtype=torch.float64)  # (S, E)
result = explain_lstm(make_lstm(3, 2, seed=1), x, ("a", "b", "c", "d"))
assert result.max_abs_diff < 1e-12
# The notebook API, with the pages' words read from the package's own copy of the catalogs.
from torch import nn
from s2s_core import show_lstm
from s2s_core.catalog import LOCALES_DIR
assert str(LOCALES_DIR).startswith({site!r}), LOCALES_DIR
shown = show_lstm(nn.LSTM(3, 2), torch.randn(4, 3), lang="ko")
spec = str(shown.chart.to_dict())
assert shown.result.max_abs_diff < 1e-12 and "⟦" not in spec and "LSTM" in spec
print("ok", s2s_core.__file__)
"""


def build_wheel(tmp_path: Path) -> Path:
    """`pip wheel .` on a copy of what the package is made of (the repository is left as it was)."""
    src = tmp_path / "src"
    src.mkdir()
    shutil.copy(ROOT / "pyproject.toml", src)
    shutil.copy(ROOT / "setup.py", src)
    shutil.copytree(ROOT / "s2s_core", src / "s2s_core", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "locales", src / "locales")  # shipped as s2s_core/locales (pyproject.toml)
    out = tmp_path / "wheel"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "--no-build-isolation", "-q", "-w", str(out)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = out.glob("*.whl")
    return wheel


def test_the_distribution_is_named_apart_from_its_import_name_and_asks_for_no_streamlit():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == "seq2seq-explainer-core"
    assert not any(dep.lower().startswith("streamlit") for dep in project["dependencies"])
    runtime = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    assert "torch==2.13.0" in project["dependencies"] and "torch==2.13.0" in runtime  # the same exact pin


def test_the_wheel_holds_the_core_only_and_installs_and_runs_without_streamlit(tmp_path):
    wheel = build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    tops = {n.split("/")[0] for n in names}
    assert tops == {"s2s_core", wheel.name.split("-")[0] + "-0.1.0.dist-info"}, tops
    assert (
        "s2s_core/own_weights.py" in names
        and "s2s_core/lstm/compute.py" in names
        and "s2s_core/show/__init__.py" in names
    )
    catalogs = {n.removeprefix("s2s_core/locales/") for n in names if n.startswith("s2s_core/locales/")}
    assert {"en/lstm.toml", "ko/lstm.toml", "en/errors.toml", "ko/errors.toml"} <= catalogs
    assert "Name: seq2seq-explainer-core" in metadata and "streamlit" not in metadata.lower()
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    code = USE_INSTALLED.format(root=str(ROOT), site=str(site))
    ran = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert ran.stdout.startswith("ok ")
