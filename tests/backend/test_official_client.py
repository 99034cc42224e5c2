"""The server seen through the official Python SDK client, `mcp==2.3.0`, over real HTTP.

These tests pin down how each protocol error reaches a client (`MCPError.code`) and how a
tool that cannot answer looks (`result.is_error`), in the three connect modes the SDK offers.
"""

from __future__ import annotations

import base64
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client

pytestmark = pytest.mark.server

MODES = ["auto", "2026-07-28", "legacy"]
TIMEOUT_SECONDS = 20


def run(scenario: Callable[[], Awaitable[Any]]) -> Any:
    """Run one async scenario with a hard time limit."""

    async def bounded() -> Any:
        with anyio.fail_after(TIMEOUT_SECONDS):
            return await scenario()

    return anyio.run(bounded)


async def error_code(call: Awaitable[Any]) -> tuple[int, str]:
    with pytest.raises(MCPError) as caught:
        await call
    return caught.value.code, caught.value.message


@pytest.fixture(autouse=True)
def quiet_sdk_logs(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.CRITICAL, logger="mcp")


def test_auto_mode_negotiates_2026_07_28(server: Any) -> None:
    async def scenario() -> tuple[str | None, str | None]:
        async with Client(server.url) as client:
            info = client.server_info
            return client.protocol_version, info.name if info else None

    assert run(scenario) == ("2026-07-28", "connect-docs")


def test_legacy_mode_uses_the_handshake_revision(server: Any) -> None:
    async def scenario() -> str | None:
        async with Client(server.url, mode="legacy") as client:
            return client.protocol_version

    assert run(scenario) == "2025-11-25"


@pytest.mark.parametrize("mode", MODES)
def test_list_and_call_tools(server: Any, mode: str) -> None:
    async def scenario() -> tuple[list[str], bool | None, str]:
        async with Client(server.url, mode=mode) as client:
            tools = await client.list_tools()
            result = await client.call_tool("search_public_docs", {"query": "header mismatch", "limit": 2})
            return [tool.name for tool in tools.tools], result.is_error, result.content[0].text

    names, is_error, text = run(scenario)
    assert names == ["search_public_docs", "get_public_page"]
    assert is_error is False
    assert "/developers/mcp-errors/" in text


@pytest.mark.parametrize("mode", MODES)
def test_unknown_tool_raises_mcp_error_32601(server: Any, mode: str) -> None:
    async def scenario() -> tuple[int, str]:
        async with Client(server.url, mode=mode) as client:
            return await error_code(client.call_tool("no_such_tool", {}))

    assert run(scenario) == (-32601, "Unknown tool: no_such_tool")


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_is_error_results_do_not_raise(server: Any, mode: str) -> None:
    async def scenario() -> list[tuple[bool | None, str]]:
        async with Client(server.url, mode=mode) as client:
            missing_page = await client.call_tool("get_public_page", {"path": "/docs/nope/"})
            missing_query = await client.call_tool("search_public_docs", {})
            return [(r.is_error, r.content[0].text) for r in (missing_page, missing_query)]

    (page_error, page_text), (query_error, query_text) = run(scenario)
    assert page_error is True
    assert page_text == "No public page at '/docs/nope/'. Call search_public_docs to find the right path."
    assert query_error is True
    assert query_text.startswith("Missing required argument 'query'.")


def test_protocol_errors_as_the_client_sees_them(server: Any) -> None:
    async def scenario() -> dict[str, tuple[int, str]]:
        async with Client(server.url) as client:
            return {
                "unknown resource": await error_code(client.read_resource("connect://pages/no/such/")),
                "unknown prompt": await error_code(client.get_prompt("no_such_prompt")),
                "prompt arguments": await error_code(client.get_prompt("answer_from_docs", {})),
                "unknown method": await error_code(
                    client.session.complete(
                        ref={"type": "ref/prompt", "name": "answer_from_docs"},
                        argument={"name": "question", "value": "w"},
                    )
                ),
                "server fault": await error_code(client.call_tool("get_public_page", {"path": "/broken/"})),
            }

    seen = run(scenario)
    assert seen == {
        "unknown resource": (-32601, "Unknown resource: connect://pages/no/such/"),
        "unknown prompt": (-32601, "Unknown prompt: no_such_prompt"),
        "prompt arguments": (-32602, "Invalid params: Missing required argument 'question'."),
        "unknown method": (-32601, "Method not found: completion/complete"),
        "server fault": (-32603, "Internal error"),
    }


@pytest.mark.parametrize("mode", MODES)
def test_resources_and_prompts_round_trip(server: Any, mode: str) -> None:
    async def scenario() -> tuple[list[str], str, list[str], str]:
        async with Client(server.url, mode=mode) as client:
            resources = await client.list_resources()
            templates = await client.list_resource_templates()
            read = await client.read_resource("connect://pages/developers/mcp-public-tools/")
            prompt = await client.get_prompt("answer_from_docs", {"question": "What is -32020?"})
            content = read.contents[0]
            text = getattr(content, "text", "")
            return (
                [str(resource.uri) for resource in resources.resources],
                text,
                [template.uri_template for template in templates.resource_templates],
                getattr(prompt.messages[0].content, "text", ""),
            )

    uris, text, templates, prompt_text = run(scenario)
    assert "connect://pages/developers/mcp-errors/" in uris
    assert text.startswith("# Public MCP tools")
    assert templates == ["connect://pages/{path}"]
    assert "What is -32020?" in prompt_text


def test_header_mismatch_reaches_the_client_after_one_retry(server: Any) -> None:
    """A proxy that rewrites Mcp-Name makes the server refuse the call with -32020.

    The 2.3.0 client reacts as the spec suggests: it re-lists the tools, resends the call once,
    and raises only when the second attempt is refused too.
    """
    seen: list[str] = []

    async def rewrite_name(request: httpx2.Request) -> None:
        method = request.headers.get("mcp-method", "")
        seen.append(method)
        if method == "tools/call":
            request.headers["Mcp-Name"] = "=?base64?" + base64.b64encode(b"get_public_page").decode() + "?="

    async def scenario() -> tuple[int, str]:
        http_client = httpx2.AsyncClient(event_hooks={"request": [rewrite_name]})
        async with http_client, Client(streamable_http_client(server.url, http_client=http_client)) as client:
            return await error_code(client.call_tool("search_public_docs", {"query": "rate"}))

    code, message = run(scenario)
    assert code == -32020
    assert message.startswith("Header mismatch: Mcp-Name header")
    assert seen.count("tools/call") == 2
    assert seen.index("tools/list") > seen.index("tools/call")
