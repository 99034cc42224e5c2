"""The server on 127.0.0.1 (uvicorn, or the WSGI server of `docgen.probe.apps`), started by `docgen probe
--app` for the official clients and for an HTTP API's examples.

The clients talk HTTP, so they cannot use the in-process app the replay uses. Each client gets servers of its
own: the rate limit counts requests per client host, and every client here comes from 127.0.0.1, so a client
sharing a server with another (or with an example that spends the budget) would see refusals it did not earn.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from docgen.core.errors import ConfigError

STARTUP_SECONDS = 30.0
LOG_TAIL_CHARS = 2000


def free_port() -> int:
    """A loopback port nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def uvicorn_command(app: str, port: int) -> list[str]:
    """uvicorn serving the ASGI app `MODULE:ATTR` on 127.0.0.1:`port`, logging warnings only."""
    where = ["--host", "127.0.0.1", "--port", str(port)]
    return [sys.executable, "-m", "uvicorn", app, *where, "--log-level", "warning"]


@contextmanager
def uvicorn_server(app: str, root: Path, log: Path, endpoint_path: str) -> Iterator[str]:
    """Serve `app` from `root` until the block ends; yields the MCP endpoint URL."""
    port = free_port()
    with serve_command(uvicorn_command(app, port), port, root, log):
        yield f"http://127.0.0.1:{port}{endpoint_path}"


@contextmanager
def serve_command(command: list[str], port: int, root: Path, log: Path) -> Iterator[None]:
    """Run the server `command` from `root`, its output in `log`, until the block ends; the block starts
    once it listens on 127.0.0.1:`port`."""
    with log.open("wb") as sink:
        process = subprocess.Popen(command, cwd=root, stdout=sink, stderr=subprocess.STDOUT)
    try:
        _wait_until_listening(process, port, log, command)
        yield
    finally:
        _stop(process)


def _wait_until_listening(process: subprocess.Popen[bytes], port: int, log: Path, command: list[str]) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    tail = log.read_text(encoding="utf-8", errors="replace")[-LOG_TAIL_CHARS:].strip()
    raise ConfigError(
        f"the server did not start on 127.0.0.1:{port}" + (f"; it said:\n{tail}" if tail else ""),
        hint=f"check that `python {' '.join(command[1:])}` starts it from the project root",
    )


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
