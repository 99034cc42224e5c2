"""What the app says at start-up about the protections it cannot give itself.

The deadline for a request's headers, and the bound on their size, belong to the HTTP server: uvicorn parses
the headers before the app sees the request. `python -m backend.app` (backend.app.serve) sets both, and tells
the app so (`create_app(header_deadline=...)`). Started any other way, for instance as
`uvicorn backend.app.mcp_server:app`, the app still believes no forwarding header and still bounds the body
and its deadline, but a client can hold a connection open by sending its headers a byte at a time: the
app's lifespan says so once, as a warning, when the server starts it.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from starlette.applications import Starlette

logger = logging.getLogger(__name__)

UNGUARDED_WARNING = (
    "the Connect MCP server was started without `python -m backend.app`: request headers have no deadline, "
    "so a client can hold a connection open by sending them a byte at a time. Forwarding headers are still "
    "not believed and request bodies still have their limit and deadline. Start it with "
    "`python -m backend.app` (--host, --port, --trusted-proxy; see --help)."
)


@asynccontextmanager
async def warn_when_unguarded(app: Starlette) -> AsyncIterator[None]:
    """The app's lifespan: one warning at start-up when no header deadline was set for it."""
    if app.state.header_deadline is None:
        logger.warning(UNGUARDED_WARNING)
    yield
