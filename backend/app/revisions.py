"""Which MCP revision a request speaks, and the result fields that revision defines.

The server keeps no sessions, so each request has to say its revision itself:
- `initialize` (the 2025 handshake) speaks the revision the server answers it with;
- otherwise the `MCP-Protocol-Version` header, which clients of 2025-06-18 and later send on
  every request after the handshake, or `params._meta`'s protocol version (2026-07-28);
- `server/discover`, defined by 2026-07-28 only, speaks 2026-07-28 when it names no revision;
- anything else that names none is a 2025-03-26 request, as the 2025 transports tell a server
  to assume when the header is missing.
A version that is not supported never gets this far: `_handle` refuses it first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from starlette.datastructures import Headers

from backend.app.protocol import PROTOCOL_VERSION_HEADER, PROTOCOL_VERSION_META_KEY, SERVER_INFO_META_KEY

MODERN_REVISION = "2026-07-28"
# The revisions that negotiate with `initialize`; their results carry none of the fields below.
HANDSHAKE_REVISIONS = ("2025-03-26", "2025-06-18", "2025-11-25")
# What a request naming no revision is taken to speak.
ASSUMED_REVISION = "2025-03-26"
# The first revision whose Implementation object has a `title`.
TITLE_REVISION = "2025-06-18"
# Results that 2026-07-28 lets clients cache, and so must carry `ttlMs` and `cacheScope`.
CACHEABLE_METHODS = frozenset(
    {"server/discover", "tools/list", "resources/list", "resources/templates/list"}
    | {"resources/read", "prompts/list"}
)
CACHE_TTL_MS = 60_000
CACHE_SCOPE = "public"
# Methods 2026-07-28 removed along with sessions: a request that speaks that revision cannot call them.
REMOVED_IN_MODERN = frozenset({"initialize", "ping"})


def negotiated_handshake(requested: object, latest: str) -> str:
    """The revision an `initialize` is answered with: the one asked for if it has a handshake.

    Args:
        requested: `params.protocolVersion` as sent (it may be missing or of any type).
        latest: The newest handshake revision, offered when the one asked for has none.
    """
    return requested if isinstance(requested, str) and requested in HANDSHAKE_REVISIONS else latest


def request_revision(method: object, params: dict[str, Any], headers: Headers, latest_handshake: str) -> str:
    """The revision one request speaks (see the module docstring for the rules).

    Args:
        method: The body's `method`.
        params: The body's `params` (empty when absent or not an object).
        headers: The HTTP request headers.
        latest_handshake: What an `initialize` without a usable version is answered with.
    """
    if method == "initialize":
        return negotiated_handshake(params.get("protocolVersion"), latest_handshake)
    meta = params.get("_meta")
    named = headers.get(PROTOCOL_VERSION_HEADER) or (
        meta.get(PROTOCOL_VERSION_META_KEY) if isinstance(meta, dict) else None
    )
    if isinstance(named, str):
        return named
    return MODERN_REVISION if method == "server/discover" else ASSUMED_REVISION


def removed_in_revision(method: str, params: dict[str, Any], headers: Headers) -> bool:
    """Whether `method` is one the revision the request names (header or `_meta`) has removed.

    An `initialize` names no revision this way unless its client speaks 2026-07-28, which has no handshake;
    a 2025 client's `initialize` and `ping` are served as before.

    Args:
        method: The body's `method`.
        params: The body's `params` (empty when absent or not an object).
        headers: The HTTP request headers.
    """
    meta = params.get("_meta")
    named = headers.get(PROTOCOL_VERSION_HEADER) or (
        meta.get(PROTOCOL_VERSION_META_KEY) if isinstance(meta, dict) else None
    )
    return named == MODERN_REVISION and method in REMOVED_IN_MODERN


def server_info_for(revision: str, server_info: dict[str, str]) -> dict[str, str]:
    """`serverInfo` without the `title` that revisions before 2025-06-18 do not define.

    Args:
        revision: The revision of the request being answered.
        server_info: The full Implementation object.
    """
    if revision >= TITLE_REVISION:
        return server_info
    return {key: value for key, value in server_info.items() if key != "title"}


def shape_result(
    result: dict[str, Any], method: str, revision: str, server_info: dict[str, str]
) -> dict[str, Any]:
    """Add what `revision` requires of a result, and nothing it does not define.

    2026-07-28 results carry `resultType`, the server's identity in `_meta`, and on cacheable
    methods `ttlMs` and `cacheScope`. Results of the handshake revisions are left as the
    handlers made them: plain 2025 results, which strict clients of those revisions accept.

    Args:
        result: The handler's result object.
        method: The method being answered.
        revision: The revision of the request (see `request_revision`).
        server_info: The Implementation object to name in `_meta`.
    """
    if revision != MODERN_REVISION:
        return result
    shaped = {**result, "resultType": "complete", "_meta": {SERVER_INFO_META_KEY: server_info}}
    if method in CACHEABLE_METHODS:
        shaped.update(ttlMs=CACHE_TTL_MS, cacheScope=CACHE_SCOPE)
    return shaped


def unsupported_version(
    method: object, params: dict[str, Any], headers: Headers, supported: Sequence[str]
) -> object | None:
    """The first protocol version the request asks for that is not in `supported`, if any.

    Args:
        method: The body's `method` (an `initialize` also asks in `params.protocolVersion`).
        params: The body's `params` (empty when absent or not an object).
        headers: The HTTP request headers.
        supported: The revisions the server speaks.
    """
    meta = params.get("_meta")
    asked = [headers.get(PROTOCOL_VERSION_HEADER)]
    asked.append(meta.get(PROTOCOL_VERSION_META_KEY) if isinstance(meta, dict) else None)
    if method == "initialize":
        asked.append(params.get("protocolVersion"))
    return next((v for v in asked if v is not None and v not in supported), None)
