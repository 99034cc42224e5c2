"""One change in the source is one finding: what follows from it is listed under it (issue 30).

Run through the real CLI on a committed copy of this repository, as a backend engineer would change it: the
method-not-found error's status goes from 404 to 400. Check used to print eleven findings side by side, the
specification's broken MUST last; now the raise site's line is the one cause, the MUST first under it.
"""

from __future__ import annotations

import ast
import json
import subprocess
from pathlib import Path

import jsonschema
import pytest

from docgen.core.schemas import SCHEMA_DIR
from docgen.shell.cli import main
from tests.conftest import REPO_ROOT
from tests.helpers import copy_project

SERVER = "backend/app/mcp_server.py"
PAGE = "docs/developers/mcp-errors.md"
NOTES = "data/mcp-errors.notes.yaml"
EVIDENCE = "data/mcp-errors.evidence.yaml"
OLD = 'f"Method not found: {method}", status=404, doc="method-not-found"'
NEW = 'f"Method not found: {method}", status=400, doc="method-not-found"'
PAGES = (
    "docs/developers/errors-and-retries.md docs/developers/mcp-client-generic.md "
    "docs/developers/mcp-errors.md docs/developers/mcp-server.md"
)


def _git(root: Path, *args: str) -> None:
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(["git", *identity, *args], cwd=root, check=True, capture_output=True)


def _edit(root: Path, relative: str, old: str, new: str) -> None:
    path = root / relative
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} not once in {relative}: the test needs updating"
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the repository, committed as the base."""
    root = copy_project(REPO_ROOT, tmp_path / "project")
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "base"]):
        _git(root, *args)
    return root


def _check(root: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["-f", str(root / "mkdocs.yml"), "check", *args])
    return code, capsys.readouterr().out


def _line_of(root: Path, relative: str, needle: str) -> int:
    lines = (root / relative).read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if needle in line)


CITING = ("errors-and-retries", "mcp-client-generic", "mcp-errors", "mcp-server")
"""The pages that cite `_handle`, under docs/developers/."""


def _verified(root: Path, pages: tuple[str, ...]) -> str:
    """Each page with the date its header says it was last verified, as the finding lists them."""
    listed = []
    for name in pages:
        page = f"docs/developers/{name}.md"
        date = _line_text(root, page, "last_verified: ").split(": ", 1)[1].strip()
        listed.append(f"{page} (verified {date})")
    return ", ".join(listed)


def _line_text(root: Path, relative: str, needle: str) -> str:
    return next(line for line in (root / relative).read_text(encoding="utf-8").splitlines() if needle in line)


def _end_of_handle(root: Path) -> int:
    """The last line of the server's `_handle`, as the citation of it counts its lines."""
    tree = ast.parse((root / SERVER).read_text(encoding="utf-8"))
    found = next(n for n in ast.walk(tree) if isinstance(n, ast.AsyncFunctionDef) and n.name == "_handle")
    assert found.end_lineno is not None
    return found.end_lineno


def test_a_status_change_is_one_finding_with_what_follows_under_it(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _edit(project, SERVER, OLD, NEW)
    site = f"{SERVER}:{_line_of(project, SERVER, NEW) - 1}"  # `return _rpc_error(`, above its arguments
    code, text = _check(project, capsys, "--base", "HEAD")
    assert code == 1
    lines = text.splitlines()
    # The first line says what changed; the cause follows with its values, then what follows from it, one
    # line each (values and hints indented below them), the specification's MUST first.
    assert lines[:7] == [
        f"{site}: method-not-found: status 404 -> 400",
        "",
        f"{site}: status-changed: method-not-found: the HTTP status changed",
        "    was: 404",
        "    now: 400",
        "    hint: run `docgen extract && docgen render` and review the page",
        "    follows from it (10):",
    ]
    follows = [line for line in lines if line.startswith("      ") and not line.startswith("          ")]
    handle = _line_of(project, SERVER, "async def _handle(")
    assert follows == [
        f"      {site}: spec-difference: method-not-found: The request names a method the server does not "
        "implement. Differs in status from MCP specification 2026-07-28 (Streamable HTTP \u203a Request "
        "Metadata \u203a Protocol Version Header, https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/"
        "streamable-http#protocol-version-header)",
        f"      {site}: contract-status: method-not-found: the status clients see changed since HEAD",
        *(
            f"      {PAGE}:{_line_of(project, PAGE, f'docgen:begin {region}')}: page-stale: {region}: "
            "the generated region no longer matches the catalog"
            for region in (
                "page-header",
                "error-table",
                "client-differences",
                "error-examples",
                "spec-differences",
            )
        ),
        f"      {SERVER}:{handle}: verification-stale: {SERVER}:_handle: "
        f"_handle (lines {handle}-{_end_of_handle(project)}) changed after the 4 pages citing it were last "
        f"verified: {_verified(project, CITING)}",
        f"      {EVIDENCE}:8: evidence-stale: {SERVER}:_handle: changed after probe ran on 2026-12-01; "
        "the evidence may no longer hold",
        f"      {EVIDENCE}:{_line_of(project, EVIDENCE, 'id: method-not-found')}: evidence-mismatch: "
        "method-not-found: the server answered -32601 at HTTP 404 to the example; the table says -32601 at "
        "HTTP 400",
    ]
    # The last line is the one command that brings the docs up to date, after all that is left to do.
    assert lines[-2:] == [
        "11 finding(s) from 1 cause. Left to do: `docgen extract && docgen render`; then "
        "`docgen probe && docgen render`; then re-read the 4 pages against "
        f"the changed source, then `docgen verify {PAGES}`; then 2 to fix by hand (each hint says how)",
        "docgen extract && docgen render",
    ]


def test_the_change_is_one_annotation_and_the_json_keeps_every_finding_linked_to_it(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _edit(project, SERVER, OLD, NEW)
    line = _line_of(project, SERVER, NEW) - 1  # `return _rpc_error(`
    for base in (["--base", "HEAD"], []):
        code, log = _check(project, capsys, *base, "--format", "github")
        assert code == 1
        [annotation] = [text for text in log.splitlines() if text.startswith("::error")]
        assert annotation.startswith(
            f"::error file={SERVER},line={line},title=docgen status-changed%3A method-not-found (+"
        )
        body = annotation.split("::", 2)[2]
        assert body.index("status-changed:") < body.index("spec-difference:") < body.index("page-stale:")
        assert "not annotated" not in log

    code, out = _check(project, capsys, "--base", "HEAD", "--format", "json")
    assert code == 1
    report = json.loads(out)
    schema = json.loads((SCHEMA_DIR / "check-report.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(report)
    findings = report["findings"]
    assert report["summary"]["total"] == len(findings) == 11 and report["summary"]["causes"] == 1
    [cause] = [index for index, finding in enumerate(findings) if finding["cause"] is None]
    assert (findings[cause]["kind"], findings[cause]["line"]) == ("status-changed", line)
    assert all(finding["cause"] == cause for index, finding in enumerate(findings) if index != cause)


def test_a_typo_and_an_unrelated_change_stay_two_causes(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _edit(project, NOTES, "  method-not-found:\n", "  method-not-fuond:\n")
    _edit(project, SERVER, 'INTERNAL_ERROR, "Rate limit exceeded"', 'INVALID_REQUEST, "Rate limit exceeded"')
    site = f"{SERVER}:{_line_of(project, SERVER, 'Rate limit exceeded') - 1}"  # `refusal = _rpc_error(`
    typo = f"{NOTES}:{_line_of(project, NOTES, '  method-not-fuond:')}"
    code, text = _check(project, capsys)
    assert code == 1
    lines = text.splitlines()
    assert lines[0] == f"{site}: rate-limited: code -32603 -> -32600 (and 1 more cause)"
    causes = [line for line in lines if line and not line.startswith(" ")]
    assert causes[1:3] == [
        f"{site}: code-changed: rate-limited: the JSON-RPC code changed",
        f"{typo}: notes-key-typo: method-not-fuond: notes key 'method-not-fuond' names no entry; "
        "did you mean 'method-not-found'?",
    ]
    assert causes[3].startswith("10 finding(s) from 2 causes. Left to do: rename the misspelt notes key")
    # Rendering before the rename would publish a draft: no command closes the report.
    assert lines[-1] == causes[3]
    under_rate = lines[lines.index(causes[1]) : lines.index(causes[2])]
    assert "    follows from it (8):" in under_rate
    assert not any("method-not-f" in line for line in under_rate)
