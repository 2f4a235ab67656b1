"""How big the sampled tests run: a small sample in `make test`, the full size in `make test-all`.

The fuzz, the ten-session concurrency test, the hosted-demo walk and the screenshots are the same code at
both sizes; only how many pages, languages, steps or sessions they take changes. Full size is switched on by
`pytest --full` (tests/conftest.py sets FULL_TESTS=1 from it) or by FULL_TESTS=1 in the environment.
"""

from __future__ import annotations

import os


def full() -> bool:
    return os.environ.get("FULL_TESTS") == "1"


def pick(small, full_size):
    """`small` in `make test`, `full_size` in `make test-all`."""
    return full_size if full() else small
