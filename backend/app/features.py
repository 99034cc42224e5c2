"""Tools, resources and prompts: the registries the decorators fill, and the MCP methods over them.

The functions themselves live in `backend.app.mcp_server`; this module turns the
registered functions into `tools/*`, `resources/*` and `prompts/*` results. Handlers take
the request's `params` object and return the result as every revision defines it; the fields
only 2026-07-28 defines are added by `backend.app.revisions`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, TypeVar

import anyio

from backend.app import schema
from backend.app.content import DocsIndex, query_terms

Handler = Callable[[dict[str, Any]], dict[str, Any]]
F = TypeVar("F", bound=Callable[..., str])

# name -> function for tools and prompts; URI template -> function for resources.
TOOLS: dict[str, Callable[..., str]] = {}
RESOURCES: dict[str, Callable[..., str]] = {}
PROMPTS: dict[str, Callable[..., str]] = {}
# The docs index of the app answering the current request; tool functions read it from here.
DOCS: ContextVar[DocsIndex] = ContextVar("docs")


def tool() -> Callable[[F], F]:
    """Register the decorated function as an MCP tool named after the function."""

    def register(func: F) -> F:
        TOOLS[func.__name__] = func
        return func

    return register


def resource(uri_template: str) -> Callable[[F], F]:
    """Register the decorated function as the reader of resources matching `uri_template`."""

    def register(func: F) -> F:
        RESOURCES[uri_template] = func
        return func

    return register


def prompt() -> Callable[[F], F]:
    """Register the decorated function as an MCP prompt named after the function."""

    def register(func: F) -> F:
        PROMPTS[func.__name__] = func
        return func

    return register


class ToolError(Exception):
    """A tool ran but cannot answer; the message goes back to the model in an `isError` result."""


class UnknownName(LookupError):
    """A request names a tool, resource or prompt that does not exist."""

    def __init__(self, kind: str, name: str) -> None:
        super().__init__(kind, name)
        self.kind = kind
        self.name = name


class BadParams(ValueError):
    """`params`, or a field inside it, has the wrong JSON type; the message says which."""


def check_query(query: str, max_chars: int, max_words: int) -> None:
    """Refuse an empty search query, or one whose cost would not be bounded, saying what to do instead.

    The length is checked before the words, so a huge query is refused before it is even split.

    Args:
        query: The query as the client sent it.
        max_chars: The longest query accepted.
        max_words: The most distinct words (as the search counts them) accepted.
    """
    if not query.strip():
        raise ToolError("The query is empty. Call search_public_docs again with a few words to look for.")
    if len(query) > max_chars:
        raise ToolError(
            f"The query is {len(query)} characters long; the limit is {max_chars}. "
            "Call search_public_docs again with a few words that name the topic."
        )
    if (words := len(query_terms(query))) > max_words:
        raise ToolError(
            f"The query has {words} different words; the limit is {max_words}. "
            "Call search_public_docs again with the few words that matter most."
        )


async def run_handler(
    method: str, handler: Handler, params: dict[str, Any], workers: anyio.CapacityLimiter
) -> dict[str, Any]:
    """Run a handler: those that read the docs folder in a worker thread, the others inline.

    A search or a page read never runs on the event loop, and no more of them run at once than
    `workers` allows, so the cheap methods (ping, the lists, discover) keep answering meanwhile.

    Args:
        method: The method being answered; BLOCKING_METHODS go to a worker.
        handler: Its handler.
        params: The request's params object.
        workers: The limiter shared by every worker-thread call.
    """
    if method in BLOCKING_METHODS:
        return await anyio.to_thread.run_sync(handler, params, limiter=workers)
    return handler(params)


def _string_field(params: dict[str, Any], key: str) -> str:
    value = params.get(key)
    if not isinstance(value, str):
        raise BadParams(f"'{key}' must be a string")
    return value


def _arguments(params: dict[str, Any]) -> dict[str, Any]:
    arguments = params.get("arguments", {})
    if not isinstance(arguments, dict):
        raise BadParams("'arguments' must be an object")
    return arguments


def _template_pattern(uri_template: str) -> re.Pattern[str]:
    pieces = re.split(r"\{(\w+)\}", uri_template)
    return re.compile("".join(f"(?P<{p}>.*)" if i % 2 else re.escape(p) for i, p in enumerate(pieces)))


def list_tools(params: dict[str, Any]) -> dict[str, Any]:
    """`tools/list`: every registered tool with its description and input schema."""
    tools = [
        {
            "name": name,
            "description": schema.describe(func),
            "inputSchema": schema.input_schema(func),
            "annotations": {"readOnlyHint": True, "openWorldHint": False},
        }
        for name, func in TOOLS.items()
    ]
    return {"tools": tools}


def call_tool(params: dict[str, Any]) -> dict[str, Any]:
    """`tools/call`: run a tool; arguments that do not fit, or a ToolError, become `isError`."""
    name, arguments = _string_field(params, "name"), _arguments(params)
    func = TOOLS.get(name)
    if func is None:
        raise UnknownName("tool", name)
    try:
        text, is_error = func(**schema.bind(func, arguments)), False
    except schema.ArgumentError as exc:
        text, is_error = f"{exc} Call {name} again with arguments that fit its inputSchema.", True
    except ToolError as exc:
        text, is_error = str(exc), True
    return {"content": [{"type": "text", "text": text}], "isError": is_error}


def list_resources(params: dict[str, Any]) -> dict[str, Any]:
    """`resources/list`: every page, under each resource template that takes a `{path}`."""
    resources = [
        {"uri": template.replace("{path}", path.lstrip("/")), "name": path, "mimeType": "text/markdown"}
        for template in RESOURCES
        if "{path}" in template
        for path in DOCS.get().paths()
    ]
    return {"resources": resources}


def list_resource_templates(params: dict[str, Any]) -> dict[str, Any]:
    """`resources/templates/list`: the registered URI templates."""
    templates = [
        {
            "uriTemplate": uri_template,
            "name": func.__name__,
            "description": schema.describe(func),
            "mimeType": "text/markdown",
        }
        for uri_template, func in RESOURCES.items()
    ]
    return {"resourceTemplates": templates}


def read_resource(params: dict[str, Any]) -> dict[str, Any]:
    """`resources/read`: the first template matching the URI reads it; no match is an unknown resource."""
    uri = _string_field(params, "uri")
    for uri_template, func in RESOURCES.items():
        if match := _template_pattern(uri_template).fullmatch(uri):
            contents = [{"uri": uri, "mimeType": "text/markdown", "text": func(**match.groupdict())}]
            return {"contents": contents}
    raise UnknownName("resource", uri)


def list_prompts(params: dict[str, Any]) -> dict[str, Any]:
    """`prompts/list`: every registered prompt with its arguments."""
    prompts = [
        {"name": name, "description": schema.describe(func), "arguments": schema.prompt_arguments(func)}
        for name, func in PROMPTS.items()
    ]
    return {"prompts": prompts}


def get_prompt(params: dict[str, Any]) -> dict[str, Any]:
    """`prompts/get`: render a prompt; arguments that do not fit it are bad params."""
    name, arguments = _string_field(params, "name"), _arguments(params)
    func = PROMPTS.get(name)
    if func is None:
        raise UnknownName("prompt", name)
    try:
        text = func(**schema.bind(func, arguments, coerce=True))
    except schema.ArgumentError as exc:
        raise BadParams(str(exc)) from exc
    message = {"role": "user", "content": {"type": "text", "text": text}}
    return {"description": schema.describe(func).splitlines()[0], "messages": [message]}


# The methods whose handlers read files in the docs folder.
BLOCKING_METHODS = frozenset({"tools/call", "resources/read", "resources/list"})

FEATURE_METHODS: dict[str, Handler] = {
    "tools/list": list_tools,
    "tools/call": call_tool,
    "resources/list": list_resources,
    "resources/templates/list": list_resource_templates,
    "resources/read": read_resource,
    "prompts/list": list_prompts,
    "prompts/get": get_prompt,
}
