"""No page draws from torch's global random generator outside s2s_core.rng.isolated().

The global generator is one per server process and Streamlit runs every session's script in its own thread. The
shapes page seeds it (torch.manual_seed, as its generated script does) under RNG_LOCK; any other draw from it that
does not hold the lock can land in the middle of that seeded build and change its weights, which a cache would then
keep. isolated() holds the lock and puts the state back, so after a page that only draws inside it, the generator
is exactly as before: any other draw (a module's default init, torch.randn without a generator) changes it.
"""

from __future__ import annotations

import pytest
import torch

from s2s_core.rng import RNG_LOCK
from s2s_ui.cache import clear_all
from s2s_ui.registry import existing_pages
from tests.app.conftest import open_page


@pytest.mark.parametrize("page", [spec.ns for spec in existing_pages()])
def test_a_page_leaves_the_global_generator_as_it_found_it(page):
    clear_all()  # computed now, not served from an earlier test's cache
    with RNG_LOCK:  # not in the middle of another thread's isolated() block, which would put back an older state
        torch.manual_seed(20261201)
        before = torch.get_rng_state()
    at = open_page(page, "en")
    assert not at.exception
    assert torch.equal(torch.get_rng_state(), before), f"{page} drew from torch's global generator"
