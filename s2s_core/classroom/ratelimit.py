"""A token-bucket rate limiter with bounded memory (joins per session and per server)."""

from __future__ import annotations

import threading
from collections import OrderedDict

from s2s_core.classroom.limits import Limits
from s2s_core.classroom.state import ClassError


class RateLimiter:
    """`burst` actions at once per key, refilled at `per_minute` per minute.

    Memory is bounded by `max_keys`: the key used least recently is forgotten first. A forgotten key starts
    again with a full bucket, so a flood of fresh keys can buy each one a burst; the server-wide limiter
    (a single key) is what caps a flood. Shared by every session's thread, hence the lock."""

    def __init__(self, per_minute: int, burst: int, max_keys: int = 10_000) -> None:
        if per_minute < 1 or burst < 1 or max_keys < 1:
            raise ValueError("per_minute, burst and max_keys must be at least 1")
        self.per_minute = per_minute
        self.burst = burst
        self.max_keys = max_keys
        self._rate = per_minute / 60.0  # tokens per second
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> (tokens, at)
        self._lock = threading.Lock()

    def allow(self, key: str, now: float) -> bool:
        """Take one token for `key` at time `now` (seconds); False when its bucket is empty."""
        with self._lock:
            tokens, at = self._buckets.pop(key, (float(self.burst), now))
            # A clock that steps back must not mint tokens, nor (going negative) take them away.
            elapsed = max(0.0, now - at)
            tokens = min(float(self.burst), tokens + elapsed * self._rate)
            ok = tokens >= 1.0
            if ok:
                tokens -= 1.0
            self._buckets[key] = (tokens, max(at, now))
            while len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
            return ok

    def __len__(self) -> int:
        return len(self._buckets)


class JoinLimiter:
    """Joins limited per session (`session_joins_per_min`) and per server (`server_joins_per_min`).

    Each allows a minute's worth at once, so a whole class typing the code together is not refused; the
    server-wide bucket is what bounds a guesser who opens fresh sessions."""

    SERVER = "server"

    def __init__(self, limits: Limits, max_sessions: int = 10_000) -> None:
        self.session = RateLimiter(limits.session_joins_per_min, limits.session_joins_per_min, max_sessions)
        self.server = RateLimiter(limits.server_joins_per_min, limits.server_joins_per_min, 1)

    def check(self, session_key: str, now: float) -> None:
        """Raise ClassError("classroom.errors.too_many_joins") when this session or the server is over its rate.

        The session is asked first, so a session over its own limit spends none of the server's joins."""
        if not self.session.allow(session_key, now) or not self.server.allow(self.SERVER, now):
            raise ClassError("classroom.errors.too_many_joins")
