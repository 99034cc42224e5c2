"""docgen check: every kind of drift is caught, harmless edits stay quiet, bad input fails cleanly.

Each case runs on a fresh copy of the repository's backend/, data/, docs/, templates/ and mkdocs.yml, with one
change applied, and reads check's JSON report.
"""

from __future__ import annotations

import ast
import hashlib
import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from docgen.shell.cli import main
from tests.clients.harness import node_problem, skip_or_fail
from tests.conftest import REPO_ROOT
from tests.helpers import copy_project

SERVER = "backend/app/mcp_server.py"
PROTOCOL = "backend/app/protocol.py"
ERRORS_PAGE = "docs/developers/mcp-errors.md"
NOTES = "data/mcp-errors.notes.yaml"
EVIDENCE = "data/mcp-errors.evidence.yaml"
SPEC = "data/specs/mcp-2026-07-28.yaml"

Edit = Callable[[Path], None]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A fresh copy of the parts of the repository that check reads."""
    return copy_project(REPO_ROOT, tmp_path)


def check(root: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, list[dict[str, object]]]:
    code = main(["-f", str(root / "mkdocs.yml"), "check", "--format", "json", *extra])
    out = capsys.readouterr().out
    return code, json.loads(out)["findings"] if out.strip() else []


def replace(relative: str, old: str, new: str, count: int = 1) -> Edit:
    def edit(root: Path) -> None:
        path = root / relative
        text = path.read_text(encoding="utf-8")
        assert text.count(old) >= count, f"{old!r} not found in {relative}: the test needs updating"
        path.write_text(text.replace(old, new, count), encoding="utf-8")

    return edit


def swap_functions(first: str, second: str) -> Edit:
    """Exchange two top-level functions of the server module, text and all."""

    def edit(root: Path) -> None:
        path = root / SERVER
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines(keepends=True)
        spans = {}
        for node in ast.parse(text).body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in {first, second}:
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)]) - 1
                spans[node.name] = (start, node.end_lineno or node.lineno)
        (a0, a1), (b0, b1) = sorted(spans.values())
        swapped = lines[:a0] + lines[b0:b1] + lines[a1:b0] + lines[a0:a1] + lines[b1:]
        path.write_text("".join(swapped), encoding="utf-8")

    return edit


def drop_record(root: Path, entry_id: str) -> None:
    """Take one entry's record out of the evidence file."""
    path = root / EVIDENCE
    text = path.read_text(encoding="utf-8")
    start = text.index(f"- id: {entry_id}\n")
    end = text.index("- id: ", start + 1)
    path.write_text(text[:start] + text[end:], encoding="utf-8")


def both(*edits: Edit) -> Edit:
    def edit(root: Path) -> None:
        for one in edits:
            one(root)

    return edit


def test_the_committed_repository_is_clean(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, findings = check(project, capsys)
    assert findings == []
    assert code == 0


DRIFT: dict[str, tuple[Edit, set[str]]] = {
    "status changed": (
        replace(
            SERVER,
            'f"Method not found: {method}", status=404, doc="method-not-found"',
            'f"Method not found: {method}", status=410, doc="method-not-found"',
        ),
        {
            "evidence-mismatch",
            "evidence-stale",
            "page-stale",
            "spec-difference",
            "status-changed",
            "verification-stale",
        },
    ),
    "code changed": (
        replace(SERVER, 'METHOD_NOT_FOUND, f"Method not found', 'INVALID_PARAMS, f"Method not found'),
        {
            "code-changed",
            "evidence-mismatch",
            "evidence-stale",
            "page-stale",
            "spec-difference",
            "verification-stale",
        },
    ),
    "message changed": (
        replace(SERVER, '"Rate limit exceeded"', '"Too many requests"'),
        {"evidence-stale", "message-changed", "verification-stale"},
    ),
    "mkdocs.yml runs a hook at build time": (
        replace("mkdocs.yml", "\nplugins:\n", "\nhooks:\n  - hooks/evil.py\n\nplugins:\n"),
        {"build-runs-code"},
    ),
    "condition changed": (
        replace(
            SERVER,
            "if handler is None or removed_in_revision(",
            "if method.startswith('rpc.') or handler is None or removed_in_revision(",
        ),
        {"condition-changed", "evidence-stale", "verification-stale"},
    ),
    "entry added": (
        replace(
            SERVER,
            "    handler = _METHODS.get(method_name)",
            "    if method == 'ping':\n"
            "        # Ping was removed from the protocol.\n"
            "        return _rpc_error(request_id, METHOD_NOT_FOUND, 'Ping is gone', status=410)\n"
            "    handler = _METHODS.get(method_name)",
        ),
        {"entry-added", "evidence-stale", "example-missing", "notes-gap", "page-stale", "verification-stale"},
    ),
    "entry removed": (
        replace(SERVER, "if not isinstance(message, dict):", "if False:"),
        {"condition-changed", "evidence-stale", "verification-stale"},
    ),
    "constant changed under several entries": (
        replace(PROTOCOL, "INVALID_REQUEST = -32600", "INVALID_REQUEST = -32650"),
        # The code is a fact of the errors mcp_endpoint and _handle lead to: their fingerprints change.
        {"constant-changed", "evidence-mismatch", "evidence-stale", "page-stale", "verification-stale"},
    ),
    "data keys changed": (
        replace(
            SERVER,
            'data={"supported": list(SUPPORTED_PROTOCOL_VERSIONS)}',
            'data={"supported": list(SUPPORTED_PROTOCOL_VERSIONS), "retry": True}',
        ),
        {"data-changed", "evidence-stale", "page-stale", "verification-stale"},
    ),
    "comment above a call changed": (
        replace(
            SERVER,
            "# An Origin header names neither a page on a loopback host nor an allowed remote site.",
            "# An Origin header from a page this server does not accept.",
        ),
        {"cause-draft-changed"},
    ),
    "tool added": (
        replace(SERVER, "\ndef _discover(", "\n@_tool()\ndef _discover("),
        {"tool-added", "page-stale"},
    ),
    "prompt removed": (
        replace(SERVER, "@_prompt()\ndef answer_from_docs", "def answer_from_docs"),
        {"tool-removed", "page-stale", "verification-stale"},
    ),
    "tool description changed": (
        replace(SERVER, '"""Search the public documentation', '"""Look through the public documentation'),
        {"tool-changed", "page-stale", "verification-stale"},
    ),
    "catalog cites another file": (
        replace("data/mcp-errors.yaml", "- path: backend/app/mcp_server.py", "- path: backend/app/other.py"),
        {"catalog-stale"},
    ),
    "entry replaced by a similar one": (
        both(
            replace(SERVER, "if not state.limiter.allow(client):", "if state.limiter.full(client):"),
            replace(
                SERVER, '"Rate limit exceeded", status=RATE_LIMIT_STATUS', '"Client is throttled", status=503'
            ),
        ),
        {
            "entry-added",
            "entry-removed",
            "likely-successor",
            "notes-gap",
            "notes-orphan",
            "example-missing",
            "evidence-stale",
            "page-stale",
            "verification-stale",
        },
    ),
    "catalog not extracted yet": (
        lambda root: (root / "data/mcp-tools.yaml").unlink(),
        {"catalog-stale"},
    ),
    "catalog of another kind": (
        lambda root: shutil.copy(root / "data/mcp-errors.yaml", root / "data/mcp-tools.yaml"),
        {"catalog-stale"},
    ),
    "evidence lacks a record": (
        lambda root: drop_record(root, "batch-not-supported"),
        {"evidence-missing", "page-stale"},
    ),
    "notes edited: page stale": (
        replace(NOTES, "cause:", "cause: Changed.", count=1),
        {"page-stale"},
    ),
    "notes gap": (
        replace(
            NOTES,
            "    action: Fix how the request is serialised; resending the same bytes fails the same way.\n",
            "",
        ),
        {"notes-gap", "page-stale"},
    ),
    "notes orphan": (
        replace(NOTES, "entries:\n", "entries:\n  gone-entry:\n    cause: Old.\n    action: Old.\n"),
        {"notes-orphan"},
    ),
    "notes key misspelt: one finding, none of what follows from it": (
        replace(NOTES, "  method-not-found:\n", "  method-not-fuond:\n"),
        {"notes-key-typo"},
    ),
    "notes key close to an entry that has notes of its own: still an orphan": (
        replace(NOTES, "entries:\n", "entries:\n  unknown-nme:\n    cause: Old.\n    action: Old.\n"),
        {"notes-orphan"},
    ),
    "notes name a constant that does not exist": (
        replace(NOTES, "cause:", "cause: Over {{ NO_SUCH_LIMIT }} requests.", count=1),
        {"notes-unknown-constant", "page-stale"},
    ),
    "region edited by hand": (
        replace(ERRORS_PAGE, "`-32700` | `400` |", "`-32700` | `418` |"),
        {"region-hand-edited"},
    ),
    "cited symbol missing": (
        replace(ERRORS_PAGE, "mcp_endpoint, _handle]", "mcp_endpoint, _handle_request]"),
        {"citation-symbol", "page-stale"},
    ),
    "cited file missing": (
        replace(ERRORS_PAGE, "file: backend/app/mcp_server.py", "file: backend/app/server.py"),
        {"citation-file", "page-stale"},
    ),
    "page never verified": (
        replace(ERRORS_PAGE, "verified_fingerprints:\n", "fingerprints_of_old:\n"),
        {"verification-missing"},
    ),
    "page that names a catalog but lost its regions": (
        lambda root: (root / "docs/developers/notes.md").write_text(
            "---\ntitle: Notes\ncatalog: mcp-errors\n---\n# Notes\n", encoding="utf-8"
        ),
        {"page-missing-region"},
    ),
    "broken link": (
        replace(ERRORS_PAGE, "## Questions", "See [the old page](old-errors.md).\n\n## Questions"),
        {"link-broken"},
    ),
    "broken anchor": (
        replace(ERRORS_PAGE, "## Questions", "See [the table](#no-such-row).\n\n## Questions"),
        {"anchor-broken"},
    ),
    "a note shows a credential": (
        both(
            replace(SERVER, "MAX_QUERY_WORDS = 12\n", 'MAX_QUERY_WORDS = 12\nAPI_TOKEN = "tok-1b9e"\n'),
            replace(
                NOTES, "seconds.\n    action: Slow down", "seconds ({{ API_TOKEN }}).\n    action: Slow down"
            ),
        ),
        {"credential-published", "page-stale"},
    ),
}


@pytest.mark.parametrize(("edit", "expected"), DRIFT.values(), ids=DRIFT)
def test_drift_is_caught(
    project: Path, capsys: pytest.CaptureFixture[str], edit: Edit, expected: set[str]
) -> None:
    edit(project)
    code, findings = check(project, capsys)
    kinds = {str(finding["kind"]) for finding in findings}
    assert kinds == expected
    assert code == 1


def line_of(root: Path, relative: str, needle: str) -> int:
    """The first line of a project file that holds `needle`."""
    lines = (root / relative).read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if needle in line)


def remove_batch_refusal(root: Path) -> None:
    """Take the call that refuses a batch out of the server: its entry is gone, not changed."""
    replace(
        SERVER,
        "    if not isinstance(message, dict):\n",
        "    if not isinstance(message, dict):\n        message = {}\n    if False:\n",
    )(root)
    server = root / SERVER
    text = server.read_text(encoding="utf-8")
    start = text.index("    if False:\n")
    call_end = 'doc="batch-not-supported"\n        )\n'
    end = text.index(call_end, start) + len(call_end)
    server.write_text(text[:start] + text[end:], encoding="utf-8")


def test_removing_a_raise_site_is_an_entry_removed(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    remove_batch_refusal(project)
    _code, findings = check(project, capsys)
    located = {(f["kind"], f["file"], f["line"]) for f in findings if f["kind"] != "page-stale"}
    endpoint = line_of(project, SERVER, "async def mcp_endpoint(")
    assert located == {
        (
            "entry-removed",
            "data/mcp-errors.yaml",
            line_of(project, "data/mcp-errors.yaml", "- id: batch-not"),
        ),
        ("notes-orphan", NOTES, line_of(project, NOTES, "  batch-not-supported:")),
        ("evidence-stale", EVIDENCE, line_of(project, EVIDENCE, "mcp_server.py:mcp_endpoint:")),
        ("spec-difference", SPEC, line_of(project, SPEC, "- id: batch")),
        ("verification-stale", SERVER, endpoint),  # once, for the four pages that cite it
    }
    stale = {(f["file"], f["line"], f["subject"]) for f in findings if f["kind"] == "page-stale"}
    regions = ("page-header", "error-table", "client-differences", "error-examples", "spec-differences")
    assert stale == {(ERRORS_PAGE, line_of(project, ERRORS_PAGE, f"begin {name} "), name) for name in regions}


def test_one_constant_change_is_one_finding_naming_its_entries(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replace(PROTOCOL, "INVALID_REQUEST = -32600", "INVALID_REQUEST = -32650")(project)
    _code, findings = check(project, capsys)
    catalog = [f for f in findings if str(f["file"]).startswith(("data/", "backend/"))]
    constant = [f for f in catalog if f["kind"] == "constant-changed" and f["subject"] == "INVALID_REQUEST"]
    assert len(constant) == 1
    assert (constant[0]["old"], constant[0]["new"]) == ("-32600", "-32650")
    assert "4 entries" in str(constant[0]["message"])
    assert not [f for f in catalog if f["kind"] == "code-changed"]


def test_code_side_findings_point_at_the_raise_site(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replace(
        SERVER,
        'f"Method not found: {method}", status=404, doc="method-not-found"',
        'f"Method not found: {method}", status=410, doc="method-not-found"',
    )(project)
    main(["-f", str(project / "mkdocs.yml"), "check", "--format", "github"])
    out = capsys.readouterr().out
    lines = (project / SERVER).read_text(encoding="utf-8").splitlines()
    # The call's first line, `return _rpc_error(`, above the line of its arguments.
    raise_line = next(i for i, line in enumerate(lines, 1) if "status=410" in line) - 1
    # One annotation for the change, what follows from it (the page among them) inside it.
    title = "title=docgen status-changed%3A method-not-found (+"
    [annotation] = [line for line in out.splitlines() if line.startswith("::error")]
    assert annotation.startswith(f"::error file={SERVER},line={raise_line},{title}")
    assert "%0A%0Apage-stale: error-table: " in annotation


HARMLESS: dict[str, Edit] = {
    "reformatted call": replace(
        SERVER,
        'return _rpc_error(\n            None, PARSE_ERROR, "Parse error: invalid JSON", '
        'status=HTTPStatus.BAD_REQUEST, doc="parse-error"\n        )',
        "return _rpc_error(\n            None,\n            PARSE_ERROR,\n"
        "            'Parse error: invalid JSON',\n            status=HTTPStatus.BAD_REQUEST,\n"
        "            doc='parse-error',\n        )",
    ),
    "functions reordered": swap_functions("_initialize", "_discover"),
    "code added above the call sites": replace(
        SERVER,
        "\n\ndef _rpc_error(",
        '\n\ndef _unused_helper() -> str:\n    return "added"\n\n\ndef _rpc_error(',
    ),
    "local variable renamed": both(
        replace(SERVER, "handler = _METHODS.get(method_name)", "method_handler = _METHODS.get(method_name)"),
        replace(SERVER, "if handler is None or", "if method_handler is None or"),
        replace(SERVER, "run_handler(method_name, handler,", "run_handler(method_name, method_handler,"),
    ),
    "comment added elsewhere": replace(
        SERVER,
        '    request_id, method = message.get("id"), message.get("method")\n',
        "    # Pull the routing facts out of the message first.\n"
        '    request_id, method = message.get("id"), message.get("method")\n',
    ),
    "constant moved to another module": both(
        replace(SERVER, "MAX_BODY_BYTES = 256 * 1024\n", ""),
        replace(
            SERVER,
            "from backend.app.protocol import (",
            "from backend.app.protocol import (\n    MAX_BODY_BYTES,",
        ),
        lambda root: (root / PROTOCOL).write_text(
            (root / PROTOCOL).read_text(encoding="utf-8") + "\nMAX_BODY_BYTES = 256 * 1024\n",
            encoding="utf-8",
        ),
    ),
}


@pytest.mark.parametrize("edit", HARMLESS.values(), ids=HARMLESS)
def test_harmless_edits_stay_clean(project: Path, capsys: pytest.CaptureFixture[str], edit: Edit) -> None:
    before = (project / SERVER).read_text(encoding="utf-8")
    edit(project)
    assert (project / SERVER).read_text(encoding="utf-8") != before or edit is HARMLESS[
        "constant moved to another module"
    ]
    code, findings = check(project, capsys)
    assert findings == []
    assert code == 0


def _tree_digest(root: Path) -> dict[str, str]:
    return {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def test_check_never_writes(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    replace(SERVER, '"Rate limit exceeded"', '"Too many requests"')(project)
    replace(ERRORS_PAGE, "`-32700` | `400` |", "`-32700` | `418` |")(project)
    before = _tree_digest(project)
    code, _findings = check(project, capsys)
    assert code == 1
    assert _tree_digest(project) == before


def test_verify_stamps_and_check_reports_a_changed_handle(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The story ends with a probe, which runs the TypeScript client too: without Node it cannot be told.
    problem = node_problem()
    if problem is not None:
        skip_or_fail(problem)
    page = project / ERRORS_PAGE
    assert main(["-f", str(project / "mkdocs.yml"), "verify", str(page), "--date", "2026-11-30"]) == 0
    assert "last_verified: 2026-11-30" in page.read_text(encoding="utf-8")
    assert check(project, capsys) == (0, [])

    replace(SERVER, "if handler is None or", "if not method or handler is None or")(project)
    code, findings = check(project, capsys)
    stale = [f for f in findings if f["kind"] == "verification-stale"]
    assert code == 1
    # Four pages cite _handle: one finding, on _handle's lines, listing the four pages.
    assert len(stale) == 1
    [finding] = stale
    assert finding["subject"] == f"{SERVER}:_handle"
    assert finding["file"] == SERVER
    assert finding["pages"] == [
        "docs/developers/errors-and-retries.md",
        "docs/developers/mcp-client-generic.md",
        ERRORS_PAGE,
        "docs/developers/mcp-server.md",
    ]
    assert str(finding["message"]).startswith("_handle (lines ")
    assert "changed after the 4 pages citing it were last verified: " in str(finding["message"])
    assert str(finding["hint"]).endswith(f"then run `docgen verify {' '.join(finding['pages'])}`")

    # The evidence was taken from the old _handle, so check distrusts it too.
    assert {f["subject"] for f in findings if f["kind"] == "evidence-stale"} == {f"{SERVER}:_handle"}

    # The backend engineer updates catalog, evidence and pages; a reviewer re-reads each page and stamps it.
    assert main(["-f", str(project / "mkdocs.yml"), "extract"]) == 0
    probe = ["probe", "--app", "backend.app.mcp_server:app", "--date", "2026-12-01"]
    assert main(["-f", str(project / "mkdocs.yml"), *probe]) == 0
    assert main(["-f", str(project / "mkdocs.yml"), "render"]) == 0
    pages = [str(project / page) for page in finding["pages"]]
    assert main(["-f", str(project / "mkdocs.yml"), "verify", *pages, "--date", "2026-12-01"]) == 0
    assert check(project, capsys) == (0, [])


def test_contract_changes_against_a_base_ref(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=project, check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "base")
    replace(
        SERVER,
        'f"Method not found: {method}", status=404, doc="method-not-found"',
        'f"Method not found: {method}", status=410, doc="method-not-found"',
    )(project)
    replace(SERVER, 'INTERNAL_ERROR, "Rate limit exceeded"', 'INVALID_REQUEST, "Rate limit exceeded"')(
        project
    )
    remove_batch_refusal(project)
    code, findings = check(project, capsys, "--base", "main")
    breaking = {(f["kind"], f["subject"]) for f in findings if f["breaking"]}
    assert code == 1
    assert breaking == {
        ("contract-status", "method-not-found"),
        ("contract-code", "rate-limited"),
        ("contract-removed", "batch-not-supported"),
    }
    assert all(f["kind"].startswith("contract-") for f in findings if f["breaking"])
    assert all(f["breaking"] for f in findings if f["kind"].startswith("contract-"))


def _broken_template(root: Path) -> None:
    path = root / "templates" / "error-table.md.j2"
    path.write_text(path.read_text(encoding="utf-8") + "\n{% for row in entries %}\n", encoding="utf-8")


BAD_INPUT: dict[str, tuple[Edit, int, str]] = {
    "syntax error in the backend": (
        replace(SERVER, "def mcp_endpoint(request: Request)", "def mcp_endpoint(request: Request"),
        3,
        f"{SERVER}:",
    ),
    "non-UTF-8 source": (
        lambda root: (root / SERVER).write_bytes(b"# caf\xe9\n" + (root / SERVER).read_bytes()),
        3,
        f"{SERVER}:1:",
    ),
    "malformed catalog YAML": (
        replace("data/mcp-errors.yaml", "entries:\n", "entries:\n  - id: [unclosed\n"),
        3,
        "data/mcp-errors.yaml:",
    ),
    "malformed notes YAML": (replace(NOTES, "entries:\n", "entries:\n  bad: : :\n"), 3, f"{NOTES}:"),
    "config key missing": (
        replace("mkdocs.yml", "          functions: [mcp_endpoint, _handle]\n", ""),
        2,
        "mkdocs.yml:",
    ),
    "config key mistyped": (replace("mkdocs.yml", "constructors:", "constructor:"), 2, "did you mean"),
    "template syntax error": (_broken_template, 3, "error-table.md.j2"),
    "non-UTF-8 page": (
        lambda root: (root / "docs/developers/latin1.md").write_bytes(b"# Caf\xe9\n"),
        3,
        "docs/developers/latin1.md:",
    ),
    "non-UTF-8 evidence": (
        lambda root: (root / "data/mcp-errors.evidence.yaml").write_bytes(b"probed: caf\xe9\n"),
        3,
        "data/mcp-errors.evidence.yaml:",
    ),
    "citation outside the repository": (
        replace(ERRORS_PAGE, "  - file: backend/app/mcp_server.py", "  - file: ../../etc/passwd"),
        3,
        "outside the repository",
    ),
}


@pytest.mark.parametrize(("edit", "exit_code", "located"), BAD_INPUT.values(), ids=BAD_INPUT)
def test_bad_input_is_a_located_error_without_traceback(
    project: Path, capsys: pytest.CaptureFixture[str], edit: Edit, exit_code: int, located: str
) -> None:
    edit(project)
    code = main(["-f", str(project / "mkdocs.yml"), "check"])
    captured = capsys.readouterr()
    assert code == exit_code
    assert "Traceback" not in captured.err + captured.out
    assert captured.err.startswith("docgen check: error: ")
    assert located in captured.err
    assert "hint:" in captured.err


def test_notes_findings_grow_linearly_with_the_notes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each orphaned id is located from the lines the YAML loader records once per file, never by
    searching the text again (which took 25 s for 5,000 ids): the work, counted in YAML nodes visited,
    doubles when the ids double. benchmarks/notes.md has the measured times."""
    from docgen.check.notes import notes_findings
    from docgen.core import yamlio
    from docgen.core.models import ErrorsCatalog
    from tests.helpers import read_notes

    visited: list[int] = []
    record = yamlio._record_lines

    def counting(*args: Any) -> None:
        visited[-1] += 1
        record(*args)

    monkeypatch.setattr(yamlio, "_record_lines", counting)
    work = {}
    for count in (1000, 2000):
        path = tmp_path / f"{count}.notes.yaml"
        notes = "entries:\n" + "".join(f"  gone-{n}:\n    cause: C.\n    action: A.\n" for n in range(count))
        path.write_text(notes, encoding="utf-8")
        loaded = read_notes(path, "data/errors.notes.yaml")
        visited.append(0)
        findings = list(notes_findings(loaded, ErrorsCatalog("errors", (), {}, ()), []))
        assert [f.line for f in findings] == [
            2 + 3 * n for n in sorted(range(count), key=lambda n: f"gone-{n}")
        ]
        work[count] = visited[-1]
    assert work[2000] <= 2 * work[1000] + 10
