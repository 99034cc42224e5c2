"""Unit tests for the small modules behind the server: content index, schema, header decoding."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from starlette.datastructures import Headers

from backend.app import mcp_server, schema
from backend.app.content import DocsIndex, normalise_site_path
from backend.app.protocol import decode_header_value, header_mismatch


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("/developers/mcp-errors/", "/developers/mcp-errors/"),
        ("developers/mcp-errors", "/developers/mcp-errors/"),
        ("/developers/mcp-errors.md", "/developers/mcp-errors/"),
        ("/developers/index.md", "/developers/"),
        ("/", "/"),
        ("", "/"),
        ("/../etc/passwd", None),
        ("/developers/./x/", None),
        ("/.git/config", None),
    ],
)
def test_normalise_site_path(raw: str, expected: str | None) -> None:
    assert normalise_site_path(raw) == expected


def test_index_maps_files_to_site_paths(docs_dir: Path) -> None:
    index = DocsIndex(docs_dir)
    assert index.paths() == ["/", "/broken/", "/developers/mcp-errors/", "/developers/mcp-public-tools/"]
    page = index.get("developers/mcp-errors")
    assert page is not None
    assert (page.path, page.title) == ("/developers/mcp-errors/", "MCP error shapes")
    assert index.get("/developers/nothing/") is None
    with pytest.raises(UnicodeDecodeError):
        index.get("/broken/")


def test_search_ranks_titles_first_and_skips_unreadable_pages(docs_dir: Path) -> None:
    index = DocsIndex(docs_dir)
    hits = index.search("PUBLIC tools", limit=5)
    assert hits[0].page.path == "/developers/mcp-public-tools/"
    assert all(hit.page.path != "/broken/" for hit in index.search("not utf", limit=5))
    assert len(index.search("connect public", limit=1)) == 1
    assert index.search("zzzz-nothing", limit=5) == []
    assert index.search("a", limit=5) == []


def test_missing_docs_folder_is_empty_not_an_error(tmp_path: Path) -> None:
    index = DocsIndex(tmp_path / "absent")
    assert (index.paths(), index.search("anything", 5), index.get("/")) == ([], [], None)


def test_tool_schema_comes_from_signature_and_docstring() -> None:
    tool = mcp_server.search_public_docs
    described = schema.input_schema(tool)
    assert described["required"] == ["query"]
    assert described["properties"]["query"]["type"] == "string"
    assert described["properties"]["limit"] == {
        "type": "integer",
        "description": "How many pages to list at most, from 1 to 20.",
        "default": 5,
    }
    assert schema.describe(tool).startswith("Search the public documentation")
    assert "Args:" not in schema.describe(tool)


def test_registries_hold_the_decorated_functions() -> None:
    assert list(mcp_server._TOOLS) == ["search_public_docs", "get_public_page"]
    assert list(mcp_server._RESOURCES) == ["connect://pages/{path}"]
    assert list(mcp_server._PROMPTS) == ["answer_from_docs"]
    arguments = schema.prompt_arguments(mcp_server.answer_from_docs)
    assert [(a["name"], a["required"]) for a in arguments] == [("question", True), ("audience", False)]


def test_bind_checks_arguments() -> None:
    tool = mcp_server.search_public_docs
    assert schema.bind(tool, {"query": "x"}) == {"query": "x"}
    with pytest.raises(schema.ArgumentError, match="Unexpected argument 'extra'"):
        schema.bind(tool, {"query": "x", "extra": 1})
    with pytest.raises(schema.ArgumentError, match="must be of type integer, not boolean"):
        schema.bind(tool, {"query": "x", "limit": True})
    assert schema.bind(tool, {"query": "x", "limit": "3"}, coerce=True) == {"query": "x", "limit": 3}


@pytest.mark.parametrize(
    ("raw", "decoded"),
    [
        ("plain_name", "plain_name"),
        ("=?base64?" + base64.b64encode("Hello, 世界".encode()).decode() + "?=", "Hello, 世界"),
        ("=?base64?not base64!?=", "=?base64?not base64!?="),
        ("=?BASE64?YWRk?=", "=?BASE64?YWRk?="),
    ],
)
def test_decode_header_value(raw: str, decoded: str) -> None:
    assert decode_header_value(raw) == decoded


def test_header_mismatch_rules() -> None:
    params = {"name": "get_public_page", "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}
    assert header_mismatch("tools/call", params, Headers({})) is None
    assert header_mismatch("tools/call", {}, Headers({"mcp-protocol-version": "2025-11-25"})) is None
    detail = header_mismatch("tools/call", params, Headers({"mcp-protocol-version": "2025-11-25"}))
    assert detail is not None and detail.startswith("MCP-Protocol-Version header '2025-11-25'")
    repeated = Headers(raw=[(b"mcp-method", b"tools/call"), (b"mcp-method", b"tools/call")])
    assert header_mismatch("tools/call", params, repeated) == "mcp-method was sent more than once"


def test_the_published_query_bounds_are_the_enforced_ones() -> None:
    described = schema.input_schema(mcp_server.search_public_docs)["properties"]["query"]["description"]
    chars, words = mcp_server.MAX_QUERY_CHARS, mcp_server.MAX_QUERY_WORDS
    assert f"at most {chars} characters and {words} different words" in described
