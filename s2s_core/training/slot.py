"""A trained model's place in a shared cache: filled once per configuration, then only read."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

R = TypeVar("R")


class TrainedSlot(Generic[R]):
    """Holds one configuration's result; a lock makes a second session wait instead of training twice."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._result: R | None = None

    @property
    def result(self) -> R | None:
        return self._result

    @property
    def busy(self) -> bool:
        """Another session is training this configuration right now."""
        return self._lock.locked()

    def retrain(self, train: Callable[[], R]) -> R:
        """Replace the stored result (used when a run was cut short by the time limit on a busy machine)."""
        with self._lock:
            self._result = train()
            return self._result

    def get_or_train(self, train: Callable[[], R]) -> R:
        """The stored result, or train() once and keep it (an interrupted run stores nothing)."""
        with self._lock:
            if self._result is None:
                self._result = train()
            return self._result
