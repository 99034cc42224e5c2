"""The client actions the tests run: one per error-table row a client can trigger, and the everyday calls.

Each row names the catalog entry (data/mcp-errors.yaml) whose answer it draws, or None for a call that should
succeed. Limits come from the catalog's constants, so a changed limit changes the action, not this file.
Rows that need something on the way (a proxy that cuts or rewrites a request) say so in `does`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from tests.clients.harness import CLIENTS, PYTHON_AUTO

CATALOG = Path(__file__).resolve().parents[2] / "data" / "mcp-errors.yaml"
CONSTANTS: dict[str, Any] = yaml.safe_load(CATALOG.read_text(encoding="utf-8"))["constants"]
# Named by the MCP specification (2026-07-28, basic/index), not by this server.
VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
OVER_BUDGET = CONSTANTS["RATE_LIMIT_REQUESTS"] + 1
SEARCH = {"action": "call_tool", "name": "search_public_docs"}


@dataclass(frozen=True)
class Row:
    """One client action and what it is for."""

    id: str
    entry: str | None
    does: str
    action: dict[str, Any]
    # A row that spends the rate-limit budget runs against a server of its own.
    fresh_server: bool = False
    # Whether the Python client's default mode, which probes with server/discover first, runs it too. The
    # 2026-07-28 and legacy modes run every row; `auto` runs the rows where what the client sends before the
    # call is part of the answer, and the standard calls (each Python run costs about a second of CPU).
    with_auto: bool = False

    @property
    def clients(self) -> list[str]:
        """The clients this row runs with."""
        return [client for client in CLIENTS if self.with_auto or client != PYTHON_AUTO]


ROWS = [
    Row(
        "parse-error",
        "parse-error",
        "list_tools; a proxy cuts the tools/list body short",
        {
            "action": "list_tools",
            "rewrite": {"method": "tools/list", "raw": '{"jsonrpc": "2.0", "id": 1, "method":'},
        },
    ),
    Row(
        "origin-not-allowed",
        "origin-not-allowed",
        "list_tools with the header Origin: https://evil.example",
        {"action": "list_tools", "headers": {"Origin": "https://evil.example"}},
        with_auto=True,
    ),
    Row(
        "loopback-origin-other-port",
        "origin-not-allowed",
        "list_tools with the header Origin: http://localhost:5173 (a local web app)",
        {"action": "list_tools", "headers": {"Origin": "http://localhost:5173"}},
        with_auto=True,
    ),
    Row(
        "body-too-large",
        "body-too-large",
        f"call_tool search_public_docs, query of MAX_BODY_BYTES ({CONSTANTS['MAX_BODY_BYTES']}) characters",
        {**SEARCH, "arguments": {"query": "x" * CONSTANTS["MAX_BODY_BYTES"]}},
    ),
    Row(
        "batch-not-supported",
        "batch-not-supported",
        "list_tools; a proxy replaces the body with a batch of two requests",
        {
            "action": "list_tools",
            "rewrite": {
                "method": "tools/list",
                "body": [
                    {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                    {"jsonrpc": "2.0", "id": 2, "method": "prompts/list"},
                ],
            },
        },
    ),
    Row(
        "unsupported-protocol-version",
        "unsupported-protocol-version",
        "list_tools; a proxy sets the protocol version to 1999-01-01 in the header and in params._meta",
        {
            "action": "list_tools",
            "rewrite": {
                "method": "tools/list",
                "headers": {"MCP-Protocol-Version": "1999-01-01"},
                "body": {"params": {"_meta": {VERSION_KEY: "1999-01-01"}}},
            },
        },
    ),
    Row(
        "header-mismatch",
        "header-mismatch",
        "call_tool search_public_docs; a proxy sets Mcp-Name: get_public_page on tools/call",
        {
            **SEARCH,
            "arguments": {"query": "rate limit"},
            "rewrite": {"method": "tools/call", "headers": {"Mcp-Name": "get_public_page"}},
        },
    ),
    Row(
        "method-not-found",
        "method-not-found",
        "complete (completion/complete), which the server does not implement",
        {
            "action": "complete",
            "ref": {"type": "ref/prompt", "name": "answer_from_docs"},
            "argument": {"name": "question", "value": "w"},
        },
    ),
    Row(
        "unknown-tool",
        "unknown-name",
        "call_tool no_such_tool",
        {"action": "call_tool", "name": "no_such_tool", "arguments": {}},
        with_auto=True,
    ),
    Row(
        "unknown-resource",
        "unknown-name",
        "read_resource connect://pages/no/such/",
        {"action": "read_resource", "uri": "connect://pages/no/such/"},
    ),
    Row(
        "unknown-prompt",
        "unknown-name",
        "get_prompt no_such_prompt",
        {"action": "get_prompt", "name": "no_such_prompt", "arguments": {}},
    ),
    Row(
        "tool-arguments-not-object",
        "invalid-params",
        'call_tool search_public_docs with arguments ["rate limit"] (an array)',
        {**SEARCH, "arguments": ["rate limit"]},
    ),
    Row(
        "prompt-argument-missing",
        "invalid-params",
        "get_prompt answer_from_docs without its required argument",
        {"action": "get_prompt", "name": "answer_from_docs", "arguments": {}},
    ),
    Row(
        "rate-limited",
        "rate-limited",
        f"call_tool search_public_docs RATE_LIMIT_REQUESTS + 1 ({OVER_BUDGET}) times",
        {**SEARCH, "arguments": {"query": "rate limit"}, "repeat": OVER_BUDGET},
        fresh_server=True,
        with_auto=True,
    ),
    Row(
        "internal-error",
        "internal-error",
        "call_tool get_public_page /broken/ (the test server's page that is not UTF-8)",
        {"action": "call_tool", "name": "get_public_page", "arguments": {"path": "/broken/"}},
    ),
    Row("list-tools", None, "list_tools", {"action": "list_tools"}, with_auto=True),
    Row("ping", None, "ping", {"action": "ping"}, with_auto=True),
    Row(
        "call-tool",
        None,
        "call_tool search_public_docs that finds pages",
        {**SEARCH, "arguments": {"query": "header mismatch", "limit": 2}},
    ),
    Row(
        "tool-failure",
        None,
        "call_tool get_public_page of a page that does not exist (the tool answers isError)",
        {"action": "call_tool", "name": "get_public_page", "arguments": {"path": "/docs/nope/"}},
    ),
    Row(
        "read-resource",
        None,
        "read_resource of a page",
        {"action": "read_resource", "uri": "connect://pages/developers/mcp-public-tools/"},
    ),
    Row(
        "get-prompt",
        None,
        "get_prompt answer_from_docs with its argument",
        {"action": "get_prompt", "name": "answer_from_docs", "arguments": {"question": "What is -32020?"}},
    ),
]
ROWS_BY_ID = {row.id: row for row in ROWS}
