"""Run a generated page script and return what it printed: as a .py in a fresh Python process, or as the notebook
the Code tab builds from it (s2s_core/notebook.py), executed cell by cell in a real Jupyter kernel (nbclient).

Each test module of this folder compares a script's printed lines with the page's numbers, and also offers its
page's case (`page_case()`: a script and that comparison), so test_notebook_code.py runs the very same
comparison on the notebook.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import nbformat
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient


def run_script(source: str, timeout: float = 120) -> str:
    done = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr
    return done.stdout


@dataclass(frozen=True)
class PageCase:
    """A page's generated script with inputs the page can show, and the check of what it prints against the
    page's own numbers (assertions; raises AssertionError)."""

    page: str
    source: str
    check: Callable[[str], None]


def printed(nb: nbformat.NotebookNode) -> str:
    """What an executed notebook's cells printed to stdout, in cell order (as the .py prints it)."""
    return "".join(
        out["text"]
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
        if out.get("output_type") == "stream" and out.get("name") == "stdout"
    )


class Kernel:
    """One Jupyter kernel that executes notebooks one after another, each in a fresh namespace (%reset), so
    torch is imported once for all of them.

    Parallel-safe: the kernel talks over IPC sockets in its own temporary folder (no TCP ports to collide with
    another test worker's), keeps no IPython history, and runs in that folder with no PYTHONPATH, so a notebook
    that needed this repository's packages (it must not: the scripts are self-contained) fails here.
    """

    def __init__(self, timeout: float = 300, path: str | None = None) -> None:
        """path: the kernel's PYTHONPATH (none by default; docs/notebook.ipynb gets the installed core's folder)."""
        self.timeout = timeout
        self.path = path
        self._dir = tempfile.TemporaryDirectory(prefix="s2s-kernel-")
        self.km = KernelManager(kernel_name="python3", transport="ipc", ip=str(Path(self._dir.name) / "kernel"))
        self.km.connection_file = str(Path(self._dir.name) / "connection.json")

    def __enter__(self) -> Kernel:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        if self.path is not None:
            env["PYTHONPATH"] = self.path
        env.update(IPYTHONDIR=str(Path(self._dir.name) / "ipython"), OMP_NUM_THREADS="1", PYTHONIOENCODING="utf-8")
        self.km.start_kernel(extra_arguments=["--HistoryManager.enabled=False"], env=env, cwd=self._dir.name)
        return self

    def __exit__(self, *exc: object) -> None:
        self.km.shutdown_kernel(now=True)
        self._dir.cleanup()

    def execute(self, nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
        """Run every cell of nb in order (a cell's error raises nbclient's CellExecutionError); nb gets the
        outputs, as Jupyter's "Run all" leaves them."""
        reset = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("%reset -f")])
        for book in (reset, nb):
            NotebookClient(book, km=self.km, timeout=self.timeout).execute()
        return nb
