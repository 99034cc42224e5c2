"""The sliding-window rate limit: exact arithmetic with a fake clock, then real concurrent load."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client, MCPError

from backend.app.mcp_server import RATE_LIMIT_REQUESTS, RATE_LIMIT_WINDOW_SECONDS, create_app
from backend.app.rate_limit import SlidingWindowLimiter

LIST_TOOLS = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}


class FakeClock:
    """Monotonic seconds that only move when a test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_limiter_allows_exactly_the_limit_per_window() -> None:
    clock = FakeClock()
    limiter = SlidingWindowLimiter(3, 60, clock)
    assert [limiter.allow("a") for _ in range(4)] == [True, True, True, False]
    assert limiter.retry_after("a") == 60
    clock.now += 59.5
    assert limiter.allow("a") is False
    assert limiter.retry_after("a") == 1
    clock.now += 0.5
    assert limiter.allow("a") is True


def test_window_slides_instead_of_resetting() -> None:
    clock = FakeClock()
    limiter = SlidingWindowLimiter(4, 60, clock)
    assert limiter.allow("a") and limiter.allow("a")  # t = 0
    clock.now += 30
    assert limiter.allow("a") and limiter.allow("a")  # t = 30
    assert limiter.allow("a") is False
    clock.now += 30  # t = 60: the two from t = 0 have left the window, the two from t = 30 have not
    assert [limiter.allow("a") for _ in range(3)] == [True, True, False]
    clock.now += 29.9  # t = 89.9: the t = 30 pair is still inside
    assert limiter.allow("a") is False
    clock.now += 0.1  # t = 90
    assert [limiter.allow("a") for _ in range(3)] == [True, True, False]


def test_refusals_do_not_extend_the_wait_and_clients_are_separate() -> None:
    clock = FakeClock()
    limiter = SlidingWindowLimiter(2, 10, clock)
    assert limiter.allow("a") and limiter.allow("a")
    for _ in range(50):
        clock.now += 0.1
        assert limiter.allow("a") is False
    assert limiter.allow("b") is True
    clock.now += 5.0  # 10 s after the accepted pair, regardless of the 50 refusals
    assert limiter.allow("a") is True


def test_idle_clients_are_forgotten() -> None:
    clock = FakeClock()
    limiter = SlidingWindowLimiter(5, 60, clock)
    for n in range(1000):
        assert limiter.allow(f"10.0.{n // 256}.{n % 256}")
    clock.now += 61
    for _ in range(30):  # enough checks to trigger the periodic sweep
        limiter.allow("busy")
    assert list(limiter._hits) == ["busy"]


def test_the_limiter_tracks_a_bounded_number_of_clients() -> None:
    now = [0.0]
    limiter = SlidingWindowLimiter(3, 60, lambda: now[0], max_clients=100)
    for n in range(20_000):  # 20,000 distinct keys within one window
        now[0] += 0.001
        assert limiter.allow(f"key-{n}")
    assert limiter.tracked_clients() == 100
    now[0] += 61
    limiter.allow("late")
    assert limiter.tracked_clients() == 1  # every old window was evicted as soon as it was met


def test_limiter_rejects_nonsense_settings() -> None:
    with pytest.raises(ValueError, match="limit"):
        SlidingWindowLimiter(0, 60)


def test_app_applies_the_window_per_client_host(docs_dir: Path) -> None:
    clock = FakeClock()
    app = create_app(docs_dir=docs_dir, clock=clock)

    async def post(host: str) -> httpx.Response:
        transport = httpx.ASGITransport(app=app, client=(host, 50000))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            return await client.post("/mcp", json=LIST_TOOLS)

    async def scenario() -> None:
        for _ in range(RATE_LIMIT_REQUESTS):
            assert (await post("10.0.0.1")).status_code == 200
        refused = await post("10.0.0.1")
        assert (refused.status_code, refused.json()["error"]["code"]) == (429, -32603)
        assert refused.headers["retry-after"] == str(RATE_LIMIT_WINDOW_SECONDS)
        assert (await post("10.0.0.2")).status_code == 200
        clock.now += RATE_LIMIT_WINDOW_SECONDS - 1
        assert (await post("10.0.0.1")).status_code == 429
        clock.now += 1
        assert (await post("10.0.0.1")).status_code == 200

    anyio.run(scenario)


@pytest.mark.server
def test_concurrent_load_is_held_to_the_limit(fresh_server: Any) -> None:
    total, concurrency = 200, 50
    outcomes: list[tuple[int, int | None]] = []

    async def worker(client: httpx.AsyncClient, jobs: list[int]) -> None:
        while jobs:
            jobs.pop()
            response = await client.post("/mcp", json=LIST_TOOLS)
            error = response.json().get("error")
            outcomes.append((response.status_code, error["code"] if error else None))

    async def scenario() -> None:
        jobs = list(range(total))
        limits = httpx.Limits(max_connections=concurrency)
        async with httpx.AsyncClient(base_url=fresh_server.base_url, limits=limits, timeout=10) as client:
            with anyio.fail_after(20):
                async with anyio.create_task_group() as group:
                    for _ in range(concurrency):
                        group.start_soon(worker, client, jobs)

    started = time.monotonic()
    anyio.run(scenario)
    assert time.monotonic() - started < RATE_LIMIT_WINDOW_SECONDS  # all requests fell in one window
    assert len(outcomes) == total
    assert outcomes.count((200, None)) == RATE_LIMIT_REQUESTS
    assert outcomes.count((429, -32603)) == total - RATE_LIMIT_REQUESTS


@pytest.mark.server
def test_official_client_sees_the_limit_as_mcp_error_32603(
    fresh_server: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.CRITICAL, logger="mcp")
    with httpx.Client(base_url=fresh_server.base_url) as client:
        for _ in range(RATE_LIMIT_REQUESTS):
            assert client.post("/mcp", json=LIST_TOOLS).status_code == 200

    async def scenario() -> list[tuple[int, str]]:
        # A failure while connecting escapes the SDK's task groups, wrapped in (nested) exception groups.
        with anyio.fail_after(20), pytest.raises(BaseExceptionGroup) as caught:
            async with Client(fresh_server.url):
                pass
        _, rest = caught.value.split(MCPError)
        assert rest is None  # nothing but MCPError inside
        return [(error.code, error.message) for error in leaves(caught.value)]

    # In auto mode the refused discover probe makes the client fall back to initialize,
    # which is refused too; that second refusal is what surfaces.
    assert anyio.run(scenario) == [(-32603, "Rate limit exceeded")]


def leaves(group: BaseExceptionGroup[Any]) -> list[MCPError]:
    found: list[MCPError] = []
    for error in group.exceptions:
        if isinstance(error, BaseExceptionGroup):
            found += leaves(error)
        elif isinstance(error, MCPError):
            found.append(error)
    return found
