"""Every row of the MCP errors table, reproduced with raw HTTP against the running server.

Each case asserts the JSON-RPC code and the HTTP status together, since the pair is the
contract (two rows share -32603 and differ only by status).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from backend.app.mcp_server import (
    ERRORS_PAGE_URL,
    MAX_BODY_BYTES,
    RATE_LIMIT_REQUESTS,
    SUPPORTED_PROTOCOL_VERSIONS,
)

pytestmark = pytest.mark.server

MODERN = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": MODERN}


def rpc(method: str, params: Any = None, request_id: int | None = 1) -> dict[str, Any]:
    """A JSON-RPC message; `request_id=None` makes it a notification."""
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    if request_id is not None:
        message["id"] = request_id
    return message


def b64_header(value: str) -> str:
    return "=?base64?" + base64.b64encode(value.encode("utf-8")).decode("ascii") + "?="


@pytest.fixture(scope="module")
def http(server: Any) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base_url, timeout=10) as client:
        yield client


@dataclass(frozen=True)
class Case:
    """One request, the (code, status) pair it must produce, and the id of its row in the error table, which
    the answer links to in `error.data.docs_url`."""

    code: int
    status: int
    doc: str
    body: Any = None
    raw: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    echoes_id: bool = True

    def send(self, client: httpx.Client, url: str = "/mcp") -> httpx.Response:
        content = self.raw if self.raw is not None else json.dumps(self.body).encode()
        return client.post(url, content=content, headers={"content-type": "application/json", **self.headers})


CALL_SEARCH = rpc("tools/call", {"name": "search_public_docs", "arguments": {"query": "rate"}, "_meta": META})

TABLE = {
    "invalid JSON": Case(
        -32700, 400, "parse-error", raw=b'{"jsonrpc": "2.0", "id": 1, "method": ', echoes_id=False
    ),
    "Origin not allowed": Case(
        -32600,
        403,
        "origin-not-allowed",
        body=rpc("tools/list"),
        headers={"Origin": "https://evil.example"},
        echoes_id=False,
    ),
    "body over 256 KiB": Case(
        -32600, 413, "body-too-large", raw=b" " * (MAX_BODY_BYTES + 1), echoes_id=False
    ),
    "batch": Case(
        -32600,
        400,
        "batch-not-supported",
        body=[rpc("tools/list", request_id=1), rpc("tools/list", request_id=2)],
        echoes_id=False,
    ),
    "unsupported protocol version": Case(
        -32600,
        400,
        "unsupported-protocol-version",
        body=rpc("tools/list"),
        headers={"MCP-Protocol-Version": "1999-01-01"},
    ),
    "header disagrees with body": Case(
        -32020, 400, "header-mismatch", body=CALL_SEARCH, headers={"Mcp-Method": "tools/list"}
    ),
    "unknown JSON-RPC method": Case(-32601, 404, "method-not-found", body=rpc("tools/destroy")),
    "unknown tool": Case(
        -32601, 200, "unknown-name", body=rpc("tools/call", {"name": "no_such_tool", "arguments": {}})
    ),
    "params not an object": Case(
        -32602, 200, "invalid-params", body=rpc("tools/list", ["not", "an", "object"])
    ),
    "rate limit": Case(-32603, 429, "rate-limited", body=rpc("tools/list"), echoes_id=False),
    "unexpected fault": Case(
        -32603,
        200,
        "internal-error",
        body=rpc("tools/call", {"name": "get_public_page", "arguments": {"path": "/broken/"}}),
    ),
}


def assert_error(response: httpx.Response, case: Case) -> dict[str, Any]:
    assert (response.status_code, response.json()["error"]["code"]) == (case.status, case.code), response.text
    body: dict[str, Any] = response.json()
    assert body["jsonrpc"] == "2.0"
    assert "result" not in body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    expected_id = (case.body or {}).get("id") if case.echoes_id and isinstance(case.body, dict) else None
    assert body["id"] == expected_id
    assert body["error"]["data"]["docs_url"] == f"{ERRORS_PAGE_URL}#err-{case.doc}"
    return body


@pytest.mark.parametrize("case", TABLE.values(), ids=TABLE.keys())
def test_error_table_row(case: Case, request: pytest.FixtureRequest) -> None:
    if case.status == 429:
        fresh = request.getfixturevalue("fresh_server")
        with httpx.Client(base_url=fresh.base_url, timeout=10) as client:
            spent = [
                client.post("/mcp", json=rpc("tools/list")).status_code for _ in range(RATE_LIMIT_REQUESTS)
            ]
            assert spent == [200] * RATE_LIMIT_REQUESTS
            response = case.send(client)
            assert int(response.headers["retry-after"]) >= 1
    else:
        response = case.send(request.getfixturevalue("http"))
    assert_error(response, case)


def test_table_covers_every_documented_pair() -> None:
    pairs = sorted((case.code, case.status) for case in TABLE.values())
    documented = [(-32700, 400), (-32600, 403), (-32600, 413), (-32600, 400), (-32600, 400), (-32020, 400)]
    documented += [(-32601, 404), (-32601, 200), (-32602, 200), (-32603, 429), (-32603, 200)]
    assert pairs == sorted(documented)
    assert len({case.doc for case in TABLE.values()}) == len(TABLE)  # each row links to a row of its own


def test_unsupported_version_lists_the_four_revisions(http: httpx.Client) -> None:
    response = http.post("/mcp", json=rpc("tools/list"), headers={"MCP-Protocol-Version": "1999-01-01"})
    error = response.json()["error"]
    assert error["data"] == {
        "supported": ["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"],
        "docs_url": f"{ERRORS_PAGE_URL}#err-unsupported-protocol-version",
    }
    assert tuple(error["data"]["supported"]) == SUPPORTED_PROTOCOL_VERSIONS


@pytest.mark.parametrize(
    "message",
    [
        rpc("tools/list", {"_meta": {"io.modelcontextprotocol/protocolVersion": "2099-01-01"}}),
        rpc("initialize", {"protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "t"}}),
    ],
    ids=["params._meta", "initialize"],
)
def test_unsupported_version_from_the_body(http: httpx.Client, message: dict[str, Any]) -> None:
    response = http.post("/mcp", json=message)
    assert (response.status_code, response.json()["error"]["code"]) == (400, -32600)
    assert response.json()["error"]["data"]["supported"] == list(SUPPORTED_PROTOCOL_VERSIONS)


@pytest.mark.parametrize(
    ("headers", "mentions"),
    [
        ({"MCP-Protocol-Version": "2025-11-25"}, "MCP-Protocol-Version"),
        ({"Mcp-Method": "tools/list"}, "Mcp-Method"),
        ({"Mcp-Name": "get_public_page"}, "Mcp-Name"),
        ({"Mcp-Name": b64_header("get_public_page")}, "Mcp-Name"),
    ],
    ids=["version", "method", "name", "base64 name"],
)
def test_each_header_mismatch_is_32020(http: httpx.Client, headers: dict[str, str], mentions: str) -> None:
    response = http.post("/mcp", json=CALL_SEARCH, headers=headers)
    assert (response.status_code, response.json()["error"]["code"]) == (400, -32020)
    assert response.json()["error"]["message"].startswith("Header mismatch: ")
    assert mentions in response.json()["error"]["message"]


def test_mcp_name_on_resources_read_is_compared_with_the_uri(http: httpx.Client) -> None:
    uri = "connect://pages/developers/mcp-errors/"
    message = rpc("resources/read", {"uri": uri})
    assert http.post("/mcp", json=message, headers={"Mcp-Name": uri}).status_code == 200
    response = http.post("/mcp", json=message, headers={"Mcp-Name": "connect://pages/"})
    assert (response.status_code, response.json()["error"]["code"]) == (400, -32020)


def test_matching_routing_headers_are_accepted_and_base64_names_decoded(http: httpx.Client) -> None:
    headers = {
        "MCP-Protocol-Version": MODERN,
        "Mcp-Method": "tools/call",
        "Mcp-Name": b64_header("search_public_docs"),
    }
    response = http.post("/mcp", json=CALL_SEARCH, headers=headers)
    assert response.status_code == 200
    assert response.json()["result"]["isError"] is False


def test_non_ascii_name_in_base64_passes_the_header_check(http: httpx.Client) -> None:
    message = rpc("tools/call", {"name": "grüß", "arguments": {}})
    response = http.post("/mcp", json=message, headers={"Mcp-Name": b64_header("grüß")})
    # Not -32020: the decoded header equals the body; the tool itself does not exist.
    assert (response.status_code, response.json()["error"]["code"]) == (200, -32601)
    assert response.json()["error"]["message"] == "Unknown tool: grüß"


def test_absent_routing_headers_are_accepted(http: httpx.Client) -> None:
    for message in (rpc("tools/list"), CALL_SEARCH, rpc("server/discover", {"_meta": META})):
        response = http.post("/mcp", json=message)
        assert response.status_code == 200, response.text
        assert "error" not in response.json()
        assert isinstance(response.json()["result"], dict)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            rpc("resources/read", {"uri": "connect://pages/no/such/page/"}),
            "Unknown resource: connect://pages/no/such/page/",
        ),
        (
            rpc("resources/read", {"uri": "https://elsewhere.example/"}),
            "Unknown resource: https://elsewhere.example/",
        ),
        (rpc("prompts/get", {"name": "no_such_prompt"}), "Unknown prompt: no_such_prompt"),
    ],
    ids=["resource page", "resource scheme", "prompt"],
)
def test_unknown_resource_and_prompt_are_32601_at_200(
    http: httpx.Client, message: dict[str, Any], expected: str
) -> None:
    response = http.post("/mcp", json=message)
    assert (response.status_code, response.json()["error"]["code"]) == (200, -32601)
    assert response.json()["error"]["message"] == expected


@pytest.mark.parametrize(
    "params",
    [
        "a string",
        {"name": "search_public_docs", "arguments": ["rate"]},
        {"name": "search_public_docs", "arguments": "rate"},
    ],
    ids=["params string", "arguments array", "arguments string"],
)
def test_params_or_arguments_not_an_object(http: httpx.Client, params: Any) -> None:
    response = http.post("/mcp", json=rpc("tools/call", params))
    assert (response.status_code, response.json()["error"]["code"]) == (200, -32602)


def test_unexpected_fault_message_carries_no_internal_detail(http: httpx.Client) -> None:
    case = TABLE["unexpected fault"]
    error = assert_error(case.send(http), case)["error"]
    assert error["message"] == "Internal error"
    assert error["data"] == {"docs_url": f"{ERRORS_PAGE_URL}#err-internal-error"}  # the link, nothing more
    assert "Unicode" not in json.dumps(error) and "broken" not in json.dumps(error)


@pytest.mark.parametrize("method", ["tools/list", "notifications/initialized", "notifications/cancelled"])
def test_notification_gets_202_and_an_empty_body(http: httpx.Client, method: str) -> None:
    response = http.post("/mcp", json=rpc(method, request_id=None))
    assert response.status_code == 202
    assert response.content == b""


@pytest.mark.parametrize("verb", ["GET", "DELETE"])
def test_get_and_delete_are_405(http: httpx.Client, verb: str) -> None:
    response = http.request(verb, "/mcp")
    assert response.status_code == 405
    assert "POST" in response.headers["allow"]


@pytest.mark.parametrize(
    "origin",
    [
        "https://connectbyjbrh.com",
        "https://WWW.connectbyjbrh.com/",
        "http://localhost:8000",
        "http://localhost:5173",
        "http://localhost",
        "http://127.0.0.1:6274",
        "http://[::1]:3000",
        "https://localhost:8443",
    ],
)
def test_allowed_and_loopback_origins_are_accepted(http: httpx.Client, origin: str) -> None:
    response = http.post("/mcp", json=rpc("tools/list"), headers={"Origin": origin})
    assert response.status_code == 200, response.text


@pytest.mark.parametrize(
    "origin",
    [
        "https://evil.example",
        "http://connectbyjbrh.com",
        "https://connectbyjbrh.com:8443",
        "http://localhost.evil.example",
        "http://localhost:8000.evil.example",
        "http://localhost:8000@evil.example",
        "http://127.0.0.1.nip.io:8000",
        "http://127.0.0.2:8000",
        "http://localhost:99999",
        "http://localhost:8000/path",
        "file://localhost",
        "null",
    ],
)
def test_other_origins_are_refused(http: httpx.Client, origin: str) -> None:
    response = http.post("/mcp", json=rpc("tools/list"), headers={"Origin": origin})
    assert (response.status_code, response.json()["error"]["code"]) == (403, -32600)


def call_tool(http: httpx.Client, name: str, arguments: Any) -> dict[str, Any]:
    params = {"name": name, "arguments": arguments, "_meta": META}
    response = http.post("/mcp", json=rpc("tools/call", params), headers={"MCP-Protocol-Version": MODERN})
    assert response.status_code == 200
    result: dict[str, Any] = response.json()["result"]
    assert result["resultType"] == "complete"
    return result


@pytest.mark.parametrize(
    ("name", "arguments", "sentence"),
    [
        ("search_public_docs", {}, "Missing required argument 'query'. Call search_public_docs again"),
        ("search_public_docs", {"query": "   "}, "The query is empty."),
        ("search_public_docs", {"query": "rate", "limit": 0}, "limit must be between 1 and 20"),
        (
            "search_public_docs",
            {"query": "rate", "limit": "5"},
            "Argument 'limit' must be of type integer, not string",
        ),
        (
            "get_public_page",
            {"path": "/docs/nope/"},
            "No public page at '/docs/nope/'. Call search_public_docs to find the right path.",
        ),
        ("get_public_page", {"path": "/../conftest/"}, "No public page at '/../conftest/'."),
    ],
    ids=[
        "missing query",
        "empty query",
        "limit out of range",
        "limit wrong type",
        "no such page",
        "traversal",
    ],
)
def test_tool_that_cannot_answer_returns_is_error(
    http: httpx.Client, name: str, arguments: dict[str, Any], sentence: str
) -> None:
    result = call_tool(http, name, arguments)
    assert result["isError"] is True
    assert result["content"][0]["type"] == "text"
    assert sentence in result["content"][0]["text"]


def test_tools_answer_from_the_docs_folder(http: httpx.Client) -> None:
    found = call_tool(http, "search_public_docs", {"query": "header mismatch"})
    assert found["isError"] is False
    assert found["content"][0]["text"].startswith("1. [MCP error shapes](/developers/mcp-errors/)")
    page = call_tool(http, "get_public_page", {"path": "/developers/mcp-public-tools/"})
    assert page["isError"] is False
    assert page["content"][0]["text"].startswith("# Public MCP tools")
    home = call_tool(http, "get_public_page", {"path": "/"})
    assert home["content"][0]["text"].startswith("# Connect")


CACHEABLE = ["server/discover", "tools/list", "resources/list", "resources/templates/list", "prompts/list"]


@pytest.mark.parametrize("method", CACHEABLE)
def test_cacheable_results_carry_ttl_and_scope(http: httpx.Client, method: str) -> None:
    result = http.post("/mcp", json=rpc(method, {"_meta": META})).json()["result"]
    assert result["resultType"] == "complete"
    assert result["ttlMs"] >= 0
    assert result["cacheScope"] in {"public", "private"}


def test_discover_describes_the_server(http: httpx.Client) -> None:
    result = http.post("/mcp", json=rpc("server/discover", {"_meta": META})).json()["result"]
    assert result["supportedVersions"] == list(SUPPORTED_PROTOCOL_VERSIONS)
    assert set(result["capabilities"]) == {"tools", "resources", "prompts"}
    assert result["serverInfo"]["name"] == "connect-docs"


def test_resources_prompts_and_read_results(http: httpx.Client) -> None:
    modern = {"MCP-Protocol-Version": MODERN}
    listed = http.post("/mcp", json=rpc("resources/list")).json()["result"]["resources"]
    assert "connect://pages/developers/mcp-errors/" in [resource["uri"] for resource in listed]
    uri = "connect://pages/developers/mcp-errors/"
    read = http.post("/mcp", json=rpc("resources/read", {"uri": uri}), headers=modern)
    result = read.json()["result"]
    assert (result["resultType"], result["cacheScope"]) == ("complete", "public")
    assert "-32020" in result["contents"][0]["text"]
    prompt = http.post(
        "/mcp",
        json=rpc("prompts/get", {"name": "answer_from_docs", "arguments": {"question": "Why 429?"}}),
        headers=modern,
    )
    assert prompt.json()["result"]["resultType"] == "complete"
    assert "Why 429?" in prompt.json()["result"]["messages"][0]["content"]["text"]


def test_legacy_initialize_has_no_session(http: httpx.Client) -> None:
    params = {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"},
    }
    response = http.post("/mcp", json=rpc("initialize", params))
    assert response.status_code == 200
    assert "mcp-session-id" not in response.headers
    assert response.json()["result"]["protocolVersion"] == "2025-06-18"
    assert "resultType" not in response.json()["result"]  # a 2026-07-28 field, not one of 2025-06-18
