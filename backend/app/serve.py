"""How the server is run under uvicorn: no proxy headers trusted, and deadlines for slow clients.

uvicorn on its own trusts `X-Forwarded-For` from 127.0.0.1 (its `proxy_headers` default), which
lets a local client pick its own rate-limit key, and it has no deadline for request headers:
its keep-alive timer runs only between requests, and is cancelled by the first byte of the
next one. `uvicorn_config` turns uvicorn's proxy handling off (the app decides which proxies to
believe, `backend.app.transport.client_key`), bounds the header size, and runs the HTTP/1.1
protocol below, which closes a connection whose request headers take too long.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import h11
import uvicorn
from uvicorn.config import LOGGING_CONFIG
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

logger = logging.getLogger(__name__)

REQUEST_TIMEOUT_REPLY = b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"


class HeaderDeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol, plus a deadline for each request's headers.

    The clock starts when the connection opens, and again when the first byte of a later
    request on the same connection arrives; it stops once h11 has parsed the request line and
    every header. When it runs out, the client gets `408 Request Timeout` and the connection
    is closed. Subclasses set `header_timeout_seconds` (see `header_deadline_protocol`).
    """

    header_timeout_seconds: float = 10.0

    def __init__(
        self,
        config: uvicorn.Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self._header_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_header_deadline()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is h11.IDLE:
            self._arm_header_deadline()  # still waiting for (the rest of) a request's headers
        else:
            self._disarm_header_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_header_deadline()
        super().connection_lost(exc)

    def _arm_header_deadline(self) -> None:
        if self._header_deadline is None and not self.transport.is_closing():
            self._header_deadline = self.loop.call_later(self.header_timeout_seconds, self._headers_too_slow)

    def _disarm_header_deadline(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None

    def _headers_too_slow(self) -> None:
        self._header_deadline = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        peer = self.client[0] if self.client else "unknown"
        logger.warning(
            "closed a connection from %s: request headers not complete within %s s",
            peer,
            self.header_timeout_seconds,
        )
        self.transport.write(REQUEST_TIMEOUT_REPLY)
        self.transport.close()


def header_deadline_protocol(seconds: float) -> type[HeaderDeadlineProtocol]:
    """A HeaderDeadlineProtocol class whose header deadline is `seconds`.

    Args:
        seconds: How long a client may take to send a request's headers.
    """
    if seconds <= 0:
        raise ValueError("the header timeout must be positive")
    return type("HeaderDeadlineProtocol", (HeaderDeadlineProtocol,), {"header_timeout_seconds": seconds})


def log_config(level: str) -> dict[str, Any]:
    """uvicorn's logging set-up, with the server's own `backend` loggers on the same handler.

    Args:
        level: The level name for uvicorn and the server, such as "info" or "warning".
    """
    loggers = {**LOGGING_CONFIG["loggers"]}
    loggers["backend"] = {"handlers": ["default"], "level": level.upper(), "propagate": False}
    return {**LOGGING_CONFIG, "loggers": loggers}


def uvicorn_config(
    app: Any,
    *,
    host: str,
    port: int,
    header_timeout: float,
    keep_alive_timeout: int,
    max_header_bytes: int,
    log_level: str = "info",
) -> uvicorn.Config:
    """The uvicorn configuration the server is meant to run with.

    Args:
        app: The ASGI application (from `backend.app.mcp_server.create_app`).
        host: Address to listen on.
        port: Port to listen on.
        header_timeout: Seconds a client may take to send a request's headers.
        keep_alive_timeout: Seconds an idle connection is kept open between requests.
        max_header_bytes: Largest request line plus headers accepted (h11 answers 400 beyond it).
        log_level: Level name for uvicorn's and the server's log lines.
    """
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=header_deadline_protocol(header_timeout),
        ws="none",
        lifespan="off",
        proxy_headers=False,
        server_header=False,
        timeout_keep_alive=keep_alive_timeout,
        h11_max_incomplete_event_size=max_header_bytes,
        log_config=log_config(log_level),
        log_level=log_level,
    )
