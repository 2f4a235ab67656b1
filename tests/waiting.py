"""Wait on a condition, never a fixed time: poll `predicate` until it holds, failing with `what` at the deadline."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


def wait_until(predicate: Callable[[], object], timeout: float = 30.0, what: str = "the condition") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out after {timeout:g} s waiting for {what}"
        time.sleep(0.02)  # a poll interval, not a wait for something to happen


def pace(seconds: float) -> None:
    """A stand-in's own pace (a fake trainer's step, a slowed constructor): the work taking time, not a test
    waiting for something to happen (that is `wait_until`)."""
    time.sleep(seconds)


async def until(predicate: Callable[[], object], timeout: float = 30.0, what: str = "the condition") -> None:
    """wait_until for a test's own event loop (the follow route's held requests): the loop runs while it polls."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out after {timeout:g} s waiting for {what}"
        await asyncio.sleep(0.02)  # a poll interval, not a wait for something to happen
