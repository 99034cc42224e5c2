"""Raw HTTP/1.1 over sockets, as an attacker sends it: from a chosen loopback address, byte by byte.

httpx cannot trickle a request or leave one half-sent, so the tests that play slow or vanishing
clients use these. Linux routes all of 127.0.0.0/8 to the loopback interface, so binding the
client socket to 127.0.0.2, 127.0.0.3, ... gives the server distinct client addresses.
"""

from __future__ import annotations

import json
import socket
import time
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Reply:
    """What came back on a connection, and how long the server took to end it."""

    raw: bytes
    seconds: float
    closed: bool

    @property
    def status(self) -> int:
        """The status code of the first response (0 when nothing came back)."""
        parts = self.raw.split(b" ", 2)
        return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0

    @property
    def body(self) -> bytes:
        """The body of the first response."""
        return self.raw.partition(b"\r\n\r\n")[2]

    def json(self) -> Any:
        """The body parsed as JSON."""
        return json.loads(self.body)

    def ended_with_408_or_reset(self) -> bool:
        """The server ended the exchange as a deadline does: 408, or a reset that may have eaten it.

        uvicorn closes the socket right after its answer; bytes the client is still sending then
        make the kernel reset the connection, which can destroy the answer unread.
        """
        return self.closed and (self.raw.startswith(b"HTTP/1.1 408 ") or self.raw == b"")


def connect(port: int, source: str = "127.0.0.1", timeout: float = 10.0) -> socket.socket:
    """A TCP connection to the server on 127.0.0.1:`port`, from address `source`."""
    return socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))


def request_head(content_length: int | None, extra: dict[str, str] | None = None) -> bytes:
    """The request line and headers of a POST to /mcp, ending with the blank line."""
    lines = ["POST /mcp HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json"]
    if content_length is not None:
        lines.append(f"Content-Length: {content_length}")
    lines += [f"{name}: {value}" for name, value in (extra or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def post(port: int, body: bytes, source: str = "127.0.0.1", headers: dict[str, str] | None = None) -> Reply:
    """Send one complete request with `Connection: close` and read the whole reply."""
    started = time.monotonic()
    with connect(port, source) as sock:
        sock.sendall(request_head(len(body), {"Connection": "close", **(headers or {})}) + body)
        raw, closed = read_until_closed(sock)
    return Reply(raw, time.monotonic() - started, closed)


def read_until_closed(sock: socket.socket) -> tuple[bytes, bool]:
    """Everything the server sends until it closes the connection, and whether it did.

    False means the socket's timeout ran out first: the server kept the connection open.
    """
    received = b""
    try:
        while data := sock.recv(65536):
            received += data
    except TimeoutError:
        return received, False
    except ConnectionResetError:
        pass
    return received, True


def trickle(sock: socket.socket, data: bytes, interval: float, limit_seconds: float) -> Reply:
    """Send `data` one byte every `interval` seconds until the server answers or closes.

    Returns what the server sent, how long after the first byte, and whether it closed the
    connection. Stops (without closing) after `limit_seconds`, which the callers set well past
    the deadline under test: a reply with `closed=False` means the server waited forever.
    """
    started = time.monotonic()
    sock.settimeout(interval)
    received = b""
    for byte in data:
        if time.monotonic() - started > limit_seconds:
            return Reply(received, time.monotonic() - started, closed=False)
        try:
            sock.sendall(bytes([byte]))
        except (BrokenPipeError, ConnectionResetError):
            break
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        except ConnectionResetError:
            # The server closed while bytes it had not read were arriving, so the kernel reset
            # the connection, and may have dropped the answer before it could be read.
            return Reply(received, time.monotonic() - started, closed=True)
        if not chunk:
            return Reply(received, time.monotonic() - started, closed=True)
        received += chunk
    sock.settimeout(max(0.1, limit_seconds - (time.monotonic() - started)))
    rest, closed = read_until_closed(sock)
    return Reply(received + rest, time.monotonic() - started, closed)


def assert_no_traceback(log: str) -> None:
    """The server's log shows no Python traceback and no unhandled ASGI exception."""
    assert "Traceback" not in log, log
    assert "Exception in ASGI application" not in log, log
