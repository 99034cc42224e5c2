"""Fixtures for the backend tests: a small docs folder and the server running under uvicorn.

The server is started the documented way, `python -m backend.app` (uvicorn with no proxy
headers trusted and the slow-client deadlines). The rate limit counts requests per client
host, and most tests talk from 127.0.0.1, so the shared server is module-scoped (each module
stays well under the limit) and the tests that spend the limit on purpose start a server of
their own with `fresh_server` or `run_server`.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

# `backend` is not an installed package; make it importable however pytest is launched
# (`python -m pytest` puts the working directory on sys.path, the `pytest` script does not).
REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

STARTUP_TIMEOUT_SECONDS = 15.0

PAGES = {
    "index.md": "# Connect\n\nConnect is the public home of the documentation.\n",
    "developers/mcp-errors.md": (
        "---\ntitle: MCP error shapes\n---\n# MCP error shapes\n\n"
        "A header mismatch is answered with -32020. The rate limit is 120 requests a minute.\n"
    ),
    "developers/mcp-public-tools.md": (
        "# Public MCP tools\n\nsearch_public_docs finds pages; get_public_page returns one page.\n"
    ),
}
# A page that exists but cannot be decoded: reading it is an unexpected server fault.
BROKEN_PAGE = ("broken.md", b"\xff\xfe# not UTF-8\n")


@dataclass(frozen=True)
class RunningServer:
    """A uvicorn process serving backend.app.mcp_server:app on loopback."""

    base_url: str
    pid: int
    log_path: Path

    @property
    def url(self) -> str:
        """The MCP endpoint."""
        return f"{self.base_url}/mcp"

    @property
    def port(self) -> int:
        """The port it listens on."""
        return int(self.base_url.rsplit(":", 1)[1])

    def log(self) -> str:
        """Everything the server has logged so far."""
        return self.log_path.read_text(encoding="utf-8", errors="replace")


def write_docs(root: Path) -> Path:
    """Fill `root` with the test pages and return it."""
    for relative, text in PAGES.items():
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    (root / BROKEN_PAGE[0]).write_bytes(BROKEN_PAGE[1])
    return root


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait_until_listening(proc: subprocess.Popen[bytes], port: int) -> bool:
    deadline = time.monotonic() + STARTUP_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return True
        except OSError:
            time.sleep(0.05)
    return False


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


def documented_command(port: int, extra: Sequence[str] = ()) -> list[str]:
    """`python -m backend.app` on 127.0.0.1:`port`, logging warnings and worse, plus `extra`."""
    command = [sys.executable, "-m", "backend.app", "--host", "127.0.0.1", "--port", str(port)]
    return [*command, "--log-level", "warning", *extra]


@contextmanager
def run_server(
    repo_root: Path,
    docs_dir: Path,
    log_path: Path,
    extra: Sequence[str] = (),
    command: Sequence[str] | None = None,
) -> Iterator[RunningServer]:
    """Start the server on a free port and stop it afterwards.

    By default the documented `python -m backend.app` with `extra` arguments; `command` replaces
    it (with `{port}` standing for the port). A port taken by someone else between choosing and
    binding it makes uvicorn exit; then another port is tried.
    """
    env = {**os.environ, "CONNECT_DOCS_DIR": str(docs_dir), "PYTHONUNBUFFERED": "1"}
    for _attempt in range(3):
        port = _free_port()
        if command is None:
            argv = documented_command(port, extra)
        else:
            argv = [part.replace("{port}", str(port)) for part in command]
        with log_path.open("wb") as log:
            proc = subprocess.Popen(argv, cwd=repo_root, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            if _wait_until_listening(proc, port):
                yield RunningServer(base_url=f"http://127.0.0.1:{port}", pid=proc.pid, log_path=log_path)
                return
        finally:
            _stop(proc)
    pytest.fail(f"uvicorn did not start; log:\n{log_path.read_text(errors='replace')}")


@pytest.fixture(scope="module")
def docs_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A docs folder with three readable pages and one undecodable page."""
    return write_docs(tmp_path_factory.mktemp("docs"))


@pytest.fixture(scope="module")
def server(
    repo_root: Path, docs_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[RunningServer]:
    """One server shared by the tests of a module."""
    with run_server(repo_root, docs_dir, tmp_path_factory.mktemp("log") / "uvicorn.log") as running:
        yield running


@pytest.fixture
def fresh_server(repo_root: Path, docs_dir: Path, tmp_path: Path) -> Iterator[RunningServer]:
    """A server of the test's own, with an untouched rate-limit budget."""
    with run_server(repo_root, docs_dir, tmp_path / "uvicorn.log") as running:
        yield running
