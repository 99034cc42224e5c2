"""How the server is started decides whether request headers have a deadline, and the app says so.

An attacker who trickles request headers a byte at a time is cut off by `python -m backend.app`; under a
plain `uvicorn backend.app.mcp_server:app` nothing cuts them off, since uvicorn parses headers before the app
runs. The app cannot close such a connection itself, so it warns at start-up, naming what is missing and the
command that gives it.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from backend.app.startup import UNGUARDED_WARNING
from tests.backend import rawhttp
from tests.backend.conftest import RunningServer, run_server

pytestmark = pytest.mark.server

PLAIN_UVICORN = [sys.executable, "-m", "uvicorn", "backend.app.mcp_server:app", "--host", "127.0.0.1"]
PLAIN_UVICORN += ["--port", "{port}", "--log-level", "warning"]
DEADLINE = 1.0
PING = b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}'
TRICKLE = rawhttp.request_head(len(PING)) + PING


def _log_once_it_holds(server: RunningServer, needle: str, seconds: float = 5.0) -> str:
    """The server's log, as soon as it holds `needle` (or after `seconds`)."""
    deadline = time.monotonic() + seconds
    while needle not in server.log() and time.monotonic() < deadline:
        time.sleep(0.05)
    return server.log()


def test_plain_uvicorn_says_at_start_up_that_trickled_headers_have_no_deadline(
    repo_root: Path, docs_dir: Path, tmp_path: Path
) -> None:
    with run_server(repo_root, docs_dir, tmp_path / "log", command=PLAIN_UVICORN) as server:
        log = server.log()
        with rawhttp.connect(server.port, "127.0.0.7") as sock:
            reply = rawhttp.trickle(sock, TRICKLE, 0.05, DEADLINE + 2)
    assert not reply.closed  # what the warning is about: the attacker still holds the connection
    assert log.count(UNGUARDED_WARNING) == 1
    assert "request headers have no deadline" in log
    assert "Start it with `python -m backend.app`" in log
    rawhttp.assert_no_traceback(log)


def test_the_launcher_warns_of_nothing_and_cuts_trickled_headers_off(
    repo_root: Path, docs_dir: Path, tmp_path: Path
) -> None:
    extra = ["--header-timeout", str(DEADLINE)]
    with run_server(repo_root, docs_dir, tmp_path / "log", extra=extra) as server:
        with rawhttp.connect(server.port, "127.0.0.8") as sock:
            reply = rawhttp.trickle(sock, TRICKLE, 0.05, DEADLINE + 8)
        log = _log_once_it_holds(server, "request headers not complete")
    assert reply.ended_with_408_or_reset(), reply.raw
    assert DEADLINE <= reply.seconds < DEADLINE + 8
    assert "no deadline" not in log
    assert "request headers not complete within 1.0 s" in log
