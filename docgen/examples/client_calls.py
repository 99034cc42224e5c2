"""What an official MCP client has to do to send an example: the SDK call, and what only a proxy can add.

An example (`docgen.examples.requests`) is the exact request; an SDK builds its requests itself. This
module works out, from the example alone, the SDK call that sends the same JSON-RPC method with the same
params, the extra headers the client can add (an `Origin`), and what no client would send on its own (a body
that is not JSON, a batch, padding, protocol headers or `_meta` that contradict the body). That last part is
played by a proxy between client and server, which rewrites the call's request on the way.

The result is an *action* in the format of `clients/action.schema.json`, which `docgen probe` hands to the
runners in `clients/`, and from which the page's Python and TypeScript programs are written. The example is
the one source of all three. Nothing here touches the network or any file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from docgen.core.records import record
from docgen.examples.requests import DEFAULT_HEADERS, Example

RUNNERS_ROOT = Path(__file__).resolve().parents[2]
"""The docgen checkout: its `clients/` holds the runners, and its `requirements/*.txt` and
`clients/package-lock.json` pin the SDKs they use. They belong to docgen, not to the server documented."""
PYTHON_MODES = ("2026-07-28", "legacy")
"""The connect modes of the Python client probe runs, newest first."""
TYPESCRIPT = "typescript"
TYPESCRIPT_MODES = ("2026-07-28", "legacy")
"""The TypeScript clients probe runs, newest first: `@modelcontextprotocol/client` 2.x pinned to 2026-07-28,
and `@modelcontextprotocol/sdk` 1.x, which negotiates 2025-11-25 at most (a legacy session)."""
CLIENT_NAMES = (
    *(f"python-{mode}" for mode in PYTHON_MODES),
    *(f"{TYPESCRIPT}-{mode}" for mode in TYPESCRIPT_MODES),
)
"""The clients whose outcome the evidence records per example, in the order pages show them."""

SDK_CALLS = {
    "tools/list": "list_tools",
    "resources/list": "list_resources",
    "prompts/list": "list_prompts",
    "ping": "ping",
    "tools/call": "call_tool",
    "resources/read": "read_resource",
    "prompts/get": "get_prompt",
    "completion/complete": "complete",
}
"""JSON-RPC method -> the runner action that makes the SDK send it."""
SDK_HEADERS = {"mcp-protocol-version", "mcp-method", "mcp-name", "mcp-session-id", "content-length"}
"""Headers the SDK sets from the body itself: a different value can only come from a proxy."""
PLACEHOLDER_CALL = "list_tools"
"""The call made when the example's own body is replaced by a proxy and names no method an SDK has."""


@record
class ClientCall:
    """The runner action for an example (without `url` and `mode`), and what the proxy in it stands for."""

    action: dict[str, Any]
    proxy: tuple[str, ...] = ()
    """What the proxy changes, in words (empty when the client sends the example on its own)."""
    cannot: str | None = None
    """Why no SDK call can send this request at all; then `action` is empty and nothing runs."""

    @property
    def runs(self) -> bool:
        return self.cannot is None


def client_call(example: Example) -> ClientCall | None:
    """The client action that sends `example`; None for an example no request can trigger."""
    if not example.triggerable:
        return None
    if example.method != "POST":
        return ClientCall({}, cannot=f"an SDK posts every message; this request is a {example.method}")
    message = _json_or_none(example.text)
    proxy: list[str] = []
    rewrite: dict[str, Any] = {}
    if isinstance(message, dict) and isinstance(message.get("method"), str):
        method = message["method"]
        if method not in SDK_CALLS:
            return ClientCall({}, cannot=f"the SDK has no call that sends the method `{method}`")
        action = {"action": SDK_CALLS[method], **_arguments(method, message.get("params"))}
        meta = message.get("params", {}).get("_meta") if isinstance(message.get("params"), dict) else None
        if isinstance(meta, dict) and meta:
            rewrite["body"] = {"params": {"_meta": meta}}
            proxy.append("sets `params._meta` to the example's")
    else:
        method, action = "tools/list", {"action": PLACEHOLDER_CALL}
        rewrite["raw" if message is None else "body"] = example.text if message is None else message
        proxy.append("replaces the body with the example's" + (" batch" if isinstance(message, list) else ""))
    if example.size is not None:
        rewrite.pop("body", None)
        rewrite["raw"] = example.text + " " * (example.size - len(example.text.encode("utf-8")))
        proxy.append(f"pads the body with spaces to {example.size} bytes")
    client_headers, proxy_headers = _split_headers(example.headers)
    if proxy_headers:
        rewrite["headers"] = proxy_headers
        proxy.append("sets " + ", ".join(f"`{name}: {value}`" for name, value in proxy_headers.items()))
    if client_headers:
        action["headers"] = client_headers
    if rewrite:
        action["rewrite"] = {"method": method, **rewrite}
    if example.repeat > 1:
        action["repeat"] = example.repeat
    return ClientCall(action, tuple(proxy))


def _json_or_none(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _arguments(method: str, params: Any) -> dict[str, Any]:
    """The runner fields for `method`'s params (name, arguments, uri, ref, argument)."""
    params = params if isinstance(params, dict) else {}
    if method in ("tools/call", "prompts/get"):
        return {"name": str(params.get("name", "")), "arguments": params.get("arguments", {})}
    if method == "resources/read":
        return {"uri": str(params.get("uri", ""))}
    if method == "completion/complete":
        return {"ref": params.get("ref", {}), "argument": params.get("argument", {})}
    return {}


def _split_headers(headers: tuple[tuple[str, str], ...]) -> tuple[dict[str, str], dict[str, str]]:
    """The example's headers a client can add itself, and those only a proxy can set; defaults dropped."""
    defaults = {(name.lower(), value) for name, value in DEFAULT_HEADERS}
    own: dict[str, str] = {}
    proxied: dict[str, str] = {}
    for name, value in headers:
        if (name.lower(), value) in defaults:
            continue
        (proxied if name.lower() in SDK_HEADERS else own)[name] = value
    return own, proxied
