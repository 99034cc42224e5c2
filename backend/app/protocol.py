"""Wire-level names shared by the server: JSON-RPC error codes, MCP headers and `_meta` keys."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from starlette.datastructures import Headers

# JSON-RPC 2.0 error codes the server emits.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
# MCP 2026-07-28: a routing header says something different from the body.
HEADER_MISMATCH = -32020

# Routing headers a Streamable HTTP client may send (header names are case-insensitive).
PROTOCOL_VERSION_HEADER = "mcp-protocol-version"
METHOD_HEADER = "mcp-method"
NAME_HEADER = "mcp-name"

# Keys of `params._meta` (requests) and `result._meta` (responses).
PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion"
SERVER_INFO_META_KEY = "io.modelcontextprotocol/serverInfo"

_BASE64_PREFIX = "=?base64?"
_BASE64_SUFFIX = "?="


def decode_header_value(value: str) -> str:
    """Undo the `=?base64?...?=` wrapping clients use for names that are not plain ASCII.

    A value without the wrapper is returned unchanged. A wrapper whose payload is not valid
    Base64 of UTF-8 text is also returned unchanged, so it simply fails to match the body.

    Args:
        value: The raw header value as received.
    """
    if not (value.startswith(_BASE64_PREFIX) and value.endswith(_BASE64_SUFFIX)):
        return value
    payload = value[len(_BASE64_PREFIX) : -len(_BASE64_SUFFIX)]
    try:
        return base64.b64decode(payload, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return value


def header_mismatch(method: object, params: dict[str, Any], headers: Headers) -> str | None:
    """Describe the first routing header that contradicts the body, or return None if none does.

    Absent headers are accepted. `MCP-Protocol-Version` is compared with `params._meta` only
    when the body carries a version there (legacy requests carry none). `Mcp-Name` is compared
    with `params.uri` for `resources/read` and with `params.name` otherwise, after decoding.

    Args:
        method: The body's `method` member.
        params: The body's `params` object (empty when it is absent or not an object).
        headers: The HTTP request headers.
    """
    for header in (PROTOCOL_VERSION_HEADER, METHOD_HEADER, NAME_HEADER):
        if len(headers.getlist(header)) > 1:
            return f"{header} was sent more than once"
    meta = params.get("_meta")
    body_version = meta.get(PROTOCOL_VERSION_META_KEY) if isinstance(meta, dict) else None
    header_version = headers.get(PROTOCOL_VERSION_HEADER)
    if header_version is not None and body_version is not None and header_version != body_version:
        return f"MCP-Protocol-Version header '{header_version}' does not match body value '{body_version}'"
    header_method = headers.get(METHOD_HEADER)
    if header_method is not None and header_method != method:
        return f"Mcp-Method header '{header_method}' does not match body value '{method}'"
    header_name = headers.get(NAME_HEADER)
    body_name = params.get("uri") if method == "resources/read" else params.get("name")
    if header_name is not None and decode_header_value(header_name) != body_name:
        return f"Mcp-Name header '{header_name}' does not match body value '{body_name}'"
    return None
