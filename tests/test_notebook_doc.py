"""docs/notebook.ipynb runs as a PyTorch user would run it: the core built into a wheel and installed on its own
(`pip install .`, tests/test_package.py), the notebook executed cell by cell in a real Jupyter kernel (nbclient) that
sees only that install, and its outputs are what the notebook says: the pictures drawn, the checks passing."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import nbformat

from s2s_core.catalog import translate
from tests.codegen.run import Kernel, printed
from tests.test_package import build_wheel

NOTEBOOK = Path(__file__).resolve().parent.parent / "docs" / "notebook.ipynb"


def test_the_notebook_runs_on_the_installed_core_and_shows_what_it_says(tmp_path):
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(build_wheel(tmp_path))],
        check=True,
        capture_output=True,
        timeout=300,
    )
    book = nbformat.read(NOTEBOOK, as_version=4)
    assert not any(c.get("outputs") for c in book.cells if c.cell_type == "code")  # committed without outputs
    with Kernel(path=str(site)) as kernel:
        kernel.execute(book)
    text = printed(book)
    diffs = [float(v) for v in re.findall(r"max \|difference\|: (\S+)", text)]
    assert len(diffs) == 3 and all(d < 1e-9 for d in diffs), text  # LSTM, RNN, GRU: hand loop == module
    assert "same h_t as your module: True" in text and "same c_n as your module: True" in text
    assert "each row sums to 1: True" in text and text.count(" weighs ") == 4
    assert float(re.search(r"loss after training: (\S+)", text).group(1)) < 0.3  # the LSTM did learn its task
    assert "'h_n': (4, 2, 6)" in text and "'packed.data': (8, 4)" in text  # L·K = 4; 5 + 3 real steps
    # Every show_* cell drew its picture: Altair's HTML output, with the pages' words (English, then Korean).
    pictures = [
        out["data"]["text/html"]
        for cell in book.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
        if out.get("output_type") in ("display_data", "execute_result") and "text/html" in out.get("data", {})
    ]
    assert len(pictures) == 6 and all("vega-embed" in html for html in pictures)
    en, ko = (json.dumps(translate(lang, "lstm.picture.title"))[1:-1] for lang in ("en", "ko"))  # as the HTML has it
    assert en in pictures[0] and ko in pictures[1]
    assert not any(missing in "".join(pictures) for missing in ("⟦", "\\u27e6"))  # no catalog key unfound
