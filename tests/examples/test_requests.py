"""Example requests and their evidence: resolved against constants, written as HTTP and curl, and distrusted
by check once the example, the server or the catalog moved on."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from docgen.core.errors import CatalogError
from docgen.core.models import ErrorEntry, ErrorsCatalog
from docgen.core.notes import WrittenExample, parse_notes
from docgen.core.yamlio import load_yaml
from docgen.examples import requests as examples
from docgen.examples.requests import Example, Where, curl_command, examples_of, http_request
from docgen.shell.cli import main
from tests.helpers import copy_project

CONSTANTS = {"MAX_BODY_BYTES": 64, "RATE_LIMIT_REQUESTS": 3}
WHERE = Where("data/x.notes.yaml", 7, "entries/x/example")
BODY = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
NOTES = "data/mcp-errors.notes.yaml"
EVIDENCE = "data/mcp-errors.evidence.yaml"


def resolve(entry_id: str, raw: dict[str, Any], constants: dict[str, Any], where: Where) -> Example:
    """`examples.resolve` on an example written as `raw` in the notes."""
    return examples.resolve(entry_id, WrittenExample.from_data(raw), constants, where)


def test_counts_come_from_the_constants_and_the_body_is_padded_to_size() -> None:
    example = resolve(
        "x", {"body": BODY, "size": "{{ MAX_BODY_BYTES + 1 }}", "repeat": "{{ RATE_LIMIT_REQUESTS + 1 }}"},
        CONSTANTS, WHERE,
    )  # fmt: skip
    assert len(example.body) == 65
    assert example.body.rstrip(b" ") == json.dumps(BODY).encode()
    assert example.repeat == 4
    assert example.text == json.dumps(BODY)


def test_the_request_as_http_and_as_curl() -> None:
    example = resolve("x", {"headers": {"Origin": "https://evil.example"}, "raw": "{oops"}, CONSTANTS, WHERE)
    assert http_request(example, "https://docs.example/mcp").splitlines() == [
        "POST /mcp HTTP/1.1",
        "Host: docs.example",
        "Content-Type: application/json",
        "Accept: application/json, text/event-stream",
        "Origin: https://evil.example",
        "Content-Length: 5",
        "",
        "{oops",
    ]
    command = curl_command(example, "https://docs.example/mcp")
    assert shlex.split(command.replace("\\\n", " ")) == [
        "curl", "-i", "https://docs.example/mcp",
        "-H", "Content-Type: application/json",
        "-H", "Accept: application/json, text/event-stream",
        "-H", "Origin: https://evil.example",
        "--data-binary", "{oops",
    ]  # fmt: skip


def test_a_padded_or_repeated_request_as_curl() -> None:
    padded = resolve("x", {"body": BODY, "size": 64}, CONSTANTS, WHERE)
    assert curl_command(padded, "http://h/mcp").startswith(
        f"printf '%-64s' '{json.dumps(BODY)}' | \\\n  curl"
    )
    assert http_request(padded, "http://h/mcp").endswith("<13 spaces follow: 64 bytes in all>")
    repeated = resolve("x", {"body": BODY, "repeat": 3}, CONSTANTS, WHERE)
    assert curl_command(repeated, "http://h/mcp").startswith("for n in $(seq 3); do\n  curl -i http://h/mcp")


def test_a_header_overrides_its_default_whatever_its_case() -> None:
    example = resolve("x", {"body": BODY, "headers": {"content-type": "text/plain"}}, CONSTANTS, WHERE)
    assert example.headers == (
        ("content-type", "text/plain"),
        ("Accept", "application/json, text/event-stream"),
    )


BAD: dict[str, tuple[dict[str, Any], str]] = {
    "no body": ({"headers": {"A": "b"}}, "has none of body, raw and untriggerable"),
    "body and raw": ({"body": BODY, "raw": "x"}, "has body and raw"),
    "untriggerable with a request": ({"untriggerable": "Why.", "repeat": 2}, "is untriggerable, yet"),
    "unknown constant": (
        {"body": BODY, "repeat": "{{ NO_SUCH + 1 }}"},
        "repeat: '{{ NO_SUCH + 1 }}' cannot be",
    ),
    "count below one": ({"body": BODY, "repeat": "{{ RATE_LIMIT_REQUESTS - 3 }}"}, "gives '0', not a whole"),
    "size under the body": ({"body": BODY, "size": 10}, "10 bytes is less than the body itself"),
}


@pytest.mark.parametrize(("raw", "message"), BAD.values(), ids=BAD)
def test_a_bad_example_is_located(raw: dict[str, Any], message: str) -> None:
    with pytest.raises(CatalogError) as caught:
        resolve("x", raw, CONSTANTS, WHERE)
    assert message in caught.value.message
    assert caught.value.location == "data/x.notes.yaml:7"
    assert caught.value.hint


def test_examples_follow_the_catalog_and_are_located_in_the_notes() -> None:
    catalog = ErrorsCatalog("n", (), {}, tuple(ErrorEntry(i, -32600, 400, "m", "f", "a.py") for i in "bac"))
    text = "entries:\n  a:\n    example: {body: 1}\n  b:\n    example: {raw: x}\n  c:\n    cause: Why.\n"
    notes = parse_notes(load_yaml(text, "n.yaml"), "n.yaml")
    assert list(examples_of(catalog, notes)) == ["b", "a"]
    broken = parse_notes(load_yaml("entries:\n  a:\n    example: {}\n", "n.yaml"), "n.yaml")
    with pytest.raises(CatalogError) as caught:
        examples_of(catalog, broken)
    assert caught.value.location == "n.yaml:3"  # the `example:` at fault, not just its entry


# check on the evidence, on a copy of the repository.


@pytest.fixture
def project(repo_root: Path, tmp_path: Path) -> Path:
    return copy_project(repo_root, tmp_path / "project")


def kinds(root: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, set[str]]:
    assert main(["-f", str(root / "mkdocs.yml"), "check", "--format", "json"]) == 1
    found: dict[str, set[str]] = {}
    for finding in json.loads(capsys.readouterr().out)["findings"]:
        found.setdefault(finding["kind"], set()).add(finding["subject"])
    return found


def edit(root: Path, relative: str, old: str, new: str) -> None:
    path = root / relative
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= 1, f"{old!r} not in {relative}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_an_edited_example_makes_its_evidence_stale(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(project, NOTES, '"params": {"name": "no_such_tool"', '"params": {"name": "no_such_tool_either"')
    found = kinds(project, capsys)
    # The page shows the new request with no answer yet, and its header and client list say the row is not
    # replayed yet.
    assert found == {
        "evidence-stale": {"unknown-name"},
        "page-stale": {"error-examples", "page-header", "client-differences"},
    }


def test_evidence_that_contradicts_the_catalog(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (project / EVIDENCE).read_text(encoding="utf-8")
    start = text.index("- id: method-not-found")
    edited = text[:start] + text[start:].replace("    status: 404", "    status: 405", 2)
    (project / EVIDENCE).write_text(edited, encoding="utf-8")
    # Both the status probe expected and the one it saw are 405: the table has changed since probe ran, so
    # the row reads "not replayed since the change", in the client list too.
    assert kinds(project, capsys) == {
        "evidence-mismatch": {"method-not-found"},
        "page-stale": {"page-header", "error-examples", "client-differences"},
    }


def test_an_answer_that_contradicts_the_table_probe_expected(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Probe expected the table's 404 and the server answered 405: the page shows that answer, the client
    # list is unchanged.
    text = (project / EVIDENCE).read_text(encoding="utf-8")
    start = text.index("  observed:\n    status: 404", text.index("- id: method-not-found"))
    edited = text[:start] + text[start:].replace("    status: 404", "    status: 405", 1)
    (project / EVIDENCE).write_text(edited, encoding="utf-8")
    assert kinds(project, capsys) == {
        "evidence-mismatch": {"method-not-found"},
        "page-stale": {"page-header", "error-examples"},
    }


def test_an_entry_without_an_example(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = project / NOTES
    text = path.read_text(encoding="utf-8")
    start = text.index("    example:\n", text.index("  batch-not-supported:"))
    path.write_text(text[:start] + text[text.index("  unsupported-protocol-version:") :], encoding="utf-8")
    assert kinds(project, capsys) == {
        "example-missing": {"batch-not-supported"},
        "page-stale": {"error-examples", "page-header", "client-differences"},
    }


def test_an_entry_without_an_example_where_examples_are_optional(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    config.write_text(
        text.replace("          kind: errors\n", "          kind: errors\n          examples: optional\n", 1),
        encoding="utf-8",
    )
    path = project / NOTES
    text = path.read_text(encoding="utf-8")
    start = text.index("    example:\n", text.index("  batch-not-supported:"))
    path.write_text(text[:start] + text[text.index("  unsupported-protocol-version:") :], encoding="utf-8")
    # The entry is not asked for an example; the page still changes, as it lists the examples there are.
    assert kinds(project, capsys) == {"page-stale": {"error-examples", "page-header", "client-differences"}}


def test_no_evidence_yet(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / EVIDENCE).unlink()
    found = kinds(project, capsys)
    # The header no longer says the table was reproduced, nor the examples what the server answered, nor the
    # client list what the clients surfaced.
    assert found == {
        "evidence-missing": {"mcp-errors"},
        "page-stale": {"page-header", "error-examples", "client-differences"},
    }
