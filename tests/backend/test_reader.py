"""Pages as MCP clients get them: what a reader of the site sees, not the committed file.

The server-side tests read the repository's real pages (`docs/`), the error page above all,
whose front matter, region markers and anchors are exactly what must not reach a client.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from backend.app.reader import reader_text
from tests.backend import rawhttp
from tests.backend.conftest import RunningServer, run_server

RAW_MARKS = ("docgen:", "digest=", "<a id=", "last_verified", "verified_fingerprints", "sha256:", "{#")

PAGE = """\
---
title: Sample page
verified_fingerprints:
  app.py:f: sha256:0123
---

# Sample page

Intro text.

<!-- docgen:begin error-table catalog=x digest=abc -->

<div class="docgen-error-table" markdown>

| Code | Cause |
|---|---|
| <a id="err-a"></a>`-1` | A cause. |

</div>

<!-- docgen:end error-table -->

### An example {#ex-a}

```python
# <!-- docgen:begin kept inside code -->
x = '<a id="y"></a>'


def f() -> None: ...
```

Closing text.
"""


def test_reader_text_drops_what_only_the_site_tooling_reads() -> None:
    assert reader_text(PAGE, "Sample page") == (
        "# Sample page\n\nIntro text.\n\n| Code | Cause |\n|---|---|\n| `-1` | A cause. |\n\n"
        "### An example\n\n```python\n# <!-- docgen:begin kept inside code -->\nx = '<a id=\"y\"></a>'\n\n\n"
        "def f() -> None: ...\n```\n\nClosing text.\n"
    )


def test_a_page_without_a_heading_gets_its_title_as_one() -> None:
    assert reader_text("---\ntitle: Limits\n---\nSome text.\n", "Limits") == "# Limits\n\nSome text.\n"
    assert reader_text("Plain.\n", "Plain") == "# Plain\n\nPlain.\n"


FOLDED = """\
# Tabs

??? example "Request"

    === "HTTP"

        ```http
        POST /mcp HTTP/1.1
        === "not a tab inside code"
        ```

        ``` { .text .docgen-client title="What it printed" }
        ok
        ```

    === "curl"

        Send it with curl.

!!! note

    A note.

After.
"""


def test_tabs_and_folded_blocks_become_labels_over_their_dedented_content() -> None:
    assert reader_text(FOLDED, "Tabs") == (
        "# Tabs\n\n**Request**\n\n**HTTP**\n\n```http\nPOST /mcp HTTP/1.1\n"
        '=== "not a tab inside code"\n```\n\n**What it printed**\n\n```text\nok\n```\n\n'
        "**curl**\n\nSend it with curl.\n\n"
        "**Note**\n\nA note.\n\nAfter.\n"
    )


def test_relative_links_become_absolute_on_the_canonical_site() -> None:
    page = (
        "# Links\n\n[a](other.md), [b](../index.md#top), [c](#here), [d](page/data.json), "
        "[e](https://example.com/x), [f](sub/index.md)\n\n```md\n[kept](other.md)\n```\n"
    )
    assert reader_text(page, "Links", "guide/page.md", "https://site.example/") == (
        "# Links\n\n[a](https://site.example/guide/other/), [b](https://site.example/#top), "
        "[c](https://site.example/guide/page/#here), [d](https://site.example/guide/page/data.json), "
        "[e](https://example.com/x), [f](https://site.example/guide/sub/)\n\n```md\n[kept](other.md)\n```\n"
    )
    assert reader_text(page, "Links") == page  # without a site, links stay as written


@pytest.fixture(scope="module")
def real_docs_server(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    log = tmp_path_factory.mktemp("real") / "uvicorn.log"
    with run_server(repo_root, repo_root / "docs", log) as running:
        yield running


def rpc(server: RunningServer, method: str, params: dict[str, Any]) -> dict[str, Any]:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()
    reply = rawhttp.post(server.port, body, headers={"MCP-Protocol-Version": "2026-07-28"})
    assert reply.status == 200, reply.raw[:300]
    result: dict[str, Any] = reply.json()["result"]
    return result


def assert_reads_as_the_site(text: str) -> None:
    for mark in RAW_MARKS:
        assert mark not in text, f"{mark!r} in {text[:200]!r}"
    assert not text.startswith("---")


@pytest.mark.server
def test_get_public_page_of_the_error_page_reads_as_the_site(
    repo_root: Path, real_docs_server: RunningServer
) -> None:
    result = rpc(
        real_docs_server,
        "tools/call",
        {"name": "get_public_page", "arguments": {"path": "/developers/mcp-errors/"}},
    )
    text = result["content"][0]["text"]
    assert result["isError"] is False
    assert text.startswith("# MCP error shapes\n\nWhen the Connect MCP server refuses a request")
    assert_reads_as_the_site(text)
    raw = (repo_root / "docs" / "developers" / "mcp-errors.md").read_text(encoding="utf-8")
    assert "<!-- docgen:begin error-table" in raw and "digest=" in raw  # the file itself has them
    # The content of the generated regions stays: the table, the examples, the recorded answers.
    assert "| `-32700` | `400` | The request body could not be parsed as JSON." in text
    assert "### Parse error\n" in text
    # The tabs are written out one after the other, each under its label, its code no longer indented.
    assert "**curl**\n\n```sh\ncurl -i https://connectbyjbrh.com/mcp" in text
    assert not re.search(r"^\s*(===|\?\?\?|!!!)", text, re.MULTILINE)
    assert not re.search(r"^\s*```.*\{", text, re.MULTILINE)  # no attribute list on a code block
    assert "**Python (legacy)**\n\n```text\n" in text
    assert "](https://connectbyjbrh.com/developers/mcp-errors/mcp-errors.json)" in text


@pytest.mark.server
def test_the_page_resource_reads_as_the_site(real_docs_server: RunningServer) -> None:
    uri = "connect://pages/developers/mcp-errors/"
    contents = rpc(real_docs_server, "resources/read", {"uri": uri})["contents"]
    assert contents[0]["text"].startswith("# MCP error shapes\n")
    assert_reads_as_the_site(contents[0]["text"])


@pytest.mark.server
@pytest.mark.parametrize("query", ["origin allowed", "parse error", "rate limit", "verified", "digest"])
def test_search_snippets_read_as_the_site(real_docs_server: RunningServer, query: str) -> None:
    args = {"query": query, "limit": 20}
    result = rpc(real_docs_server, "tools/call", {"name": "search_public_docs", "arguments": args})
    assert result["isError"] is False
    assert_reads_as_the_site(result["content"][0]["text"])
