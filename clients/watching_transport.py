"""An httpx2 transport that notes every message the Python client posts and can play a rewriting proxy."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import httpx2


def merge_patch(target: Any, patch: Any) -> Any:
    """Apply an RFC 7386 JSON merge patch: objects merge key by key, null deletes, anything else replaces."""
    if not isinstance(patch, dict):
        return patch
    result = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


@dataclass
class TrafficLog:
    """The JSON-RPC method of each POST the client sent, in order, and whether the server was unreachable."""

    sent: list[str] = field(default_factory=list)
    unreachable: str | None = None


def _method_of(body: bytes) -> str | None:
    try:
        message = json.loads(body)
    except ValueError:
        return None
    method = message.get("method") if isinstance(message, dict) else None
    return method if isinstance(method, str) else None


def _rewritten(request: httpx2.Request, body: bytes, rewrite: dict[str, Any]) -> httpx2.Request:
    """The request a proxy following `rewrite` would pass on: headers set, body merged or replaced."""
    headers = request.headers.copy()
    headers.update(rewrite.get("headers", {}))
    if "raw" in rewrite:
        body = rewrite["raw"].encode()
    elif "body" in rewrite:
        body = json.dumps(merge_patch(json.loads(body), rewrite["body"])).encode()
    headers.pop("content-length", None)
    return httpx2.Request(
        request.method, request.url, headers=headers, content=body, extensions=request.extensions
    )


class WatchingTransport(httpx2.AsyncBaseTransport):
    """Forward requests to a real HTTP transport, noting each POST and rewriting the chosen method's requests.

    Args:
        log: Where the methods sent are noted.
        rewrite: The action's `rewrite` object (`method`, and `headers`, `body` or `raw`), or None.
    """

    def __init__(self, log: TrafficLog, rewrite: dict[str, Any] | None) -> None:
        self._inner = httpx2.AsyncHTTPTransport()
        self._log = log
        self._rewrite = rewrite

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        body = await request.aread()
        method = _method_of(body)
        if request.method == "POST":
            self._log.sent.append(method or "?")
        if self._rewrite is not None and method == self._rewrite["method"]:
            request = _rewritten(request, body, self._rewrite)
        try:
            return await self._inner.handle_async_request(request)
        except httpx2.ConnectError as error:
            self._log.unreachable = f"{error} for {request.url}"
            raise

    async def aclose(self) -> None:
        await self._inner.aclose()
