"""Each revision gets the result fields it defines, and only those.

`resultType`, `ttlMs`, `cacheScope` and `result._meta` are 2026-07-28 additions. A strict client
of 2025-11-25 (the official TypeScript SDK 1.32.2 checks an empty result with a strict schema)
fails on any of them, so a request that speaks an older revision must get none.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client
from starlette.datastructures import Headers

from backend.app.revisions import request_revision, shape_result

pytestmark = pytest.mark.server

MODERN_ONLY = {"resultType", "ttlMs", "cacheScope", "_meta"}
META_KEY = "io.modelcontextprotocol/protocolVersion"
HANDSHAKE_REVISIONS = ["2025-03-26", "2025-06-18", "2025-11-25"]
CALLS = {
    "ping": {},
    "tools/list": {},
    "tools/call": {"name": "search_public_docs", "arguments": {"query": "rate"}},
    "resources/list": {},
    "resources/templates/list": {},
    "resources/read": {"uri": "connect://pages/developers/mcp-errors/"},
    "prompts/list": {},
    "prompts/get": {"name": "answer_from_docs", "arguments": {"question": "Why?"}},
}


@pytest.fixture(scope="module")
def http(server: Any) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base_url, timeout=10) as client:
        yield client


def result_of(http: httpx.Client, method: str, params: dict[str, Any], headers: dict[str, str]) -> Any:
    response = http.post(
        "/mcp", json={"jsonrpc": "2.0", "id": 1, "method": method, "params": params}, headers=headers
    )
    assert response.status_code == 200, response.text
    return response.json()["result"]


@pytest.mark.parametrize("revision", HANDSHAKE_REVISIONS)
@pytest.mark.parametrize("method", CALLS)
def test_a_handshake_revision_gets_no_2026_field(http: httpx.Client, method: str, revision: str) -> None:
    result = result_of(http, method, CALLS[method], {"MCP-Protocol-Version": revision})
    assert not MODERN_ONLY & set(result), result


@pytest.mark.parametrize("method", CALLS)
def test_a_request_naming_no_revision_is_answered_as_2025_03_26(http: httpx.Client, method: str) -> None:
    assert not MODERN_ONLY & set(result_of(http, method, CALLS[method], {}))


def test_ping_of_a_2025_11_25_session_is_exactly_the_empty_result(http: httpx.Client) -> None:
    """What the TypeScript SDK's strict EmptyResult schema accepts: `{}` and nothing else."""
    assert result_of(http, "ping", {}, {"MCP-Protocol-Version": "2025-11-25"}) == {}


CACHEABLE = {"tools/list", "resources/list", "resources/templates/list", "resources/read", "prompts/list"}


MODERN_CALLS = [method for method in CALLS if method != "ping"]
"""The calls 2026-07-28 has: it removed `ping` (and the `initialize` handshake)."""


@pytest.mark.parametrize("via", ["header", "meta", "both"])
@pytest.mark.parametrize("method", MODERN_CALLS)
def test_a_2026_07_28_request_gets_what_2026_07_28_requires(
    http: httpx.Client, method: str, via: str
) -> None:
    params = {**CALLS[method]}
    headers = {}
    if via in {"header", "both"}:
        headers["MCP-Protocol-Version"] = "2026-07-28"
    if via in {"meta", "both"}:
        params["_meta"] = {META_KEY: "2026-07-28"}
    result = result_of(http, method, params, headers)
    assert result["resultType"] == "complete"
    assert result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "connect-docs"
    assert ("ttlMs" in result, "cacheScope" in result) == (method in CACHEABLE,) * 2


@pytest.mark.parametrize("via", ["header", "meta"])
@pytest.mark.parametrize("method", ["ping", "initialize"])
def test_a_2026_07_28_request_cannot_call_what_2026_07_28_removed(
    http: httpx.Client, method: str, via: str
) -> None:
    """As the conformance suite's sep-2575-http-server-method-not-found-404-* checks ask: 404 and -32601."""
    params: dict[str, Any] = {"_meta": {META_KEY: "2026-07-28"}} if via == "meta" else {}
    headers = {"MCP-Protocol-Version": "2026-07-28"} if via == "header" else {}
    body = {"jsonrpc": "2.0", "id": 7, "method": method, "params": params}
    response = http.post("/mcp", json=body, headers=headers)
    assert response.status_code == 404, response.text
    error = response.json()["error"]
    assert response.json()["id"] == 7
    assert (error["code"], error["message"]) == (-32601, f"Method not found: {method}")
    assert error["data"]["docs_url"].endswith("#err-method-not-found")


def test_discover_speaks_2026_07_28_even_without_a_version(http: httpx.Client) -> None:
    result = result_of(http, "server/discover", {}, {})
    assert (result["resultType"], result["cacheScope"]) == ("complete", "public")


@pytest.mark.parametrize(
    ("offered", "answered", "has_title"),
    [
        ("2025-03-26", "2025-03-26", False),
        ("2025-06-18", "2025-06-18", True),
        ("2025-11-25", "2025-11-25", True),
        ("2026-07-28", "2025-11-25", True),  # that revision has no handshake: the newest that has one
        (None, "2025-11-25", True),
    ],
)
def test_initialize_negotiates_a_handshake_revision(
    http: httpx.Client, offered: str | None, answered: str, has_title: bool
) -> None:
    params: dict[str, Any] = {"capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}
    if offered:
        params["protocolVersion"] = offered
    result = result_of(http, "initialize", params, {})
    assert result["protocolVersion"] == answered
    assert ("title" in result["serverInfo"]) is has_title  # Implementation.title came in 2025-06-18
    assert not MODERN_ONLY & set(result)


@pytest.mark.filterwarnings("ignore:ping is removed as of 2026-07-28")
def test_official_client_in_legacy_mode_pings_and_lists(
    server: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.CRITICAL, logger="mcp")
    seen: list[dict[str, Any]] = []

    async def scenario() -> tuple[str | None, list[str]]:
        with anyio.fail_after(20):
            async with Client(server.url, mode="legacy") as client:
                seen.append((await client.send_ping()).model_dump(exclude_none=True))
                tools = await client.list_tools()
                return client.protocol_version, [tool.name for tool in tools.tools]

    assert anyio.run(scenario) == ("2025-11-25", ["search_public_docs", "get_public_page"])
    assert seen == [{}]


def test_revision_rules_without_a_server() -> None:
    none = Headers({})
    assert (
        request_revision("tools/list", {}, Headers({"mcp-protocol-version": "2025-06-18"}), "x")
        == "2025-06-18"
    )
    assert request_revision("tools/list", {"_meta": {META_KEY: "2026-07-28"}}, none, "x") == "2026-07-28"
    assert request_revision("tools/list", {}, none, "x") == "2025-03-26"
    assert request_revision("initialize", {"protocolVersion": 5}, none, "2025-11-25") == "2025-11-25"
    assert shape_result({"a": 1}, "tools/list", "2025-11-25", {}) == {"a": 1}
