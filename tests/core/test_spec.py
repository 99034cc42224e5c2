"""Spec conformance: the committed catalog differs from MCP 2026-07-28 exactly where the baseline says, and
check fails on a new difference, on a baseline entry that no longer holds, and on an undefined condition."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docgen.core.models import ErrorEntry, ErrorsCatalog
from docgen.core.notes import Notes
from docgen.core.spec import Citation, Condition, Outcome, Spec, compare, differences, here, required
from docgen.shell.cli import main
from tests.helpers import copy_project, load

SERVER = "backend/app/mcp_server.py"
NOTES = "data/mcp-errors.notes.yaml"
BASELINE = "data/specs/mcp-2026-07-28.baseline.yaml"
SPEC = "data/specs/mcp-2026-07-28.yaml"

KNOWN_DIFFERENCES = {
    "unknown-tool": ("code",),
    "unknown-resource": ("code",),
    "unknown-prompt": ("code",),
    "unsupported-protocol-version": ("code", "data"),
    "routing-header-missing": ("outcome",),
    "request-meta-missing": ("outcome",),
}
"""The differences known when the server was documented (shared/reference, 'What backend/ does'), plus the
`_meta` rule of basic/index.mdx, which the server does not enforce either."""


@pytest.fixture
def project(repo_root: Path, tmp_path: Path) -> Path:
    return copy_project(repo_root, tmp_path / "project")


def findings(root: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict[str, object]]]:
    code = main(["-f", str(root / "mkdocs.yml"), "check", "--format", "json"])
    return code, json.loads(capsys.readouterr().out)["findings"]


def edit(root: Path, relative: str, old: str, new: str) -> None:
    path = root / relative
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} not found once in {relative}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def committed(repo_root: Path) -> tuple[ErrorsCatalog, Notes, Spec]:
    """The repository's errors catalog, its notes and the specification they name, as check loads them."""
    project = load(repo_root, site=False)
    catalog, spec = project.catalogs()["mcp-errors"], project.spec_of("mcp-errors")
    assert isinstance(catalog, ErrorsCatalog) and spec is not None and spec.name == "mcp-2026-07-28"
    return catalog, project.notes["mcp-errors"], spec


def test_the_committed_catalog_differs_exactly_where_the_baseline_says(repo_root: Path) -> None:
    catalog, notes, spec = committed(repo_root)
    comparisons = compare(catalog, notes, spec)
    found = {c.condition.id: c.differs for c in comparisons if c.differs}
    assert found == KNOWN_DIFFERENCES
    assert {key: value.differs for key, value in spec.accepted.items()} == KNOWN_DIFFERENCES
    assert all(value.reason.strip() for value in spec.accepted.values())
    agrees = {c.condition.id for c in comparisons if not c.differs}
    assert {"header-mismatch", "notification", "tool-execution-failure", "method-not-found"} <= agrees
    assert all(c.condition.source.url.startswith("https://") for c in comparisons)


def test_how_a_difference_reads(repo_root: Path) -> None:
    catalog, notes, spec = committed(repo_root)
    by_id = {c.condition.id: c for c in compare(catalog, notes, spec)}
    assert here(by_id["unknown-tool"]) == "`-32601` at HTTP `200`"
    assert required(by_id["unknown-tool"].condition) == "a JSON-RPC error: `-32602`"
    assert here(by_id["routing-header-missing"]) == "no JSON-RPC error (no row of the table)"
    assert required(by_id["notification"].condition) == "HTTP `202 Accepted` with no body"
    version = by_id["unsupported-protocol-version"]
    assert here(version) == "`-32600` at HTTP `400`, `error.data` with `supported`"
    assert "`-32022`, HTTP `400`, `error.data` with `supported`, `requested`" in required(version.condition)


@pytest.mark.parametrize(
    ("outcome", "entries", "expected"),
    [
        ("error", [], ("outcome",)),
        ("is-error-result", [], ()),
        ("accepted", [(-32600, 400, ())], ("outcome",)),
        ("error", [(-32602, 400, ("a",))], ("status", "data")),
    ],
    ids=[
        "error answered normally",
        "result wanted, none raised",
        "202 wanted, error raised",
        "status and data",
    ],
)
def test_differences_by_outcome(
    outcome: Outcome, entries: list[tuple[int, int, tuple[str, ...]]], expected: tuple[str, ...]
) -> None:
    source = Citation("https://example.com/spec", "Errors")
    condition = Condition("c", "The client errs.", outcome, "MUST", source, -32602, 404, ("a", "b"))
    answers = [
        ErrorEntry("e", code, status, "m", "f", "app.py", data_keys=keys) for code, status, keys in entries
    ]
    assert differences(condition, answers) == expected


def test_a_new_difference_fails_check(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(
        project,
        SERVER,
        'f"Method not found: {method}", status=404, doc="method-not-found"',
        'f"Method not found: {method}", status=400, doc="method-not-found"',
    )
    code, found = findings(project, capsys)
    new = [f for f in found if f["kind"] == "spec-difference"]
    assert code == 1
    assert {f["kind"] for f in found} == {
        "spec-difference",
        "status-changed",
        "page-stale",
        "evidence-mismatch",
        "evidence-stale",
        "verification-stale",
    }
    assert [f["subject"] for f in new] == ["method-not-found"]
    assert new[0]["file"] == SERVER  # annotated on the raise site
    assert (new[0]["old"], new[0]["new"]) == (
        "a JSON-RPC error: `-32601`, HTTP `404`",
        "`-32601` at HTTP `400`",
    )
    assert "Differs in status" in str(new[0]["message"])
    assert BASELINE in str(new[0]["hint"])


STALE = {
    "unknown names now -32602": (
        'METHOD_NOT_FOUND, f"Unknown {kind}: {name}", doc="unknown-name")',
        'INVALID_PARAMS, f"Unknown {kind}: {name}", doc="unknown-name")',
        # Under 2025-11-25 an unknown tool and prompt are -32602 as well, an unknown resource -32002.
        {("unknown-tool", "code"), ("unknown-resource", "code"), ("unknown-prompt", "code")}
        | {("unknown-tool", "code under 2025-11-25"), ("unknown-prompt", "code under 2025-11-25")},
        "code-changed",
    ),
    "the version error now says what was requested": (
        'data={"supported": list(SUPPORTED_PROTOCOL_VERSIONS)},',
        'data={"supported": list(SUPPORTED_PROTOCOL_VERSIONS), "requested": version},',
        {("unsupported-protocol-version", "data")},
        "data-changed",
    ),
}


@pytest.mark.parametrize(("old", "new", "expected", "drift"), STALE.values(), ids=STALE)
def test_a_baseline_entry_that_no_longer_holds_fails_check(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    old: str,
    new: str,
    expected: set[tuple[str, str]],
    drift: str,
) -> None:
    edit(project, SERVER, old, new)
    code, found = findings(project, capsys)
    stale = [f for f in found if f["kind"] == "spec-baseline-stale"]
    assert code == 1
    # The catalog drifted (`drift`), which the pages, the evidence and the stamps all follow.
    evidence = {"evidence-mismatch"} if drift == "code-changed" else set()
    assert {f["kind"] for f in found} == {
        "spec-baseline-stale",
        drift,
        "page-stale",
        "evidence-stale",
        "verification-stale",
        *evidence,
    }
    assert {
        (str(f["subject"]), str(f["message"]).split("differing in ")[1].split(",")[0]) for f in stale
    } == expected
    assert all(f["file"] == BASELINE and f["line"] for f in stale)
    assert not [f for f in found if f["kind"] == "spec-difference"]


def test_conditions_nobody_defined_are_reported(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(project, NOTES, "spec: [parse-error]", "spec: [parse-eror]")
    edit(
        project,
        BASELINE,
        "accepted:\n",
        "accepted:\n  gone-condition:\n    differs: [code]\n    reason: Old.\n",
    )
    code, found = findings(project, capsys)
    kinds = {(f["kind"], f["subject"]) for f in found}
    assert code == 1
    # Nobody answers parse-error any more, so that is a difference as well: the mapping is checked both ways.
    assert kinds == {
        ("spec-unknown-condition", "parse-error.spec"),
        ("spec-baseline-stale", "gone-condition"),
        ("spec-difference", "parse-error"),
        ("page-stale", "spec-differences"),
    }


def test_a_notes_file_naming_a_missing_spec_is_bad_input(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(project, NOTES, "spec: mcp-2026-07-28\n", "spec: mcp-2099-01-01\n")
    assert main(["-f", str(project / "mkdocs.yml"), "check"]) == 3
    said = capsys.readouterr().err
    assert "data/specs/mcp-2099-01-01.yaml does not exist" in said
    assert "hint:" in said


def test_the_committed_catalog_differs_under_2025_11_25_exactly_where_the_baseline_says(
    repo_root: Path,
) -> None:
    catalog, notes, spec = committed(repo_root)
    assert (spec.revision, list(spec.earlier)) == ("2026-07-28", ["2025-11-25"])
    comparisons = compare(catalog, notes, spec, "2025-11-25")
    found = {c.condition.id: c.differs for c in comparisons if c.differs}
    assert found == {"unknown-tool": ("code",), "unknown-resource": ("code",), "unknown-prompt": ("code",)}
    assert {c: a.differs for c, a in spec.accepted_at("2025-11-25").items()} == found
    # The rules 2026-07-28 brought are not held against clients of 2025-11-25.
    defined = {c.condition.id for c in comparisons}
    assert {"header-mismatch", "routing-header-missing", "request-meta-missing"}.isdisjoint(defined)
    assert len(defined) == len(spec.conditions) - 3


def test_a_difference_under_an_earlier_revision_fails_check_naming_it(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The 2025-11-25 classification of an unknown method said otherwise: a difference under that revision
    alone, which the baseline does not accept there."""
    edit(
        project,
        SPEC,
        "        code: -32601\n        level: stated\n",
        "        code: -32600\n        level: stated\n",
    )
    code, found = findings(project, capsys)
    assert code == 1
    assert {(f["kind"], f["subject"]) for f in found} == {
        ("spec-difference", "method-not-found"),
        ("page-stale", "spec-differences"),
    }
    new = next(f for f in found if f["kind"] == "spec-difference")
    assert "Differs in code from MCP specification 2026-07-28, as 2025-11-25 says" in str(new["message"])
    assert "(under `earlier: 2025-11-25:`)" in str(new["hint"])


def test_a_condition_that_does_not_say_how_an_earlier_revision_classifies_it_is_bad_input(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(
        project,
        SPEC,
        "    earlier:\n      '2025-11-25': not-defined\n  - id: routing-header-missing\n",
        "  - id: routing-header-missing\n",
    )
    assert main(["-f", str(project / "mkdocs.yml"), "check"]) == 3
    said = capsys.readouterr().err
    assert (
        f"{SPEC}:" in said and "condition 'header-mismatch' does not say how 2025-11-25 classifies it" in said
    )
    assert "add `2025-11-25:` under its `earlier:`" in said
