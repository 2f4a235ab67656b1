"""Cached results are shared, not copied (s2s_ui/cache.py), so no page may change one in place: a page that did
would change what every later rerun and every other session reads. Every page is run, its cached results are
fingerprinted by value, the page is run again with the same inputs and its steps moved, and every result that
was there before must still have the same value.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
import pytest
import torch

from s2s_ui import cache
from s2s_ui.registry import existing_pages
from tests.app.conftest import open_page


def fingerprint(value: Any) -> Any:
    """A hashable, comparable image of a result's value: tensors and arrays by their bytes, containers walked."""
    if isinstance(value, torch.Tensor):
        return ("tensor", str(value.dtype), tuple(value.shape), value.detach().cpu().contiguous().numpy().tobytes())
    if isinstance(value, np.ndarray):
        return ("array", str(value.dtype), value.shape, value.tobytes())
    if isinstance(value, pd.DataFrame):
        return ("frame", value.to_json(orient="split", double_precision=15))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = dataclasses.fields(value)
        return (type(value).__name__, tuple(fingerprint(getattr(value, f.name)) for f in fields))
    if isinstance(value, Mapping):
        return ("map", tuple((repr(k), fingerprint(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(fingerprint(v) for v in value))
    if isinstance(value, float) and value != value:
        return ("nan",)
    return value


def snapshot() -> dict[tuple, Any]:
    entries = {}
    for ident, lru in list(cache._CACHES.items()):
        with lru.lock:
            items = list(lru.entries.items())
        for key, value in items:
            entries[(ident[1], key)] = fingerprint(value)
    return entries


@pytest.mark.parametrize("spec", existing_pages(), ids=lambda spec: spec.ns)
def test_a_page_never_changes_a_cached_result_in_place(spec):
    cache.clear_all()
    at = open_page(spec.ns, "en")
    assert not at.exception
    before = snapshot()
    assert before or spec.ns == "home", "the page cached nothing: this test would prove nothing"
    at.run()
    names = at.session_state.keys()
    for key in [name for name in names if name.endswith("_step")]:  # the pictures' step controls
        at.session_state[key] = 1
        at.run()
    assert not at.exception
    after = snapshot()
    changed = [name for (name, key), value in before.items() if (name, key) in after and after[(name, key)] != value]
    assert not changed, f"{spec.ns} changed these cached results in place: {changed}"
