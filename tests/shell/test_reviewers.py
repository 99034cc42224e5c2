"""What a reviewer and a page owner are told: the GitHub check of a pull request, and `docgen verify`.

Each case runs on a fresh copy of the repository with one change applied, as a backend engineer would make it.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import jsonschema
import pytest

from docgen.core.schemas import SCHEMA_DIR
from docgen.shell.cli import main
from tests.clients.harness import node_problem, skip_or_fail
from tests.conftest import REPO_ROOT
from tests.helpers import copy_project

SERVER = "backend/app/mcp_server.py"
PAGE = "docs/developers/mcp-errors.md"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(REPO_ROOT, tmp_path / "project")


def _run(root: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["-f", str(root / "mkdocs.yml"), *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _edit(root: Path, old: str, new: str) -> None:
    path = root / SERVER
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {SERVER}: the test needs updating"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _twelve_finding_change(root: Path) -> None:
    """Commit the project as the base branch, then change a code and a condition in the server."""
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "base"]):
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
            cwd=root,
            check=True,
            capture_output=True,
        )
    _edit(root, 'INTERNAL_ERROR, "Rate limit exceeded"', 'INVALID_REQUEST, "Rate limit exceeded"')
    _edit(root, "if handler is None or ", "if handler is None or not method or ")


def test_the_github_check_of_a_twelve_finding_change(
    project: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _twelve_finding_change(project)
    code, out, _err = _run(project, capsys, "check", "--base", "main", "--format", "json")
    report = json.loads(out)
    findings = report["findings"]
    # Twelve findings and one more for the client-differences region, which shows the changed code too.
    assert code == 1 and report["summary"]["total"] == len(findings) == 13
    places = {(f["file"], f["line"]) for f in findings}
    assert len(places) == 12  # the contract change and the code change share the raise site's line

    summary = tmp_path / "step-summary.md"
    summary.write_text("earlier step\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    code, out, _err = _run(project, capsys, "check", "--base", "main", "--format", "github")
    assert code == 1
    annotations = [line for line in out.splitlines() if line.startswith("::error")]
    # With --base, only causes on the lines the change touched carry annotations: the raise site whose code
    # changed, with what follows from it (the contract change, the pages, the stamp, the evidence) in the
    # same annotation. The condition's finding stands on the call below the changed `if` (its first line,
    # `return _rpc_error(`, not the `if`): it and what follows from it stay in the log, counted.
    raise_line = _line_of(project, 'INVALID_REQUEST, "Rate limit exceeded"') - 1  # `refusal = _rpc_error(`
    method_line = _line_of(project, "Method not found") - 1  # `return _rpc_error(`
    [annotation] = annotations
    assert annotation.startswith(
        f"::error file={SERVER},line={raise_line},title=docgen code-changed%3A rate-limited (+9 more)::"
    )
    assert "contract-code: rate-limited" in annotation and "page-stale: error-table" in annotation
    assert (
        "docgen check: 3 of 13 finding(s) not annotated, as neither they nor their cause are on a line "
        "changed since main; the report below lists every finding"
    ) in out.splitlines()
    assert f"      {PAGE}:50: page-stale: error-table:" in out
    assert f"{SERVER}:{method_line}: condition-changed: method-not-found:" in out

    # The job summary has the whole report, after what earlier steps wrote.
    written = summary.read_text(encoding="utf-8")
    assert written.startswith("earlier step\n## docgen check\n\n13 finding(s). Left to do: ")
    assert sum(1 for line in written.splitlines() if line.startswith("- `")) == 13
    for kind, count in report["summary"]["by_kind"].items():
        assert f"| `{kind}` | {count} |" in written

    # Without --base every cause is annotated: two changes, two annotations, each on its raise site.
    monkeypatch.delenv("GITHUB_STEP_SUMMARY")
    code, out, _err = _run(project, capsys, "check", "--format", "github")
    assert code == 1
    annotations = [line.split("::", 2)[1] for line in out.splitlines() if line.startswith("::error")]
    assert annotations == [
        f"error file={SERVER},line={raise_line},title=docgen code-changed%3A rate-limited (+8 more)",
        f"error file={SERVER},line={method_line},title=docgen condition-changed%3A method-not-found "
        "(+2 more)",
    ]
    assert "not annotated" not in out


def _line_of(root: Path, needle: str) -> int:
    lines = (root / SERVER).read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if needle in line)


def test_json_output_validates_against_its_published_schema(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = json.loads((SCHEMA_DIR / "check-report.schema.json").read_text(encoding="utf-8"))
    _edit(project, "if handler is None or ", "if handler is None or not method or ")
    code, out, _err = _run(project, capsys, "check", "--format", "json")
    document = json.loads(out)
    jsonschema.Draft202012Validator(schema).validate(document)
    assert document["summary"]["exit_code"] == code == 1


def test_after_extract_and_render_the_closing_line_names_only_verify(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A backend engineer changes a cited function and runs what check asks for: extract, probe, render.
    # Only the re-reading is left, and the closing line says so.
    problem = node_problem()  # probe runs the TypeScript client too
    if problem is not None:
        skip_or_fail(problem)
    _edit(project, "if handler is None or ", "if handler is None or not method or ")
    assert _run(project, capsys, "extract")[0] == 0
    assert (
        _run(project, capsys, "probe", "--app", "backend.app.mcp_server:app", "--date", "2026-12-01")[0] == 0
    )
    assert _run(project, capsys, "render")[0] == 0
    code, out, _err = _run(project, capsys, "check")
    assert code == 1
    closing = out.rstrip("\n").splitlines()[-1]
    pages = [
        "docs/developers/errors-and-retries.md",
        "docs/developers/mcp-client-generic.md",
        PAGE,
        "docs/developers/mcp-server.md",
    ]
    assert closing == (
        "1 finding(s) from 1 cause. Left to do: re-read the 4 pages against the changed source, then "
        f"`docgen verify {' '.join(pages)}`"
    )
    assert "docgen extract" not in closing


def test_verify_refuses_a_page_whose_table_disagrees_with_the_code(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _edit(
        project,
        'f"Method not found: {method}", status=404, doc="method-not-found"',
        'f"Method not found: {method}", status=410, doc="method-not-found"',
    )
    before = (project / PAGE).read_text(encoding="utf-8")

    code, _out, err = _run(project, capsys, "verify", str(project / PAGE), "--date", "2026-12-24")
    assert code == 1
    assert (project / PAGE).read_text(encoding="utf-8") == before  # nothing stamped
    assert f"{PAGE}: " in err and "open finding(s) the page or its catalog still has:" in err
    call_line = _line_of(project, "status=410") - 1  # `return _rpc_error(`, above its arguments
    assert f"{SERVER}:{call_line}: status-changed: method-not-found:" in err
    assert f"{PAGE}:50: page-stale: error-table:" in err
    assert f"or stamp anyway with `docgen verify --force {PAGE}`" in err

    # --force is for the rare case: it stamps, and still lists what was open.
    code, _out, err = _run(project, capsys, "verify", "--force", str(project / PAGE), "--date", "2026-12-24")
    assert code == 0
    assert "last_verified: 2026-12-24" in (project / PAGE).read_text(encoding="utf-8")
    assert f"{PAGE}: verified 2026-12-24 despite its open findings" in err
    assert "status-changed: method-not-found" in err


def test_verify_stamps_once_the_page_is_up_to_date(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _edit(project, "if handler is None or ", "if handler is None or not method or ")
    assert _run(project, capsys, "verify", str(project / PAGE), "--date", "2026-12-24")[0] == 1
    assert _run(project, capsys, "extract")[0] == 0
    assert _run(project, capsys, "render")[0] == 0
    # The evidence is stale (probe has not run since), but the page's own text and catalog agree with the
    # code: a person may stamp it.
    code, _out, err = _run(project, capsys, "verify", str(project / PAGE), "--date", "2026-12-24")
    assert code == 0, err
    assert "last_verified: 2026-12-24" in (project / PAGE).read_text(encoding="utf-8")
