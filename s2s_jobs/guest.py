"""Training processes are guests on the server's machine: they run at a lower priority than the server.

Torch-free on purpose: the training forkserver lowers itself with this before it imports torch (preload.py),
so even its start-up import yields the CPU to the server drawing the first visitor's page.
"""

from __future__ import annotations

import contextlib
import os

NICE = 10  # workers yield the CPU to the server that draws every visitor's pages


def be_a_guest() -> None:
    """This process at niceness NICE (once: a worker forked from the lowered forkserver is already there)."""
    with contextlib.suppress(OSError):
        os.nice(max(0, NICE - os.nice(0)))
