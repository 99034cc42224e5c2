"""Evidence taken before a row's code or status changed is not shown as what the server or a client does.

A backend engineer changes the method-not-found status from 404 to 400 and runs `docgen extract && docgen
render`, as check asks, but not probe. The table now says 400; what probe and the official clients recorded
was the answer to 404. The page must say the row has not been replayed since the change, in the header, the
client differences and the examples, and must not show the old answer.
"""

from __future__ import annotations

import pytest

from docgen.core.evidence import Record, still_holds
from docgen.core.models import ErrorEntry
from docgen.shell.cli import main
from tests.conftest import REPO_ROOT
from tests.helpers import copy_project

SERVER = "backend/app/mcp_server.py"
PAGE = "docs/developers/mcp-errors.md"
OLD = 'f"Method not found: {method}", status=404, doc="method-not-found"'
NEW = 'f"Method not found: {method}", status=400, doc="method-not-found"'


def _region(page: str, name: str) -> str:
    start = page.index(f"<!-- docgen:begin {name} ")
    return page[start : page.index(f"<!-- docgen:end {name} -->", start)]


def _example(page: str, title: str, anchor: str) -> str:
    """One example's section of the error-examples region, up to the next example."""
    start = page.index(f"### {title} {{#{anchor}}}")
    end = page.find("\n### ", start + 1)
    return page[start : end if end != -1 else len(page)]


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The error page after the status change, `docgen extract` and `docgen render` (no probe)."""
    root = copy_project(REPO_ROOT, tmp_path_factory.mktemp("stale") / "project")
    server = root / SERVER
    text = server.read_text(encoding="utf-8")
    assert text.count(OLD) == 1, f"{OLD!r} not once in {SERVER}: the test needs updating"
    server.write_text(text.replace(OLD, NEW), encoding="utf-8")
    config = str(root / "mkdocs.yml")
    assert main(["-f", config, "extract"]) == 0
    assert main(["-f", config, "render"]) == 0
    return (root / PAGE).read_text(encoding="utf-8")


def test_the_committed_page_has_no_stale_row() -> None:
    # All evidence holds today: nothing on the committed page says a row was not replayed since a change.
    page = (REPO_ROOT / PAGE).read_text(encoding="utf-8")
    assert "since the change" not in page and "since this row's code or status changed" not in page


def test_the_header_does_not_count_the_row_as_answering_differently(rendered: str) -> None:
    header = _region(rendered, "page-header")
    assert (
        "**Reproduced against the server on 2026-12-01:** nine of the ten rows a client can trigger answered "
        "as the table says; one not replayed since the change to its code or status "
        "([method-not-found](#ex-method-not-found)); one cannot be triggered"
    ) in header
    assert "answered differently" not in header


def test_the_client_differences_say_the_row_was_not_replayed(rendered: str) -> None:
    region = _region(rendered, "client-differences")
    assert (
        "- [Method not found](#ex-method-not-found) (`-32601` at HTTP `400`): not replayed by the official "
        "clients since this row's code or status changed\n"
    ) in region
    item = region[region.index("- [Method not found]") :]
    item = item[: item.index("\n- [")]
    assert "404" not in item and "TypeScript" not in item
    # The other rows keep what the clients reported: it still answers the table as it stands. The list names
    # the client that parts from the table; what it reports is said in the example only.
    header_mismatch = "- [Header mismatch](#ex-header-mismatch) (`-32020` at HTTP `400`): "
    assert header_mismatch + "TypeScript (legacy)\n" in region
    assert "StreamableHTTPError" not in region


def test_the_example_shows_no_answer_from_before_the_change(rendered: str) -> None:
    section = _example(_region(rendered, "error-examples"), "Method not found", "ex-method-not-found")
    assert "[`-32601` at HTTP `400`](#err-method-not-found) in the table." in section
    assert (
        "_Not replayed since the change to this row's code or status: what the official clients reported "
        "before it is not shown._"
    ) in section
    assert '??? example "Request (not replayed since the change)"' in section
    assert section.count("        _Not run since the change to this row's code or status._") == 2
    assert (
        "    _Not replayed since the change to this row's code or status: the answer recorded before it is "
        "not shown._"
    ) in section
    # The old answer is nowhere: not the server's 404, not what a client printed for it.
    assert "404" not in section and "Not Found" not in section and "The server's answer" not in section
    assert "How the official clients report it" not in section and "MCPError -32601" not in section
    # An unchanged row keeps its recorded answer.
    other = _example(_region(rendered, "error-examples"), "Header mismatch", "ex-header-mismatch")
    assert "The server's answer, recorded on 2026-12-01:" in other
    assert "HTTP/1.1 400 Bad Request" in other


def test_still_holds_compares_what_probe_expected_with_the_row() -> None:
    entry = ErrorEntry(id="method-not-found", code=-32601, status=400, message="m", function="f", file="a.py")
    assert still_holds(Record(id=entry.id, expected=(-32601, 400)), entry)
    assert not still_holds(Record(id=entry.id, expected=(-32601, 404)), entry)
    assert not still_holds(Record(id=entry.id, expected=(-32600, 400)), entry)
    assert still_holds(Record(id=entry.id, untriggerable="covered by tests"), entry)
