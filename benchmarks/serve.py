"""`mkdocs serve`: how long after a save the served page shows the change, for a backend edit and a page edit.

    .venv/bin/python -m benchmarks.serve            # 10 edits of each kind

A copy of the project is served on 127.0.0.1 (loopback only). Each round saves one file and polls the served
error page every 20 ms until its text shows the edit; the time from the save to that answer is the figure.

- backend edit: `MAX_BODY_BYTES` in backend/app/mcp_server.py doubled (the page then says 512 KiB, not
  256 KiB): the plugin extracts and renders again in memory;
- page edit: a word of the error page's prose outside the generated regions, with the plugin;
- page edit without docgen: the same, served from a mkdocs.yml without the plugin entry (the yardstick).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from benchmarks.scenarios import BIN, ENV, REPO, WORK, without_docgen
from benchmarks.timing import BenchmarkError

PAGE = "docs/developers/mcp-errors.md"
URL_PATH = "developers/mcp-errors/"
BACKEND = "backend/app/mcp_server.py"
LIMIT = ("MAX_BODY_BYTES = 256 * 1024", "MAX_BODY_BYTES = 512 * 1024")
SHOWN = ("larger than 256 KiB", "larger than 512 KiB")
PROSE_MARK = "docgen-serve-bench-{n}"
TIMEOUT_S = 30.0


@dataclass(frozen=True)
class Edit:
    """One kind of edit: which file, how to write round `n`'s version, and what the page then says."""

    name: str
    file: str
    write: Callable[[Path, int], None]
    shows: Callable[[int], str]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _get(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:  # loopback, our own server
            return str(answer.read().decode("utf-8", "replace"))
    except OSError:
        return ""


def _wait_for(url: str, text: str, since: float) -> float:
    while time.perf_counter() - since < TIMEOUT_S:
        if text in _get(url):
            return time.perf_counter() - since
        time.sleep(0.02)
    raise BenchmarkError(f"{url} did not show {text!r} within {TIMEOUT_S:.0f} s")


@contextlib.contextmanager
def _serving(root: Path, config: str) -> Iterator[str]:
    port = _free_port()
    argv = [str(BIN / "mkdocs"), "serve", "-f", config, "-a", f"127.0.0.1:{port}", "--no-strict"]
    env = {**os.environ, **ENV}
    server = subprocess.Popen(argv, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}/{URL_PATH}"
        _wait_for(url, "</html>", time.perf_counter())
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _backend(root: Path, n: int) -> None:
    path = root / BACKEND
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(LIMIT[(n + 1) % 2], LIMIT[n % 2]), encoding="utf-8")


def _prose(root: Path, n: int) -> None:
    path = root / PAGE
    lines = path.read_text(encoding="utf-8").split("\n")
    title = next(i for i, line in enumerate(lines) if line.startswith("# "))
    marker = next((i for i, line in enumerate(lines) if "docgen-serve-bench-" in line), None)
    if marker is None:
        lines[title + 1 : title + 1] = ["", PROSE_MARK.format(n=n)]
    else:
        lines[marker] = PROSE_MARK.format(n=n)
    path.write_text("\n".join(lines), encoding="utf-8")


BACKEND_EDIT = Edit("backend edit", BACKEND, _backend, lambda n: SHOWN[n % 2])
PAGE_EDIT = Edit("page edit", PAGE, _prose, lambda n: PROSE_MARK.format(n=n))


def _latencies(root: Path, config: str, edit: Edit, rounds: int) -> list[float]:
    edit.write(root, 0)
    seconds = []
    with _serving(root, config) as url:
        _wait_for(url, edit.shows(0), time.perf_counter())
        for n in range(1, rounds + 1):
            time.sleep(0.5)  # let the watcher settle after the last rebuild
            started = time.perf_counter()
            edit.write(root, n)
            seconds.append(_wait_for(url, edit.shows(n), started))
    return seconds


def serve_benchmark(rounds: int = 10) -> dict[str, object]:
    """Median seconds from a save to the served page showing it, per kind of edit."""
    from tests.helpers import copy_project  # noqa: PLC0415 - the test helpers, only when this runs

    root = WORK / "serve-project"
    shutil.rmtree(root, ignore_errors=True)
    copy_project(REPO, root)
    config = (root / "mkdocs.yml").read_text(encoding="utf-8")
    (root / "mkdocs-without-docgen.yml").write_text(without_docgen(config, root / "docs"), encoding="utf-8")
    runs = {
        "backend edit": _latencies(root, "mkdocs.yml", BACKEND_EDIT, rounds),
        "page edit": _latencies(root, "mkdocs.yml", PAGE_EDIT, rounds),
        "page edit without docgen": _latencies(root, "mkdocs-without-docgen.yml", PAGE_EDIT, rounds),
    }
    medians = {name: statistics.median(seconds) for name, seconds in runs.items()}
    return {
        "runs": {name: [round(s, 3) for s in seconds] for name, seconds in runs.items()},
        "median_s": {name: round(value, 3) for name, value in medians.items()},
        "ratio": medians["backend edit"] / medians["page edit without docgen"],
    }


if __name__ == "__main__":
    if __package__ in (None, ""):
        sys.path.insert(0, str(REPO))
    print(serve_benchmark())
