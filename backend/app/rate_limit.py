"""A per-client sliding-window rate limiter with an injectable clock and a bounded memory."""

from __future__ import annotations

import math
import time
from collections import OrderedDict, deque
from collections.abc import Callable

Clock = Callable[[], float]


class SlidingWindowLimiter:
    """Allow at most `limit` requests per client in any `window_seconds`-long span.

    Each client keeps the timestamps of its accepted requests from the last window.
    A request is accepted when fewer than `limit` of those remain; refused requests
    are not recorded, so a client that keeps retrying is let back in as soon as its
    oldest accepted request leaves the window. The limiter never awaits, so on a
    single event loop each check-and-record is atomic.

    Memory is bounded: clients are kept in the order they were last seen, a client whose
    newest request has left the window is dropped as soon as it is the least recently seen,
    and at most `max_clients` are tracked. When more distinct clients than that are active
    within one window, the least recently seen one is forgotten, and so starts afresh.
    """

    def __init__(
        self, limit: int, window_seconds: float, clock: Clock = time.monotonic, max_clients: int = 4096
    ) -> None:
        if limit < 1 or window_seconds <= 0 or max_clients < 1:
            raise ValueError("limit and max_clients must be at least 1 and window_seconds positive")
        self.limit = limit
        self.window_seconds = window_seconds
        self.max_clients = max_clients
        self._clock = clock
        self._hits: OrderedDict[str, deque[float]] = OrderedDict()

    def allow(self, client: str) -> bool:
        """Record a request from `client` and say whether it is within the limit.

        Args:
            client: Key that identifies the caller, such as its IP address.
        """
        now = self._clock()
        self._forget_idle(now)
        hits = self._hits.get(client)
        if hits is None:
            hits = self._hits[client] = deque()
            if len(self._hits) > self.max_clients:
                self._hits.popitem(last=False)
        else:
            self._hits.move_to_end(client)
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

    def tracked_clients(self) -> int:
        """How many clients the limiter currently holds timestamps for."""
        return len(self._hits)

    def _expire(self, hits: deque[float], now: float) -> None:
        cutoff = now - self.window_seconds
        while hits and hits[0] <= cutoff:
            hits.popleft()

    def _forget_idle(self, now: float) -> None:
        """Drop least-recently-seen clients whose every request has left the window.

        Each call removes only what it finds at the front, so the cost is spread over the
        requests instead of paid in one sweep over every client.
        """
        cutoff = now - self.window_seconds
        while self._hits:
            oldest = next(iter(self._hits.values()))
            if oldest and oldest[-1] > cutoff:
                return
            self._hits.popitem(last=False)
