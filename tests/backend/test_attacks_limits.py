"""Attacks on the limits: a rate-limit key chosen by the client, and searches that cost too much.

Each test names what the attacker sends and what the server must answer. The rate-limit tests
start servers of their own, since they spend a whole budget.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from backend.app.mcp_server import MAX_QUERY_CHARS, MAX_QUERY_WORDS, RATE_LIMIT_REQUESTS
from tests.backend import rawhttp
from tests.backend.conftest import RunningServer, run_server

MODERN = {"MCP-Protocol-Version": "2026-07-28"}
PLAIN_UVICORN = [sys.executable, "-m", "uvicorn", "backend.app.mcp_server:app", "--host", "127.0.0.1"]
PLAIN_UVICORN += ["--port", "{port}", "--log-level", "warning"]


def ping(server: RunningServer, source: str = "127.0.0.1", headers: dict[str, str] | None = None) -> int:
    body = b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}'
    return rawhttp.post(server.port, body, source, headers).status


def rotating_forwarded_for(server: RunningServer, count: int, source: str = "127.0.0.1") -> list[int]:
    """`count` pings, each claiming to forward for a different address."""
    return [
        ping(server, source, {"X-Forwarded-For": f"198.51.100.{n % 250}, 10.{n // 250}.0.1"})
        for n in range(count)
    ]


@pytest.mark.server
def test_rotating_x_forwarded_for_buys_no_extra_requests(
    repo_root: Path, docs_dir: Path, tmp_path: Path
) -> None:
    with run_server(repo_root, docs_dir, tmp_path / "log") as server:
        statuses = rotating_forwarded_for(server, RATE_LIMIT_REQUESTS + 10)
        # The header is believed from no one, so every such request shares one budget...
        assert statuses == [200] * RATE_LIMIT_REQUESTS + [429] * 10
        assert ping(server, "127.0.0.2", {"Forwarded": "for=203.0.113.9"}) == 429
        # ... and a client that sends no such header keeps its own.
        assert ping(server) == 200
        rawhttp.assert_no_traceback(server.log())


@pytest.mark.server
def test_the_limit_holds_under_plain_uvicorn_which_trusts_the_header(
    repo_root: Path, docs_dir: Path, tmp_path: Path
) -> None:
    """`uvicorn backend.app.mcp_server:app` rewrites the client address from X-Forwarded-For
    sent from 127.0.0.1; the app counts every request that carries one under a single key."""
    with run_server(repo_root, docs_dir, tmp_path / "log", command=PLAIN_UVICORN) as server:
        statuses = rotating_forwarded_for(server, RATE_LIMIT_REQUESTS + 10)
        assert statuses == [200] * RATE_LIMIT_REQUESTS + [429] * 10


@pytest.mark.server
def test_a_trusted_proxy_is_believed_about_the_client_it_forwards_for(
    repo_root: Path, docs_dir: Path, tmp_path: Path
) -> None:
    extra = ["--trusted-proxy", "127.0.0.0/30"]
    with run_server(repo_root, docs_dir, tmp_path / "log", extra=extra) as server:
        # What a client wrote in the header comes first; the proxy appends the address it saw.
        spoofed = {"X-Forwarded-For": "1.2.3.4, 203.0.113.7"}
        assert [ping(server, "127.0.0.1", spoofed) for _ in range(RATE_LIMIT_REQUESTS)] == [200] * 120
        assert ping(server, "127.0.0.2", {"X-Forwarded-For": "5.6.7.8, 203.0.113.7"}) == 429
        assert ping(server, "127.0.0.1", {"X-Forwarded-For": "203.0.113.8"}) == 200
        # From a peer outside the trusted network the header counts for nothing.
        assert ping(server, "127.0.0.9", {"X-Forwarded-For": "203.0.113.10"}) == 200


def call_search(server: RunningServer, query: str, source: str = "127.0.0.1") -> dict[str, Any]:
    params = {"name": "search_public_docs", "arguments": {"query": query}}
    body = json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": params}).encode()
    reply = rawhttp.post(server.port, body, source, MODERN)
    assert reply.status == 200, reply.raw[:300]
    result: dict[str, Any] = reply.json()["result"]
    return result


@pytest.mark.server
@pytest.mark.parametrize(
    ("query", "sentence"),
    [
        (
            "rate limit " * 23_000,
            "The query is 253000 characters long; the limit is 200. Call search_public_docs",
        ),
        ("x" * (MAX_QUERY_CHARS + 1), "The query is 201 characters long; the limit is 200."),
        (
            " ".join(f"word{n}" for n in range(MAX_QUERY_WORDS + 1)),
            "The query has 13 different words; the limit is 12. Call search_public_docs again",
        ),
    ],
    ids=["250 KiB", "one character over", "one word over"],
)
def test_a_query_over_the_bounds_is_a_tool_error(server: RunningServer, query: str, sentence: str) -> None:
    result = call_search(server, query)
    assert result["isError"] is True
    assert result["content"][0]["text"].startswith(sentence), result["content"][0]["text"]


@pytest.mark.server
def test_queries_at_the_bounds_are_searched(server: RunningServer) -> None:
    repeated = ("rate " * 40)[:MAX_QUERY_CHARS]  # 200 characters, one distinct word
    assert call_search(server, repeated)["isError"] is False
    twelve = " ".join(["header", "mismatch", "rate", "limit", "public", "tools", "page", "connect"])
    twelve += " search error shapes documentation"
    assert call_search(server, twelve)["isError"] is False


@pytest.mark.server
def test_pings_are_answered_while_heavy_searches_queue(server: RunningServer) -> None:
    """45 concurrent searches at the bounds from one address, pings from another meanwhile.

    The latency itself is measured by the soak test (benchmarks/soak.md); here every ping must
    come back with its result and every search with a result, not an error.
    """
    from concurrent.futures import ThreadPoolExecutor

    heavy = " ".join(["error", "header", "mismatch", "rate", "limit", "public", "tools", "page"])
    heavy = (heavy + " connect search shapes request ")[:MAX_QUERY_CHARS]
    with ThreadPoolExecutor(max_workers=48) as pool:
        searches = [pool.submit(call_search, server, heavy, "127.0.0.20") for _ in range(45)]
        pings = [ping(server, "127.0.0.21") for _ in range(20)]
        results = [future.result() for future in searches]
    assert pings == [200] * 20
    assert all(result["isError"] is False for result in results)
