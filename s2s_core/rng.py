"""torch's global random generator, shared by every session of a server: one lock, and blocks that leave it as found.

torch.manual_seed and a module's default initialisation use the process-wide generator, and Streamlit serves
sessions from threads. A block that seeds it or draws from it runs under RNG_LOCK inside fork_rng, so two sessions'
blocks never interleave and the generator's state is put back afterwards: one session's seeding never leaks into
(or races with) another's. Code that needs its own numbers uses a private torch.Generator instead.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import torch

T = TypeVar("T")
RNG_LOCK = threading.RLock()  # re-entrant: an isolated block may call code that isolates its own draws


@contextmanager
def isolated() -> Iterator[None]:
    """Draw from the global generator inside the block without anyone else seeing it (nor seeing theirs)."""
    with RNG_LOCK, torch.random.fork_rng(devices=[]):
        yield


def seeded(seed: int, build: Callable[[], T]) -> T:
    """build() under manual_seed(seed), without touching anyone else's random stream."""
    with isolated():
        torch.manual_seed(seed)
        return build()
