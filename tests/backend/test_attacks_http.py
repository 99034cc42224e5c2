"""Attacks on the HTTP layer, in the attacker's terms: what is sent, what comes back, what is logged.

The server runs as documented (`python -m backend.app`) with the slow-client deadlines cut to
one second, so a trickling client is seen being cut off without the test waiting ten.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from backend.app import mcp_server
from tests.backend import rawhttp
from tests.backend.conftest import RunningServer, run_server

pytestmark = pytest.mark.server

DEADLINE = 1.0
# How long past the deadline a trickling client is given before the test calls it a hang.
PATIENCE = 8.0
PING = b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}'


@pytest.fixture(scope="module")
def strict_server(
    repo_root: Path, docs_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[RunningServer]:
    extra = ["--header-timeout", str(DEADLINE), "--body-timeout", str(DEADLINE)]
    log = tmp_path_factory.mktemp("strict") / "uvicorn.log"
    with run_server(repo_root, docs_dir, log, extra=extra) as running:
        yield running


class LogWindow:
    """What the server logs between the start of a test and the moment it is read."""

    def __init__(self, server: RunningServer) -> None:
        self.server = server
        self.start = len(server.log())

    def text(self) -> str:
        return self.server.log()[self.start :]

    def wait_for(self, needle: str, seconds: float = 5.0) -> str:
        """The window's text once it contains `needle` (the server logs from its own process)."""
        deadline = time.monotonic() + seconds
        while needle not in (text := self.text()) and time.monotonic() < deadline:
            time.sleep(0.05)
        return text


def assert_still_serving(server: RunningServer) -> None:
    reply = rawhttp.post(server.port, PING)
    assert reply.status == 200 and "result" in reply.json(), reply.raw


UNANSWERABLE_BODIES = {
    "id NaN": b'{"jsonrpc": "2.0", "id": NaN, "method": "ping"}',
    "id Infinity": b'{"jsonrpc": "2.0", "id": Infinity, "method": "ping"}',
    "id -Infinity": b'{"jsonrpc": "2.0", "id": -Infinity, "method": "ping"}',
    "id 1e999": b'{"jsonrpc": "2.0", "id": 1e999, "method": "ping"}',
    "id -1e999": b'{"jsonrpc": "2.0", "id": -1e999, "method": "ping"}',
    "id lone high surrogate": b'{"jsonrpc": "2.0", "id": "\\ud800", "method": "ping"}',
    "id lone low surrogate": b'{"jsonrpc": "2.0", "id": "\\udfff", "method": "ping"}',
    "id of 5000 digits": b'{"jsonrpc": "2.0", "id": ' + b"9" * 5000 + b', "method": "ping"}',
    "surrogate in method": b'{"jsonrpc": "2.0", "id": 1, "method": "tools/\\ud800list"}',
    "surrogate in page path": (
        b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_public_page",'
        b' "arguments": {"path": "/developers/\\udc80/"}}}'
    ),
    "surrogate in a key": b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"\\ud83d": 1}}',
    "NaN in arguments": (
        b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "search_public_docs",'
        b' "arguments": {"query": "rate", "limit": NaN}}}'
    ),
    "not UTF-8": b'{"jsonrpc": "2.0", "id": "\xff\xfe", "method": "ping"}',
    "UTF-16": '{"jsonrpc": "2.0", "id": 1, "method": "ping"}'.encode("utf-16"),
}


@pytest.mark.parametrize("body", UNANSWERABLE_BODIES.values(), ids=UNANSWERABLE_BODIES.keys())
def test_values_that_cannot_be_echoed_are_a_parse_error(strict_server: RunningServer, body: bytes) -> None:
    log = LogWindow(strict_server)
    reply = rawhttp.post(strict_server.port, body)
    assert reply.status == 400, reply.raw
    assert reply.json() == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {
            "code": -32700,
            "message": "Parse error: invalid JSON",
            "data": {"docs_url": f"{mcp_server.ERRORS_PAGE_URL}#err-parse-error"},
        },
    }
    assert_still_serving(strict_server)
    rawhttp.assert_no_traceback(log.text())


def test_ordinary_unicode_and_big_integers_still_work(strict_server: RunningServer) -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": "grüß 😀 \U0001f600", "method": "ping"}).encode()
    assert rawhttp.post(strict_server.port, body).json()["id"] == "grüß 😀 😀"
    big = b'{"jsonrpc": "2.0", "id": ' + b"9" * 4000 + b', "method": "ping"}'
    assert rawhttp.post(strict_server.port, big).json()["id"] == int("9" * 4000)


def test_headers_trickled_byte_by_byte_are_cut_off(strict_server: RunningServer) -> None:
    log = LogWindow(strict_server)
    with rawhttp.connect(strict_server.port, "127.0.0.5") as sock:
        reply = rawhttp.trickle(sock, rawhttp.request_head(len(PING)) + PING, 0.05, DEADLINE + PATIENCE)
    assert reply.closed, f"still open after {reply.seconds:.1f} s"
    assert reply.ended_with_408_or_reset(), reply.raw
    assert DEADLINE <= reply.seconds < DEADLINE + PATIENCE
    assert "127.0.0.5: request headers not complete within 1.0 s" in log.wait_for("127.0.0.5")
    rawhttp.assert_no_traceback(log.text())
    assert_still_serving(strict_server)


def test_a_second_request_trickled_on_a_kept_alive_connection_is_cut_off(
    strict_server: RunningServer,
) -> None:
    log = LogWindow(strict_server)
    with rawhttp.connect(strict_server.port, "127.0.0.9") as sock:
        sock.sendall(rawhttp.request_head(len(PING)) + PING)
        first = b""
        while not first.endswith(b"}"):
            first += sock.recv(65536)
        assert first.startswith(b"HTTP/1.1 200 "), first
        reply = rawhttp.trickle(sock, rawhttp.request_head(len(PING)) + PING, 0.05, DEADLINE + PATIENCE)
    assert reply.ended_with_408_or_reset(), reply.raw
    assert DEADLINE <= reply.seconds < DEADLINE + PATIENCE
    assert "127.0.0.9: request headers not complete" in log.wait_for("127.0.0.9")


def test_a_body_trickled_byte_by_byte_is_cut_off(strict_server: RunningServer) -> None:
    log = LogWindow(strict_server)
    body = PING + b" " * 200
    with rawhttp.connect(strict_server.port, "127.0.0.6") as sock:
        sock.sendall(rawhttp.request_head(len(body)))
        reply = rawhttp.trickle(sock, body, 0.05, DEADLINE + PATIENCE)
    assert reply.closed, f"still open after {reply.seconds:.1f} s"
    assert reply.ended_with_408_or_reset(), reply.raw
    assert DEADLINE <= reply.seconds < DEADLINE + PATIENCE
    assert "127.0.0.6: request body not complete within 1.0 s" in log.wait_for("127.0.0.6")
    rawhttp.assert_no_traceback(log.text())


@pytest.mark.parametrize("framing", ["content-length", "chunked"])
def test_a_client_that_vanishes_mid_body_leaves_one_log_line(
    strict_server: RunningServer, framing: str
) -> None:
    log = LogWindow(strict_server)
    with rawhttp.connect(strict_server.port, "127.0.0.7") as sock:
        if framing == "content-length":
            sock.sendall(rawhttp.request_head(10_000) + b'{"jsonrpc": "2.0", ')
        else:
            head = rawhttp.request_head(None, {"Transfer-Encoding": "chunked"})
            sock.sendall(head + b"10\r\n" + b'{"jsonrpc": "2.0"'[:16] + b"\r\n")
    text = log.wait_for("127.0.0.7 disconnected")
    assert_still_serving(strict_server)
    lines = [line for line in log.text().splitlines() if "127.0.0.7" in line]
    assert len(lines) == 1, text
    assert "127.0.0.7 disconnected before its request body was complete" in lines[0]
    rawhttp.assert_no_traceback(log.text())


def test_a_header_flood_is_refused_by_the_http_layer(strict_server: RunningServer) -> None:
    log = LogWindow(strict_server)
    # About 1 MiB of headers. h11 parses a head that arrives complete in one read whatever its
    # size; what it bounds is how much of an unfinished head it buffers (MAX_HEADER_BYTES).
    flood = {f"X-Flood-{n}": "y" * 32 for n in range(20_000)}
    with rawhttp.connect(strict_server.port) as sock:
        # The server may answer and close before the flood is all sent.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(rawhttp.request_head(len(PING), flood) + PING)
        raw, closed = rawhttp.read_until_closed(sock)
    assert raw.startswith(b"HTTP/1.1 400 "), raw[:200]
    assert closed
    assert_still_serving(strict_server)
    rawhttp.assert_no_traceback(log.text())


def test_headers_within_the_limit_are_served(strict_server: RunningServer) -> None:
    budget = mcp_server.MAX_HEADER_BYTES // 2
    many = {f"X-Fine-{n}": "y" * 32 for n in range(budget // 48)}
    reply = rawhttp.post(strict_server.port, PING, headers=many)
    assert reply.status == 200, reply.raw[:200]


def test_many_idle_connections_do_not_block_others(strict_server: RunningServer) -> None:
    log = LogWindow(strict_server)
    idle = [rawhttp.connect(strict_server.port, "127.0.0.8") for _ in range(50)]
    try:
        for sock in idle:
            sock.sendall(b"POST /mcp HTTP/1.1\r\n")
        assert_still_serving(strict_server)
        endings: list[Any] = [rawhttp.read_until_closed(sock) for sock in idle]
    finally:
        for sock in idle:
            sock.close()
    assert all(closed and raw.startswith(b"HTTP/1.1 408 ") for raw, closed in endings)
    rawhttp.assert_no_traceback(log.text())
