"""Charts on a page: build Altair charts from frozen inputs once, cache the finished Vega-Lite specs by value.

Profiling showed that building and validating Altair charts cost far more than the math on every page,
so a page decorates its small chart-building function with `@cached_spec`: the function takes hashable
inputs (a frozen config, a step, the language) and returns an Altair chart, or a dict / list / tuple of
them; the decorator turns them into plain spec dicts once per distinct input and keeps them in
`st.cache_data`. Specs are not validated here (`to_dict(validate=False)`): each core package's tests
validate its charts' structure. `draw` puts a spec on the page at the container's width.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import altair as alt
import streamlit as st

F = TypeVar("F", bound=Callable[..., Any])


def to_spec(chart: Any) -> Any:
    """An Altair chart (or a dict / list / tuple of them) as plain Vega-Lite spec dicts; a dict spec passes."""
    if isinstance(chart, alt.TopLevelMixin):
        return chart.to_dict(validate=False)
    if isinstance(chart, dict) and not ("$schema" in chart or "mark" in chart or "layer" in chart):
        return {name: to_spec(part) for name, part in chart.items()}
    if isinstance(chart, (list, tuple)):
        return type(chart)(to_spec(part) for part in chart)
    return chart


def cached_spec(fn: F | None = None, *, max_entries: int = 256, hash_funcs: dict | None = None) -> Any:
    """Decorator: cache the finished spec(s) of a chart-building function by the value of its arguments.

    Arguments whose name starts with "_" are not hashed (st.cache_data's rule): pass a large result that
    is fully determined by the other arguments that way.
    """

    def wrap(build: F) -> F:
        @functools.wraps(build)  # keeps the name and source that st.cache_data keys the cache on
        def spec(*args: Any, **kwargs: Any) -> Any:
            return to_spec(build(*args, **kwargs))

        return st.cache_data(max_entries=max_entries, show_spinner=False, hash_funcs=hash_funcs)(spec)  # type: ignore[return-value]

    return wrap(fn) if fn is not None else wrap


def draw(where: Any, spec: dict) -> None:
    """One finished spec at the container's width (`where`: st, a column or a placeholder)."""
    where.vega_lite_chart(spec=spec, width="stretch")
