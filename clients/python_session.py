"""The Python runner's session: connect with `mcp.Client`, make the call, describe what the client surfaced.

clients/python_client.py checks the action first and imports this module only then, so a bad action is
answered without loading the SDK.
"""

from __future__ import annotations

import warnings
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from importlib.metadata import version
from typing import Any

import anyio
import httpx2
from mcp import Client, MCPDeprecationWarning
from mcp.client.streamable_http import streamable_http_client
from mcp_types import PromptReference, ResourceTemplateReference

from clients.watching_transport import TrafficLog, WatchingTransport

DEFAULT_TIMEOUT_SECONDS = 30.0
MAX_TEXT = 500
# The JSON-RPC method each action posts: an exception before it left is `cannot-send`.
ACTION_METHODS = {
    "list_tools": "tools/list",
    "list_resources": "resources/list",
    "list_prompts": "prompts/list",
    "ping": "ping",
    "call_tool": "tools/call",
    "read_resource": "resources/read",
    "get_prompt": "prompts/get",
    "complete": "completion/complete",
}

Outcome = dict[str, Any]


class Unreachable(Exception):
    """The server refused the connection or its name did not resolve."""


def describe_error(error: BaseException) -> dict[str, Any]:
    """Class, JSON-RPC code (when the exception has one) and message, on one line."""
    code = getattr(error, "code", None)
    message = " ".join(str(error).split())
    return {
        "class": type(error).__name__,
        "code": code if isinstance(code, int) else None,
        "message": message,
    }


def innermost(error: BaseException) -> BaseException:
    """The one exception inside nested single-member exception groups (how anyio task groups re-raise)."""
    while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]
    return error


def compressed(methods: list[str]) -> list[str]:
    """The methods in order, a run of the same method written once as `method xN`."""
    runs: list[list[Any]] = []
    for method in methods:
        if runs and runs[-1][0] == method:
            runs[-1][1] += 1
        else:
            runs.append([method, 1])
    return [method if count == 1 else f"{method} x{count}" for method, count in runs]


def _clipped(text: str) -> dict[str, Any]:
    return {"text": text[:MAX_TEXT], "truncated": True} if len(text) > MAX_TEXT else {"text": text}


def _text_of(items: list[Any]) -> str:
    return "\n".join(item.text for item in items if isinstance(getattr(item, "text", None), str))


async def _call_tool(client: Client, action: dict[str, Any]) -> Outcome:
    result = await client.call_tool(action["name"], action.get("arguments", {}))
    return {"isError": bool(result.is_error), **_clipped(_text_of(result.content))}


async def _get_prompt(client: Client, action: dict[str, Any]) -> Outcome:
    result = await client.get_prompt(action["name"], action.get("arguments", {}))
    return {"isError": False, **_clipped(_text_of([message.content for message in result.messages]))}


async def _read_resource(client: Client, action: dict[str, Any]) -> Outcome:
    result = await client.read_resource(action["uri"])
    return {"isError": False, **_clipped(_text_of(result.contents))}


async def _complete(client: Client, action: dict[str, Any]) -> Outcome:
    ref_type = ResourceTemplateReference if action["ref"].get("type") == "ref/resource" else PromptReference
    result = await client.complete(ref_type.model_validate(action["ref"]), action["argument"])
    return {"isError": False, "values": result.completion.values}


async def _ping(client: Client, action: dict[str, Any]) -> Outcome:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        await client.send_ping()
    return {"isError": False}


async def _list_tools(client: Client, action: dict[str, Any]) -> Outcome:
    return {"isError": False, "tools": [tool.name for tool in (await client.list_tools()).tools]}


async def _list_resources(client: Client, action: dict[str, Any]) -> Outcome:
    return {"isError": False, "resources": [str(r.uri) for r in (await client.list_resources()).resources]}


async def _list_prompts(client: Client, action: dict[str, Any]) -> Outcome:
    return {"isError": False, "prompts": [prompt.name for prompt in (await client.list_prompts()).prompts]}


PERFORM: dict[str, Callable[[Client, dict[str, Any]], Awaitable[Outcome]]] = {
    "call_tool": _call_tool,
    "get_prompt": _get_prompt,
    "read_resource": _read_resource,
    "complete": _complete,
    "ping": _ping,
    "list_tools": _list_tools,
    "list_resources": _list_resources,
    "list_prompts": _list_prompts,
}


async def _repeat_action(client: Client, action: dict[str, Any], log: TrafficLog) -> Outcome:
    """Make the call `repeat` times; stop at the first exception and say at which call it came."""
    for call in range(1, action.get("repeat", 1) + 1):
        before = len(log.sent)
        try:
            observed = {"outcome": "result", **await PERFORM[action["action"]](client, action), "call": call}
        except Exception as raised:
            if log.unreachable:
                raise Unreachable(log.unreachable) from None
            error = describe_error(innermost(raised))
            if ACTION_METHODS[action["action"]] not in log.sent[before:]:
                return {
                    "outcome": "cannot-send",
                    "why": error["message"],
                    "class": error["class"],
                    "call": call,
                }
            return {"outcome": "exception", **error, "phase": "action", "call": call}
    return observed


async def observe(action: dict[str, Any]) -> Outcome:
    """Connect, perform the action, and describe what the client surfaced."""
    log = TrafficLog()
    sdk = {"client": {"sdk": "mcp", "version": version("mcp")}, "mode": action.get("mode", "auto")}
    transport = WatchingTransport(log, action.get("rewrite"))
    timeout = httpx2.Timeout(DEFAULT_TIMEOUT_SECONDS, read=300)
    http = httpx2.AsyncClient(headers=action.get("headers", {}), timeout=timeout, transport=transport)
    observed: Outcome | None = None
    try:
        async with AsyncExitStack() as stack:
            await stack.enter_async_context(http)
            try:
                connection = Client(streamable_http_client(action["url"], http_client=http), mode=sdk["mode"])
                client = await stack.enter_async_context(connection)
            except Exception as raised:
                if log.unreachable:
                    raise Unreachable(log.unreachable) from None
                observed = {
                    "outcome": "exception",
                    **describe_error(innermost(raised)),
                    "phase": "connect",
                    **sdk,
                }
                return {**observed, "requests": len(log.sent), "sent": compressed(log.sent)}
            context = {**sdk, "protocolVersion": client.protocol_version}
            observed = {**await _repeat_action(client, action, log), **context}
    except Exception:
        # A refused connection can also surface from the transport's task group as the session closes.
        if log.unreachable:
            raise Unreachable(log.unreachable) from None
        if observed is None:
            raise
    return {**observed, "requests": len(log.sent), "sent": compressed(log.sent)}


async def observe_within(action: dict[str, Any], seconds: float) -> Outcome:
    """`observe`, raising TimeoutError when it takes longer than `seconds`."""
    with anyio.fail_after(seconds):
        return await observe(action)
