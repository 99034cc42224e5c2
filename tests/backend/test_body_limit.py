"""Oversized bodies: refused with 413 / -32600, without the server reading or holding them."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from backend.app.mcp_server import MAX_BODY_BYTES

pytestmark = pytest.mark.server

TEN_MIB = 10 * 1024 * 1024
CHUNK = 64 * 1024
# The server must not grow by anything close to the 10 MiB it was sent.
MAX_RSS_GROWTH_KIB = 4 * 1024


def memory_kib(pid: int) -> dict[str, int]:
    """The server's current (VmRSS) and peak (VmHWM) resident memory.

    The peak matters: a server that read the whole body and then freed it would show no lasting
    growth in VmRSS, but its high-water mark would have risen by the body's size.
    """
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines())
    return {key: int(fields[key].split()[0]) for key in ("VmRSS", "VmHWM")}


def assert_413(response: httpx.Response) -> None:
    assert response.status_code == 413
    assert response.json()["error"]["code"] == -32600
    assert response.json()["id"] is None


def padded_request(size: int) -> bytes:
    """A valid tools/list request padded with whitespace to exactly `size` bytes."""
    body = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/list"}).encode()
    return body + b" " * (size - len(body))


@pytest.fixture(scope="module")
def http(server: Any) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base_url, timeout=10) as client:
        yield client


def test_a_body_of_exactly_the_limit_is_accepted(http: httpx.Client) -> None:
    response = http.post("/mcp", content=padded_request(MAX_BODY_BYTES))
    assert response.status_code == 200
    assert response.json()["id"] == 7


def test_one_byte_over_the_limit_is_refused(http: httpx.Client) -> None:
    assert_413(http.post("/mcp", content=padded_request(MAX_BODY_BYTES + 1)))


def chunks(total: int) -> Iterator[bytes]:
    sent = 0
    while sent < total:
        piece = min(CHUNK, total - sent)
        sent += piece
        yield b"x" * piece


@pytest.mark.parametrize("framing", ["content-length", "chunked"])
def test_ten_mib_body_is_refused_without_memory_growth(server: Any, http: httpx.Client, framing: str) -> None:
    http.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})  # warm up
    before = memory_kib(server.pid)
    for _ in range(3):
        if framing == "content-length":
            response = http.post("/mcp", content=b"x" * TEN_MIB)
            assert response.request.headers["content-length"] == str(TEN_MIB)
        else:
            response = http.post("/mcp", content=chunks(TEN_MIB))
            assert response.request.headers["transfer-encoding"] == "chunked"
            assert "content-length" not in response.request.headers
        assert_413(response)
    after = memory_kib(server.pid)
    growth = {key: after[key] - before[key] for key in after}
    assert max(growth.values()) < MAX_RSS_GROWTH_KIB, f"server memory grew (KiB): {growth}"
    # The server is still healthy afterwards.
    assert http.post("/mcp", json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"}).status_code == 200


def raw_exchange(server: Any, head: bytes, body: bytes = b"") -> bytes:
    """Send `head` and `body` on a fresh socket, then read what arrives within a few seconds.

    The body is deliberately incomplete in the callers: an answer can only come back if the
    server decided without waiting for the rest.
    """
    host, port = server.base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        sock.sendall(head + body)
        received = b""
        while b"\r\n\r\n" not in received or not received.rstrip().endswith(b"}"):
            data = sock.recv(65536)
            if not data:
                break
            received += data
        return received


def test_declared_oversize_is_refused_before_any_body_byte(server: Any) -> None:
    head = (
        b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + f"Content-Length: {TEN_MIB}\r\n\r\n".encode()
    )
    reply = raw_exchange(server, head)  # not one byte of the promised 10 MiB is sent
    assert reply.startswith(b"HTTP/1.1 413 ")
    assert b'"code":-32600' in reply


def test_chunked_upload_is_cut_off_once_past_the_limit(server: Any) -> None:
    head = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
    piece = b"x" * CHUNK
    over_limit = (MAX_BODY_BYTES // CHUNK + 1) * (f"{CHUNK:x}\r\n".encode() + piece + b"\r\n")
    reply = raw_exchange(server, head, over_limit)  # no terminating zero-length chunk
    assert reply.startswith(b"HTTP/1.1 413 ")
    assert b"connection: close" in reply.lower()
