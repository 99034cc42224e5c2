"""A per-client sliding-window rate limiter with an injectable clock."""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable

Clock = Callable[[], float]


class SlidingWindowLimiter:
    """Allow at most `limit` requests per client in any `window_seconds`-long span.

    Each client keeps the timestamps of its accepted requests from the last window.
    A request is accepted when fewer than `limit` of those remain; refused requests
    are not recorded, so a client that keeps retrying is let back in as soon as its
    oldest accepted request leaves the window. The limiter never awaits, so on a
    single event loop each check-and-record is atomic.
    """

    def __init__(self, limit: int, window_seconds: float, clock: Clock = time.monotonic) -> None:
        if limit < 1 or window_seconds <= 0:
            raise ValueError("limit must be at least 1 and window_seconds positive")
        self.limit = limit
        self.window_seconds = window_seconds
        self._clock = clock
        self._hits: dict[str, deque[float]] = {}
        self._checks_since_sweep = 0

    def allow(self, client: str) -> bool:
        """Record a request from `client` and say whether it is within the limit.

        Args:
            client: Key that identifies the caller, such as its IP address.
        """
        now = self._clock()
        self._maybe_sweep(now)
        hits = self._hits.setdefault(client, deque())
        self._expire(hits, now)
        if len(hits) >= self.limit:
            return False
        hits.append(now)
        return True

    def retry_after(self, client: str) -> int:
        """Whole seconds until `client` may send another request (0 if it may now).

        Args:
            client: Key that identifies the caller, such as its IP address.
        """
        hits = self._hits.get(client)
        if not hits or len(hits) < self.limit:
            return 0
        wait = hits[0] + self.window_seconds - self._clock()
        return max(1, math.ceil(wait))

    def _expire(self, hits: deque[float], now: float) -> None:
        cutoff = now - self.window_seconds
        while hits and hits[0] <= cutoff:
            hits.popleft()

    def _maybe_sweep(self, now: float) -> None:
        """Forget idle clients now and then, so memory follows the active clients only."""
        self._checks_since_sweep += 1
        if self._checks_since_sweep < 1024:
            return
        self._checks_since_sweep = 0
        for client in list(self._hits):
            hits = self._hits[client]
            self._expire(hits, now)
            if not hits:
                del self._hits[client]
