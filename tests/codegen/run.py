"""Run a generated page script in a fresh Python process and return what it printed."""

from __future__ import annotations

import subprocess
import sys


def run_script(source: str, timeout: float = 120) -> str:
    done = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr
    return done.stdout
