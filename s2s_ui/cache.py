"""Caching a page's computations: each result is computed once per distinct input and then shared, not copied.

`st.cache_data` pickles a result when it stores it and unpickles a fresh copy on every call. Profiling the GRU
page's rerun (scripts/bench.py --profile gru) showed that unpickling the tensors inside its cached results cost
about as much as a whole bare Streamlit page. The results cached here are frozen dataclasses (and the chart specs
of s2s_ui/charts.py) that nothing changes after they are made, so `cached_result` keeps the one object with
`st.cache_resource` and hands it out as it is.

The rule that makes this safe: never change a cached result in place (copy it first, as `charts.finish` does).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import streamlit as st

F = TypeVar("F", bound=Callable[..., Any])


def cached_result(fn: F | None = None, *, max_entries: int = 256, hash_funcs: dict | None = None) -> Any:
    """Decorator: cache a pure function's result by the value of its arguments, shared by every session.

    Arguments whose name starts with "_" are not hashed (Streamlit's rule): pass a large input that the other
    arguments fully determine that way (a finished training job's result, named by its job id).
    """

    def wrap(build: F) -> F:
        return st.cache_resource(max_entries=max_entries, show_spinner=False, hash_funcs=hash_funcs)(build)  # type: ignore[return-value]

    return wrap(fn) if fn is not None else wrap
