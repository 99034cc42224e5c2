"""The Connect MCP server: the public documentation over MCP Streamable HTTP.

Start it with `python -m backend.app` (see `backend.app.__main__`), which runs this app under
uvicorn without trusting proxy headers and with deadlines for slow clients. There is one
route, `POST /mcp`, and no session state: every request stands alone. `mcp_endpoint` applies
the transport checks (Origin, rate limit, body size and deadline, strict JSON, one message per
request), `_handle` dispatches a JSON-RPC request and answers in the revision the request
speaks, and every error response is built by `_rpc_error`.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterable
from http import HTTPStatus
from pathlib import Path
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from backend.app.content import DocsIndex
from backend.app.features import (
    DOCS,
    FEATURE_METHODS,
    PROMPTS,
    RESOURCES,
    TOOLS,
    BadParams,
    Handler,
    ToolError,
    UnknownName,
    check_query,
    prompt,
    resource,
    run_handler,
    tool,
)
from backend.app.protocol import (
    HEADER_MISMATCH,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    header_mismatch,
)
from backend.app.rate_limit import Clock, SlidingWindowLimiter
from backend.app.revisions import (
    negotiated_handshake,
    removed_in_revision,
    request_revision,
    server_info_for,
    shape_result,
    unsupported_version,
)
from backend.app.startup import warn_when_unguarded
from backend.app.transport import (
    BodyTimeout,
    BodyTooLarge,
    body_never_arrived,
    client_key,
    decode_message,
    origin_allowed,
    parse_networks,
    read_body,
)

logger = logging.getLogger(__name__)

MAX_BODY_BYTES = 256 * 1024
# Deadlines for slow clients: the body is read by the app, the headers by uvicorn (backend.app.serve).
BODY_READ_TIMEOUT_SECONDS = 10
HEADER_READ_TIMEOUT_SECONDS = 10
KEEP_ALIVE_TIMEOUT_SECONDS = 5
MAX_HEADER_BYTES = 16 * 1024
RATE_LIMIT_REQUESTS = 120
RATE_LIMIT_WINDOW_SECONDS = 60
RATE_LIMIT_STATUS = HTTPStatus.TOO_MANY_REQUESTS
# The limiter forgets the least recently seen client beyond this many.
MAX_TRACKED_CLIENTS = 4096
SUPPORTED_PROTOCOL_VERSIONS = ("2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28")
LATEST_PROTOCOL_VERSION = "2026-07-28"
# What a legacy `initialize` without a protocolVersion is answered with.
LATEST_HANDSHAKE_VERSION = "2025-11-25"
# Remote origins allowed exactly; pages served from a loopback host are allowed on any port.
ALLOWED_ORIGINS = ("https://connectbyjbrh.com", "https://www.connectbyjbrh.com")
LOOPBACK_ORIGIN_HOSTS = ("localhost", "127.0.0.1", "[::1]")
MAX_SEARCH_LIMIT = 20
MAX_QUERY_CHARS = 200
MAX_QUERY_WORDS = 12
# Calls that read the docs folder run in worker threads, this many at once. A search is CPU work
# under the GIL, so more workers only add contention for the event loop that answers the rest.
DOCS_WORKERS = 1
DEFAULT_DOCS_DIR = Path(__file__).resolve().parents[2] / "docs"
SERVER_INFO = {"name": "connect-docs", "title": "Connect public documentation", "version": "1.0.0"}
CAPABILITIES: dict[str, Any] = {"tools": {}, "resources": {}, "prompts": {}}
# Every error answer links to its own row of the public error catalog: this page plus the row's anchor
# (`#err-<doc>`), under `error.data.docs_url` (mkdocs.yml names this place in the catalog's `links:`).
ERRORS_PAGE_URL = "https://connectbyjbrh.com/developers/mcp-errors/"
DOCS_URL_FIELD = "docs_url"
INSTRUCTIONS = (
    "Read-only access to the public Connect documentation. Call search_public_docs to find pages, "
    "then get_public_page with a path it returned."
)

RequestId = str | int | None

# The registries the decorators fill (plain dicts, defined in backend.app.features). docgen finds
# tools, resources and prompts by these decorator names.
_TOOLS, _RESOURCES, _PROMPTS = TOOLS, RESOURCES, PROMPTS
_tool, _resource, _prompt = tool, resource, prompt


@_tool()
def search_public_docs(query: str, limit: int = 5) -> str:
    """Search the public documentation and list the pages that match best.

    Matching ignores case and weighs words in a page title above words in its text.
    Pass a returned path to get_public_page to read the page.

    Args:
        query: A few words to look for, such as "rate limit" or "header mismatch"; at most 200
            characters and 12 different words.
        limit: How many pages to list at most, from 1 to 20.
    """
    check_query(query, MAX_QUERY_CHARS, MAX_QUERY_WORDS)
    if not 1 <= limit <= MAX_SEARCH_LIMIT:
        raise ToolError(f"limit must be between 1 and {MAX_SEARCH_LIMIT}. Call search_public_docs again.")
    hits = DOCS.get().search(query, limit)
    if not hits:
        return f"No public page matches '{query}'. Try fewer or more general words."
    return "\n".join(f"{n}. [{h.page.title}]({h.page.path}): {h.snippet}" for n, h in enumerate(hits, 1))


@_tool()
def get_public_page(path: str) -> str:
    """Return one public documentation page as Markdown, the way a reader of the site sees it.

    Args:
        path: The page's site path, such as "/developers/mcp-errors/"; "/" is the home page.
    """
    page = DOCS.get().get(path)
    if page is None:
        raise ToolError(f"No public page at '{path}'. Call search_public_docs to find the right path.")
    return page.text


@_resource("connect://pages/{path}")
def public_page(path: str) -> str:
    """A public documentation page as Markdown, as a reader of the site sees it, addressed by its site path.

    Args:
        path: The site path without its leading slash, such as "developers/mcp-errors/".
    """
    page = DOCS.get().get(path)
    if page is None:
        raise UnknownName("resource", f"connect://pages/{path}")
    return page.text


@_prompt()
def answer_from_docs(question: str, audience: str = "developer") -> str:
    """Answer a question from the public documentation only, citing the pages used.

    Args:
        question: The question to answer.
        audience: Who will read the answer, such as "developer" or "operator"; sets depth and tone.
    """
    return (
        f"Answer this question for a {audience}: {question}\n\n"
        "Use only the public Connect documentation. Call search_public_docs to find candidate pages, "
        "read the relevant ones with get_public_page, and cite each page you rely on by its path. "
        "If the documentation does not answer the question, say so instead of guessing."
    )


def _initialize(params: dict[str, Any]) -> dict[str, Any]:
    version = negotiated_handshake(params.get("protocolVersion"), LATEST_HANDSHAKE_VERSION)
    info = server_info_for(version, SERVER_INFO)
    return {"protocolVersion": version, "capabilities": CAPABILITIES, "serverInfo": info}


def _discover(params: dict[str, Any]) -> dict[str, Any]:
    return {
        "supportedVersions": list(SUPPORTED_PROTOCOL_VERSIONS),
        "capabilities": CAPABILITIES,
        "serverInfo": SERVER_INFO,
        "instructions": INSTRUCTIONS,
    }


_METHODS: dict[str, Handler] = {
    "initialize": _initialize,
    "ping": lambda params: {},
    "server/discover": _discover,
    **FEATURE_METHODS,
}


def _rpc_error(
    request_id: RequestId,
    code: int,
    message: str,
    *,
    status: int = HTTPStatus.OK,
    data: dict[str, Any] | None = None,
    doc: str,
) -> JSONResponse:
    """Build a JSON-RPC error response; the only place error bodies are made.

    Args:
        request_id: The id of the request being answered, or None when it is unknown.
        code: The JSON-RPC error code (see backend.app.protocol).
        message: One sentence for the client.
        status: The HTTP status of the response.
        data: Extra structured detail for `error.data`.
        doc: The error's id in the public error catalog; `error.data` always carries the link to its row,
            so a client can show the reader what the error means and what to do.
    """
    detail = {**(data or {}), DOCS_URL_FIELD: f"{ERRORS_PAGE_URL}#err-{doc}"}
    error: dict[str, Any] = {"code": code, "message": message, "data": detail}
    return JSONResponse({"jsonrpc": "2.0", "id": request_id, "error": error}, status_code=status)


async def _handle(
    message: dict[str, Any], headers: Headers, docs: DocsIndex, workers: anyio.CapacityLimiter
) -> JSONResponse:
    """Validate and dispatch one JSON-RPC request (a message with an id) and answer it."""
    request_id, method = message.get("id"), message.get("method")
    params = message.get("params", {})
    fields = params if isinstance(params, dict) else {}
    if (detail := header_mismatch(method, fields, headers)) is not None:
        # A routing header (version, method or name) says something the body does not.
        return _rpc_error(
            request_id, HEADER_MISMATCH, f"Header mismatch: {detail}", status=400, doc="header-mismatch"
        )
    if (version := unsupported_version(method, fields, headers, SUPPORTED_PROTOCOL_VERSIONS)) is not None:
        # The header, params._meta or initialize asked for a revision this server does not speak.
        return _rpc_error(
            request_id,
            INVALID_REQUEST,
            f"Unsupported protocol version: {version}",
            status=HTTPStatus.BAD_REQUEST,
            data={"supported": list(SUPPORTED_PROTOCOL_VERSIONS)},
            doc="unsupported-protocol-version",
        )
    method_name = method if isinstance(method, str) else ""
    handler = _METHODS.get(method_name)
    if handler is None or removed_in_revision(method_name, fields, headers):
        # The method named in the body is not one this server implements (for a 2026-07-28 request, which
        # has no handshake and no ping, `initialize` and `ping` neither).
        return _rpc_error(
            request_id, METHOD_NOT_FOUND, f"Method not found: {method}", status=404, doc="method-not-found"
        )
    DOCS.set(docs)
    try:
        if not isinstance(params, dict):
            raise BadParams("'params' must be an object")
        result = await run_handler(method_name, handler, params, workers)
    except BadParams as exc:
        # params, a call's arguments, or a field inside them does not have the expected JSON type.
        return _rpc_error(request_id, INVALID_PARAMS, f"Invalid params: {exc}", doc="invalid-params")
    except UnknownName as exc:
        kind, name = exc.kind, exc.name
        # The method exists, but the tool, resource or prompt it names does not.
        return _rpc_error(request_id, METHOD_NOT_FOUND, f"Unknown {kind}: {name}", doc="unknown-name")
    revision = request_revision(method, fields, headers, LATEST_HANDSHAKE_VERSION)
    shaped = shape_result(result, method_name, revision, SERVER_INFO)
    return JSONResponse({"jsonrpc": "2.0", "id": request_id, "result": shaped})


async def mcp_endpoint(request: Request) -> Response:
    """Apply the transport checks to one POST to /mcp, then pass a single request to _handle."""
    state, origin = request.app.state, request.headers.get("origin")
    if origin is not None and not origin_allowed(origin, ALLOWED_ORIGINS, LOOPBACK_ORIGIN_HOSTS):
        # An Origin header names neither a page on a loopback host nor an allowed remote site.
        return _rpc_error(
            None,
            INVALID_REQUEST,
            f"Origin not allowed: {origin}",
            status=HTTPStatus.FORBIDDEN,
            doc="origin-not-allowed",
        )
    client = client_key(request, state.trusted_proxies)
    if not state.limiter.allow(client):
        # This client already sent RATE_LIMIT_REQUESTS requests within the sliding window.
        refusal = _rpc_error(
            None, INTERNAL_ERROR, "Rate limit exceeded", status=RATE_LIMIT_STATUS, doc="rate-limited"
        )
        refusal.headers["Retry-After"] = str(state.limiter.retry_after(client))
        return refusal
    try:
        message = decode_message(await read_body(request, MAX_BODY_BYTES, state.body_timeout))
    except BodyTooLarge:
        # The body is larger than MAX_BODY_BYTES; reading stopped at the limit.
        too_big = _rpc_error(
            None,
            INVALID_REQUEST,
            f"Request body over {MAX_BODY_BYTES} bytes",
            status=413,
            doc="body-too-large",
        )
        too_big.headers["Connection"] = "close"  # uvicorn then closes instead of draining the rest
        return too_big
    except (ValueError, RecursionError):
        # The body is not strict JSON in UTF-8: malformed, NaN, Infinity, a number too large for a
        # double, a lone surrogate, or nested too deeply to parse.
        return _rpc_error(
            None, PARSE_ERROR, "Parse error: invalid JSON", status=HTTPStatus.BAD_REQUEST, doc="parse-error"
        )
    except (BodyTimeout, ClientDisconnect) as error:
        return body_never_arrived(client, error, state.body_timeout)
    if not isinstance(message, dict):
        # A batch (a JSON array) or another non-object value was posted instead of one message.
        return _rpc_error(
            None, INVALID_REQUEST, "Batch requests are not supported", status=400, doc="batch-not-supported"
        )
    if "id" not in message:
        return Response(status_code=HTTPStatus.ACCEPTED)
    try:
        return await _handle(message, request.headers, state.docs, state.workers)
    except Exception:
        logger.exception("unexpected fault while handling %r", message.get("method"))
        # Handling a well-formed request failed in a way the server did not foresee.
        return _rpc_error(message.get("id"), INTERNAL_ERROR, "Internal error", doc="internal-error")


def create_app(
    docs_dir: Path | str | None = None,
    clock: Clock | None = None,
    *,
    trusted_proxies: Iterable[str] = (),
    body_timeout: float = BODY_READ_TIMEOUT_SECONDS,
    header_deadline: float | None = None,
) -> Starlette:
    """Build the ASGI application.

    Args:
        docs_dir: Folder of Markdown pages to serve. Default: $CONNECT_DOCS_DIR, else <repo>/docs.
        clock: Source of monotonic seconds for the rate limiter; tests pass a fake one.
        trusted_proxies: Addresses or CIDR networks whose X-Forwarded-For is believed; none by default.
        body_timeout: Seconds a client may take to send a request body.
        header_deadline: The deadline the HTTP server gives a request's headers, when the launcher set one
            (`python -m backend.app`); without it the app warns at start-up (backend.app.startup).
    """
    if body_timeout <= 0:
        raise ValueError("the body timeout must be positive")
    root = Path(docs_dir or os.environ.get("CONNECT_DOCS_DIR") or DEFAULT_DOCS_DIR)
    app = Starlette(routes=[Route("/mcp", mcp_endpoint, methods=["POST"])], lifespan=warn_when_unguarded)
    app.state.header_deadline = header_deadline
    app.state.docs = DocsIndex(root)
    app.state.limiter = SlidingWindowLimiter(
        RATE_LIMIT_REQUESTS, RATE_LIMIT_WINDOW_SECONDS, clock or time.monotonic, MAX_TRACKED_CLIENTS
    )
    app.state.trusted_proxies = parse_networks(trusted_proxies)
    app.state.body_timeout = body_timeout
    app.state.workers = anyio.CapacityLimiter(DOCS_WORKERS)
    return app


app = create_app()
