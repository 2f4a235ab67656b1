"""Caching a page's computations: each result is computed once per distinct input and then shared, not copied.

Why not `st.cache_data`: it pickles a result when it stores it and unpickles a fresh copy on every call, and
profiling the GRU page's rerun (scripts/bench.py --profile gru) showed that unpickling the tensors inside its
cached results cost about as much as a whole bare Streamlit page. Why not `st.cache_resource` either: a page
script runs again on every rerun, so its decorators run again, and Streamlit then reads the function's source
(`inspect.getsource`) to find its cache and walks every argument with its own hasher (0.2 ms for one small
config) — together a few milliseconds per rerun on pages with a dozen cached functions.

So `cached_result` keeps one small LRU per function, found by the function's code object (which compares by
value: a changed body is a different cache, as with Streamlit's source key), keyed by the pickled values of its
arguments (exact: 0.0 and -0.0, 1 and 1.0 are different keys; an argument whose name starts with "_" is left out,
Streamlit's rule, for a large input that the other arguments determine). The results are frozen dataclasses and
finished chart specs; every caller gets the one object, and callers that ask for a key at the same time (a class
moved to a new step at once) wait for one build of it.

The rule that makes sharing safe: never change a cached result in place (copy it first, as `charts.finish` does).
"""

from __future__ import annotations

import functools
import inspect
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


class _Lru:
    """One function's results, the least recently used dropped first beyond `max_entries`."""

    def __init__(self, build: Callable[..., Any], max_entries: int) -> None:
        self.signature = inspect.signature(build)
        self.max_entries = max_entries
        self.entries: OrderedDict[bytes, Any] = OrderedDict()
        self.lock = threading.Lock()  # guards entries and building
        # Sessions run in threads: the keys being computed now, each with the lock its builder holds. A second
        # session asking for the same key waits for the first one's result instead of computing it again: a class
        # of thirty moved to a new step at once computed the same picture thirty times (py-spy: 60 % of the
        # server's time in one page's chart build, docs/PERFORMANCE.md "A class following the teacher").
        self.building: dict[bytes, threading.Lock] = {}

    def key(self, args: tuple, kwargs: dict) -> bytes:
        bound = self.signature.bind(*args, **kwargs)
        bound.apply_defaults()
        named = tuple((name, value) for name, value in bound.arguments.items() if not name.startswith("_"))
        try:
            return pickle.dumps(named, protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError) as error:
            raise TypeError(
                f"cached_result: arguments {[n for n, _ in named]} cannot be a cache key: {error}"
            ) from error

    def get(self, key: bytes) -> tuple[bool, Any]:
        with self.lock:
            if key not in self.entries:
                return False, None
            self.entries.move_to_end(key)
            return True, self.entries[key]

    def builder(self, key: bytes) -> threading.Lock:
        """The lock of the one build of `key` (made by the first caller to miss it)."""
        with self.lock:
            return self.building.setdefault(key, threading.Lock())

    def built(self, key: bytes, lock: threading.Lock) -> None:
        with self.lock:
            if self.building.get(key) is lock:
                del self.building[key]

    def put(self, key: bytes, value: Any) -> None:
        with self.lock:
            self.entries[key] = value
            self.entries.move_to_end(key)
            while len(self.entries) > self.max_entries:
                self.entries.popitem(last=False)


_CACHES: dict[Hashable, _Lru] = {}
_CACHES_LOCK = threading.Lock()


def cached_result(fn: F | None = None, *, max_entries: int = 256) -> Any:
    """Decorator: cache a pure function's result by the value of its arguments, shared by every session."""

    def wrap(build: F) -> F:
        code = inspect.unwrap(build).__code__  # a decorator's inner function (charts.cached_spec) is not the key
        ident = (code.co_filename, code.co_qualname, code)
        with _CACHES_LOCK:
            cache = _CACHES.get(ident)
            if cache is None:
                cache = _CACHES[ident] = _Lru(build, max_entries)

        @functools.wraps(build)
        def cached(*args: Any, **kwargs: Any) -> Any:
            key = cache.key(args, kwargs)
            found, value = cache.get(key)
            if found:
                return value
            lock = cache.builder(key)
            with lock:  # one build per key at a time: whoever waited here finds the result made meanwhile
                found, value = cache.get(key)
                if not found:
                    try:
                        value = build(*args, **kwargs)
                        cache.put(key, value)
                    finally:
                        cache.built(key, lock)
            return value

        return cached  # type: ignore[return-value]

    return wrap(fn) if fn is not None else wrap


def clear_all() -> None:
    """Forget every cached result (tests that count computations)."""
    with _CACHES_LOCK:
        for cache in _CACHES.values():
            with cache.lock:
                cache.entries.clear()
