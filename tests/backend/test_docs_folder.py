"""Reading outside the docs folder: symbolic links, special files and 25 forms of traversal.

Beside the docs folder lies a secret page. Whatever a client asks through `get_public_page`,
`resources/read` or `resources/list`, its text must never come back.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from backend.app.content import LISTING_TTL_SECONDS, DocsIndex
from tests.backend import rawhttp
from tests.backend.conftest import RunningServer, run_server, write_docs

pytestmark = pytest.mark.server

SECRET = "SECRET-OUTSIDE-THE-DOCS-FOLDER"


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """<root>/docs with the test pages and links of every kind; <root>/outside with the secret."""
    root = tmp_path_factory.mktemp("tree")
    docs = write_docs(root / "docs")
    outside = root / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(f"# Secret\n\n{SECRET}\n", encoding="utf-8")
    (docs / "leak.md").symlink_to(outside / "secret.md")
    (docs / "relative-leak.md").symlink_to(Path("..") / "outside" / "secret.md")
    (docs / "linked-folder").symlink_to(outside, target_is_directory=True)
    (docs / "dangling.md").symlink_to(root / "nowhere.md")
    (docs / "alias.md").symlink_to(docs / "developers" / "mcp-public-tools.md")  # inside: served
    os.mkfifo(docs / "pipe.md")  # reading it would block forever
    return root


@pytest.fixture(scope="module")
def linked_server(repo_root: Path, tree: Path) -> Iterator[RunningServer]:
    with run_server(repo_root, tree / "docs", tree / "uvicorn.log") as running:
        yield running


def rpc(server: RunningServer, method: str, params: dict[str, Any]) -> dict[str, Any]:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()
    reply = rawhttp.post(server.port, body)
    assert reply.status == 200, reply.raw[:300]
    assert SECRET not in reply.body.decode("utf-8")
    answer: dict[str, Any] = reply.json()
    return answer


def get_page(server: RunningServer, path: str) -> dict[str, Any]:
    return rpc(server, "tools/call", {"name": "get_public_page", "arguments": {"path": path}})["result"]


def test_only_regular_files_inside_the_folder_are_pages(tree: Path) -> None:
    found: list[str] = []
    worker = threading.Thread(target=lambda: found.extend(DocsIndex(tree / "docs").paths()), daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert not worker.is_alive(), "listing the folder blocked (on the FIFO?)"
    assert found == ["/", "/alias/", "/broken/", "/developers/mcp-errors/", "/developers/mcp-public-tools/"]


@pytest.mark.parametrize(
    "path", ["/leak/", "/relative-leak/", "/linked-folder/secret/", "/dangling/", "/pipe/"]
)
def test_links_leaving_the_folder_are_not_served(linked_server: RunningServer, path: str) -> None:
    result = get_page(linked_server, path)
    assert result["isError"] is True
    assert result["content"][0]["text"].startswith(f"No public page at '{path}'.")
    answer = rpc(linked_server, "resources/read", {"uri": f"connect://pages{path}"})
    assert answer["error"]["code"] == -32601


def test_a_link_within_the_folder_is_served(linked_server: RunningServer) -> None:
    result = get_page(linked_server, "/alias/")
    assert result["isError"] is False
    assert result["content"][0]["text"].startswith("# Public MCP tools")


def test_resource_list_names_no_page_outside(linked_server: RunningServer) -> None:
    uris = [r["uri"] for r in rpc(linked_server, "resources/list", {})["result"]["resources"]]
    assert not any(name in uri for uri in uris for name in ("leak", "linked-folder", "dangling", "pipe"))


TRAVERSALS = [
    "../outside/secret",
    "../outside/secret.md",
    "/../outside/secret/",
    "/../../outside/secret/",
    "developers/../../outside/secret",
    "/developers/../../outside/secret/",
    "..\\outside\\secret",
    "/..\\..\\outside\\secret.md",
    "%2e%2e/outside/secret",
    "%2e%2e%2foutside%2fsecret",
    "..%2Foutside%2Fsecret.md",
    "%252e%252e/outside/secret",
    "....//outside/secret",
    "..;/outside/secret",
    "./../outside/secret",
    "/./../outside/secret/",
    "..\u2215outside\u2215secret",
    "\uff0e\uff0e/outside/secret",
    "..\x00/outside/secret",
    " ../outside/secret ",
    "file:///../outside/secret.md",
    "//../outside/secret",
    "~/../outside/secret",
    "linked-folder/../../outside/secret",
    "ABSOLUTE",
]


@pytest.mark.parametrize("path", TRAVERSALS, ids=[f"form{n:02}" for n in range(1, len(TRAVERSALS) + 1)])
def test_traversal_reaches_nothing_outside(linked_server: RunningServer, tree: Path, path: str) -> None:
    if path == "ABSOLUTE":
        path = str(tree / "outside" / "secret.md")
    result = get_page(linked_server, path)
    assert result["isError"] is True
    assert result["content"][0]["text"].startswith("No public page at")
    answer = rpc(linked_server, "resources/read", {"uri": f"connect://pages/{path}"})
    assert answer["error"]["code"] == -32601
    rawhttp.assert_no_traceback(linked_server.log())


def test_a_page_swapped_for_a_link_after_the_scan_is_not_served(tmp_path: Path) -> None:
    docs = write_docs(tmp_path / "docs")
    (tmp_path / "secret.md").write_text(SECRET, encoding="utf-8")
    index = DocsIndex(docs)
    assert "/developers/mcp-public-tools/" in index.paths()  # scanned while it was a regular file
    page = docs / "developers" / "mcp-public-tools.md"
    page.unlink()
    page.symlink_to(tmp_path / "secret.md")
    assert index.get("/developers/mcp-public-tools/") is None
    assert all(SECRET not in p.text for p in index.pages())


def test_a_page_added_later_is_found_within_the_listing_ttl(tmp_path: Path) -> None:
    docs = write_docs(tmp_path / "docs")
    index = DocsIndex(docs)
    assert "/late/" not in index.paths()
    (docs / "late.md").write_text("# Late\n", encoding="utf-8")
    time.sleep(LISTING_TTL_SECONDS + 0.1)
    assert "/late/" in index.paths()


def test_there_are_twenty_five_forms() -> None:
    assert len(set(TRAVERSALS)) == 25
