"""s2s_ui/cache.py: one shared result per distinct input, exact keys, "_" arguments left out, bounded size."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from s2s_ui.cache import cached_result, clear_all


@dataclass(frozen=True)
class Config:
    x: float
    words: tuple[str, ...] = ()


@pytest.fixture(autouse=True)
def empty_caches():
    clear_all()  # `counted` defines the same code each time: its results outlive a test, as across reruns


def counted():
    calls: list[tuple] = []

    @cached_result(max_entries=2)
    def compute(config: Config, scale: int = 1, _big: object = None) -> dict:
        calls.append((config, scale))
        return {"y": config.x * scale}

    return compute, calls


def test_same_input_is_computed_once_and_shared():
    compute, calls = counted()
    first = compute(Config(1.5, ("a",)))
    assert compute(Config(1.5, ("a",))) is first  # equal value, new object: a hit, the very same result
    assert compute(Config(1.5, ("a",)), scale=1) is first  # a default given by name is the same key
    assert len(calls) == 1


def test_keys_are_exact_values():
    compute, calls = counted()
    compute(Config(0.0))
    compute(Config(-0.0))  # equal as floats, printed differently: two results
    compute(Config(1.0), 2)
    compute(Config(1.0), 2.0)  # type: ignore[arg-type]  # 2 and 2.0 differ too
    assert len(calls) == 4


def test_underscore_arguments_are_not_part_of_the_key():
    compute, calls = counted()
    compute(Config(1.0), 1, object())
    compute(Config(1.0), 1, object())
    assert len(calls) == 1


def test_the_least_recently_used_entry_goes_first():
    compute, calls = counted()
    a, b, c = Config(1.0), Config(2.0), Config(3.0)
    compute(a), compute(b), compute(a), compute(c)  # b is the least recently used when c arrives
    compute(a)
    assert len(calls) == 3
    compute(b)
    assert len(calls) == 4


def test_a_redefined_function_finds_its_cache_but_a_changed_body_does_not():
    """A page script defines its functions again on every rerun: the same code finds the same results."""
    results = []
    for _ in range(2):
        compute, _calls = counted()  # a new function object with the same code object
        results.append(compute(Config(4.0)))
    assert results[0] is results[1]

    @cached_result
    def compute(config: Config, scale: int = 1, _big: object = None) -> dict:  # another body (and name scope)
        return {"y": -config.x}

    assert compute(Config(4.0)) == {"y": -4.0}


def test_an_argument_that_cannot_be_a_key_is_named():
    @cached_result
    def compute(config, other) -> int:
        return 1

    with pytest.raises(TypeError, match="config"):
        compute(lambda: 0, 1)  # a lambda cannot be pickled


def test_sessions_asking_at_once_for_one_key_wait_for_one_build():
    """A class moved to a new step at once: thirty sessions' threads ask for the same picture. One builds it, the
    others wait for its result (the same object); a different key is built beside it, not behind it; a build that
    raises leaves the key to the next caller."""
    import threading

    started, release = threading.Event(), threading.Event()
    calls: list[int] = []

    @cached_result
    def slow(n: int) -> dict:
        calls.append(n)
        if n == 1:
            started.set()
            assert release.wait(10)
        return {"n": n}

    results: list[dict] = []
    threads = [threading.Thread(target=lambda: results.append(slow(1))) for _ in range(8)]
    threads[0].start()
    assert started.wait(10)
    for thread in threads[1:]:
        thread.start()
    assert slow(2) == {"n": 2}  # another key is not held up by the build of key 1
    release.set()
    for thread in threads:
        thread.join(10)
    assert calls.count(1) == 1 and len(results) == 8 and all(r is results[0] for r in results)

    @cached_result
    def flaky(n: int) -> int:
        calls.append(-n)
        if calls.count(-n) == 1:
            raise RuntimeError("first build fails")
        return n

    with pytest.raises(RuntimeError):
        flaky(3)
    assert flaky(3) == 3 and calls.count(-3) == 2
