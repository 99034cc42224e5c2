"""The clients of the soak test (benchmarks/soak.py): each request kind, and the slow and ping clients.

Every client binds its socket to its own loopback address (Linux routes all of 127.0.0.0/8 to
the loopback interface), so the server sees many clients and rate-limits each on its own.
Requests are raw HTTP/1.1 over asyncio streams, one connection each: that is the only way to
send a 10 MiB promise without the bytes, trickle a request, or read a 413 that arrives while
the body is still being sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
from dataclasses import dataclass
from typing import Any

HEAVY_QUERY = "error header mismatch rate limit public tools page connect search shapes request"
PING = {"jsonrpc": "2.0", "id": 0, "method": "ping"}
MODERN = {"MCP-Protocol-Version": "2026-07-28"}
PIECE = 32 * 1024
EARLY_ANSWER_WAIT = 0.25
# The status a slow client records when the server's close reached it as a TCP reset: uvicorn
# closes right after its 408, and the bytes the client is still trickling make the kernel reset
# the connection, which can destroy the 408 before it is read.
RESET = -1


def _rpc(method: str, params: dict[str, Any] | None = None) -> bytes:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": 1, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message).encode()


def _call(name: str, **arguments: Any) -> bytes:
    return _rpc("tools/call", {"name": name, "arguments": arguments})


# kind -> (body, extra headers, the status the server must answer it with when under the limit)
KINDS: dict[str, tuple[bytes, dict[str, str], int]] = {
    "search": (_call("search_public_docs", query=HEAVY_QUERY[:200], limit=20), MODERN, 200),
    "list": (_rpc("tools/list"), MODERN, 200),
    "read": (_rpc("resources/read", {"uri": "connect://pages/developers/mcp-errors/"}), MODERN, 200),
    "page": (_call("get_public_page", path="/developers/mcp-server/"), {}, 200),
    "ping": (json.dumps(PING).encode(), {}, 200),
    "too-long-query": (_call("search_public_docs", query="rate limit " * 2000), MODERN, 200),
    "unknown-method": (_rpc("tools/destroy"), {}, 404),
    "invalid-json": (b'{"jsonrpc": "2.0", "id": 1, "method": ', {}, 400),
    "nan-id": (b'{"jsonrpc": "2.0", "id": NaN, "method": "ping"}', {}, 400),
    "surrogate-id": (b'{"jsonrpc": "2.0", "id": "\\ud800", "method": "ping"}', {}, 400),
    "bad-origin": (_rpc("tools/list"), {"Origin": "https://evil.example"}, 403),
}
OVERSIZE_KINDS = {"oversize-length": 413, "oversize-chunked": 413}
# How often each kind appears in a load client's schedule.
WEIGHTS = {
    "search": 6, "list": 3, "read": 2, "page": 2, "ping": 2, "too-long-query": 1, "unknown-method": 1,
    "invalid-json": 1, "nan-id": 1, "surrogate-id": 1, "bad-origin": 1, "oversize-length": 1,
    "oversize-chunked": 1,
}  # fmt: skip
EXPECTED = {kind: expected for kind, (_, _, expected) in KINDS.items()} | OVERSIZE_KINDS


@dataclass(frozen=True)
class Outcome:
    """One request of the soak: who sent what, and what status came back (0: no answer)."""

    address: str
    kind: str
    status: int
    seconds: float


def _head(length: int | None, headers: dict[str, str]) -> bytes:
    lines = ["POST /mcp HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json", "Connection: close"]
    lines += [f"Content-Length: {length}"] if length is not None else ["Transfer-Encoding: chunked"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def _status(line: bytes) -> int:
    parts = line.split(b" ", 2)
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0


async def _exchange(port: int, address: str, head: bytes, body: bytes, timeout: float) -> int:
    """Send a request on a new connection from `address`; the status of the reply (0 if none).

    A body larger than one piece waits, after its first piece, for an early answer: the server
    answers a rate-limited request before reading its body and then closes, and bytes still
    arriving at a closed socket make the kernel reset the connection, which can destroy the
    answer before it is read. Oversize bodies are cut just past the limit for the same reason.
    """
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    try:
        writer.write(head + body[:PIECE])
        await writer.drain()
        if len(body) > PIECE:
            with contextlib.suppress(TimeoutError):
                return _status(await asyncio.wait_for(reader.readline(), EARLY_ANSWER_WAIT))
            writer.write(body[PIECE:])
            await writer.drain()
        line = await asyncio.wait_for(reader.readline(), timeout)
        await asyncio.wait_for(reader.read(), timeout)
    except (ConnectionError, TimeoutError):
        return 0
    finally:
        writer.close()
    return _status(line)


def request_bytes(kind: str) -> tuple[bytes, bytes]:
    """The head and the body a request of `kind` puts on the wire."""
    if kind == "oversize-length":  # promises 10 MiB, sends 4 KiB: refused before it is read
        return _head(10 * 1024 * 1024, {}), b" " * 4096
    if kind == "oversize-chunked":  # 288 KiB in chunks and no end: refused once past 256 KiB
        chunk = b" " * 32768
        return _head(None, {}), (f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n") * 9
    body, headers, _ = KINDS[kind]
    return _head(len(body), headers), body


async def send(port: int, address: str, kind: str, timeout: float = 20.0) -> Outcome:
    """One request of `kind` from `address`, timed."""
    started = time.monotonic()
    status = await _exchange(port, address, *request_bytes(kind), timeout)
    return Outcome(address, kind, status, time.monotonic() - started)


async def _dribble(writer: asyncio.StreamWriter, data: bytes, interval: float) -> None:
    try:
        for byte in data:
            writer.write(bytes([byte]))
            await writer.drain()
            await asyncio.sleep(interval)
    except ConnectionError:
        return  # the server has closed the connection


async def slow_client(port: int, address: str, part: str, interval: float, limit: float) -> Outcome:
    """Trickle a request's headers (`part="headers"`) or body one byte per `interval`.

    Returns the status the server ended the connection with (408 expected, or RESET) and when
    it did; status 0 with `seconds >= limit` means the server never cut the client off.
    """
    body = json.dumps(PING).encode() + b" " * 400
    head, data = (b"", _head(len(body), {}) + body) if part == "headers" else (_head(len(body), {}), body)
    started = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    writer.write(head)
    dribbling = asyncio.create_task(_dribble(writer, data, interval))
    status = 0
    try:
        status = _status(await asyncio.wait_for(reader.readline(), limit))
    except ConnectionResetError:
        status = RESET
    except (ConnectionError, TimeoutError):
        pass
    finally:
        dribbling.cancel()
        writer.close()
    return Outcome(address, f"slow-{part}", status, time.monotonic() - started)


def ping_loop(port: int, addresses: list[str], seconds: float, interval: float) -> list[tuple[float, int]]:
    """Ping every `interval` seconds for `seconds`, rotating over `addresses`: (latency, status) each.

    Runs in a process of its own, so the load generator's own work never delays a ping.
    """
    results: list[tuple[float, int]] = []
    data = b"".join(request_bytes("ping"))
    end = time.monotonic() + seconds
    turn = 0
    while (now := time.monotonic()) < end:
        started = now
        reply = b""
        try:
            source = (addresses[turn % len(addresses)], 0)
            with socket.create_connection(("127.0.0.1", port), 5, source) as sock:
                sock.sendall(data)
                while chunk := sock.recv(65536):
                    reply += chunk
        except OSError:
            reply = b""  # no answer within 5 s, or a refused connection: recorded as status 0
        results.append((time.monotonic() - started, _status(reply.split(b"\r\n", 1)[0])))
        turn += 1
        time.sleep(max(0.0, started + interval - time.monotonic()))
    return results
