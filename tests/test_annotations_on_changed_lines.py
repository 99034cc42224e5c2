"""`docgen check --base REF --format github` annotates only the lines the pull request changed.

A reviewer reads annotations beside the diff: one on a page line nobody touched is noise, and GitHub keeps
only ten. So with `--base`, the annotations stand on changed lines (the server's source first), and every
other finding is still in the log's text report, counted. Run on a committed copy of this repository with
one status changed in `backend/`, as a backend engineer would change it.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import IO

import pytest

from docgen.core import git_ref
from docgen.core.diff_lines import ChangedLines, changed_in_diff, with_statement_starts
from docgen.core.errors import InputError
from docgen.core.findings import Finding, Kind, in_report_order
from docgen.core.git_ref import changed_lines, verified_commit
from docgen.core.reports import as_github, not_annotated
from docgen.shell.cli import main
from tests.conftest import REPO_ROOT
from tests.helpers import copy_project

SERVER = "backend/app/mcp_server.py"
PAGE = "docs/developers/mcp-errors.md"
EVIDENCE = "data/mcp-errors.evidence.yaml"
OLD = 'f"Method not found: {method}", status=404, doc="method-not-found"'
NEW = 'f"Method not found: {method}", status=400, doc="method-not-found"'


def _git(root: Path, *args: str) -> None:
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(["git", *identity, *args], cwd=root, check=True, capture_output=True)


@pytest.fixture
def changed(tmp_path: Path) -> Path:
    """A copy of the repository, committed, then the method-not-found status changed from 404 to 400."""
    root = copy_project(REPO_ROOT, tmp_path / "project")
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "base")
    server = root / SERVER
    text = server.read_text(encoding="utf-8")
    assert text.count(OLD) == 1, f"{OLD!r} not once in {SERVER}: the test needs updating"
    server.write_text(text.replace(OLD, NEW), encoding="utf-8")
    return root


def _check(root: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["-f", str(root / "mkdocs.yml"), "check", *args])
    return code, capsys.readouterr().out


def _line_of(root: Path, needle: str, relative: str = SERVER) -> int:
    lines = (root / relative).read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if needle in line)


def test_annotations_stand_only_on_the_changed_line(
    changed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, log = _check(changed, capsys, "--base", "HEAD", "--format", "github")
    assert code == 1
    line = _line_of(changed, NEW) - 1  # the call's first line, `return _rpc_error(`, above its arguments
    annotations = [text for text in log.splitlines() if text.startswith("::error")]
    # One changed line, one annotation: the contract change, the catalog drift and the specification's
    # difference it causes, together, the breaking one first.
    [annotation] = annotations
    # One changed line, one cause, one annotation: the status change at the raise site, and under it what
    # follows from it, the specification's broken MUST first, then the contract change against the base.
    assert annotation.startswith(
        f"::error file={SERVER},line={line},title=docgen status-changed%3A method-not-found (+10 more)::"
    )
    assert (
        annotation.index("status-changed: method-not-found")
        < annotation.index("spec-difference: method-not-found")
        < annotation.index("contract-status: method-not-found")
        < annotation.index("page-stale: error-table")
    )
    assert not annotation.startswith(f"::error file={PAGE}")

    # The text report after the annotation lists every finding again, under its cause; all of them follow
    # from the annotated line, so no line counts findings left unannotated.
    report = log[log.index("::stop-commands::") :]
    _code, text = _check(changed, capsys, "--base", "HEAD")
    assert report.splitlines()[1:-1] == text.splitlines()  # the whole text report, every finding in it
    for region in ("page-header", "error-table", "error-examples"):
        assert (
            f"      {PAGE}:{_line_of(changed, f'docgen:begin {region}', PAGE)}: page-stale: {region}:"
            in report
        )
    handle = _line_of(changed, "async def _handle(")
    assert f"      {SERVER}:{handle}: verification-stale: backend/app/mcp_server.py:_handle" in report
    evidence = _line_of(changed, "- id: method-not-found", EVIDENCE)
    assert f"      {EVIDENCE}:{evidence}: evidence-mismatch: method-not-found" in report
    assert text.splitlines()[-2].startswith("11 finding(s) from 1 cause. ")
    assert "not annotated" not in log


def test_without_base_the_cause_alone_is_annotated(changed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _code, log = _check(changed, capsys, "--format", "github")
    annotations = [text for text in log.splitlines() if text.startswith("::error")]
    # The raise site; the five page regions, the stamp and the two evidence lines are in its annotation.
    [annotation] = annotations
    line = _line_of(changed, NEW) - 1  # `return _rpc_error(`
    assert annotation.startswith(f"::error file={SERVER},line={line},title=docgen status-changed%3A ")
    assert annotation.count("page-stale: ") == 5
    assert "not annotated" not in log


def test_a_source_line_ranks_before_a_changed_page_line() -> None:
    # By importance alone the stale page comes first (page drift is listed before the stamps); on changed
    # lines the server's source goes first, since the page only follows from it.
    findings = [
        Finding(Kind.PAGE_STALE, "docs/a.md", 9, "table", "stale", "render"),
        Finding(Kind.VERIFICATION_STALE, "app.py", 3, "app.py:f", "changed", "re-read"),
        Finding(Kind.NOTES_GAP, "data/x.notes.yaml", 4, "a", "no cause", "write one"),
    ]
    assert [f.file for f in in_report_order(findings)][:2] == ["docs/a.md", "data/x.notes.yaml"]
    changed = ChangedLines(
        ref="main", lines={"docs/a.md": frozenset({9}), "app.py": frozenset({3})}, whole=frozenset()
    )
    lines = as_github(findings, changed=changed).splitlines()
    assert [line.split(",title=")[0] for line in lines] == [
        "::error file=app.py,line=3",
        "::error file=docs/a.md,line=9",
    ]
    assert not_annotated(findings, changed).startswith("docgen check: 1 of 3 finding(s) not annotated")
    assert not_annotated(findings[:2], changed) == ""


def test_untracked_files_count_as_wholly_changed(changed: Path) -> None:
    (changed / "docs" / "new-page.md").write_text("# New\n", encoding="utf-8")
    found = changed_lines(changed, verified_commit(changed, "HEAD"))
    # The changed line, and the first line of the call it is part of (where findings about the call stand).
    changed_line = _line_of(changed, NEW)
    assert found.lines == {SERVER: frozenset({changed_line - 1, changed_line})}
    assert found.whole == frozenset({"docs/new-page.md"})
    assert found.touches("docs/new-page.md", 400) and found.touches(SERVER, None)
    assert not found.touches(SERVER, 1) and not found.touches(PAGE, None)


def test_a_diff_past_the_byte_limit_is_a_located_error(
    changed: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(git_ref, "GIT_DIFF_MAX_BYTES", 100)
    with pytest.raises(InputError) as caught:
        changed_lines(changed, verified_commit(changed, "HEAD"))
    assert caught.value.file == "git diff HEAD"
    assert (
        "git printed more than 100 bytes, docgen's limit for the changes it annotates" in caught.value.message
    )
    code = main(["-f", str(changed / "mkdocs.yml"), "check", "--base", "HEAD", "--format", "github"])
    captured = capsys.readouterr()
    assert code == 3 and "::error" not in captured.out
    assert "git diff HEAD: git printed more than 100 bytes" in captured.err


def test_the_diff_is_read_by_its_hunk_counts_not_by_what_lines_look_like() -> None:
    diff = b"\n".join(
        [
            b"diff --git a.py a.py",
            b"--- a.py",
            b"+++ a.py",
            b"@@ -3,2 +3,3 @@ def f():",
            b"-old",
            b"-old",
            b"+++ b.py",  # an added line that reads like a header
            b"+diff --git c.py c.py",
            b"+new",
            b"@@ -10 +11,0 @@",  # a pure deletion: the line after it counts
            b"-gone",
            b'diff --git "q\\"\\303\\251.md" "q\\"\\303\\251.md"',
            b"new file mode 100644",
            b"--- /dev/null",
            b'+++ "q\\"\\303\\251.md"',
            b"@@ -0,0 +1 @@",
            b"+x",
            b"diff --git gone.py gone.py",
            b"--- gone.py",
            b"+++ /dev/null",
            b"@@ -1 +0,0 @@",
            b"-x",
            b"diff --git ctx.py ctx.py",  # hunks merged with context, as diff.interHunkContext would
            b"--- ctx.py",
            b"+++ ctx.py",
            b"@@ -20,4 +21,4 @@",
            b" same",
            b"-a",
            b"+b",
            b"\\ No newline at end of file",
            b" same",
            b"+c",
            b"-d",
            b"diff --git pic.png pic.png",
            b"Binary files pic.png and pic.png differ",
            b"",
        ]
    )
    assert changed_in_diff(diff) == {
        "a.py": frozenset({3, 4, 5, 12}),
        'q"é.md': frozenset({1}),
        "ctx.py": frozenset({22, 24}),
    }


def test_a_finding_without_a_line_counts_when_its_file_changed() -> None:
    changed = ChangedLines(ref="main", lines={"data/x.yaml": frozenset({4})}, whole=frozenset())
    assert changed.touches("data/x.yaml", None) and not changed.touches("data/y.yaml", None)


def test_a_git_call_past_the_time_limit_is_stopped_and_an_error(
    changed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A git that never finishes (a huge repository, a hung filesystem) stands in as `sleep`.
    def hanging(_root: Path, _args: tuple[str, ...], stderr: IO[bytes]) -> subprocess.Popen[bytes]:
        return subprocess.Popen(["sleep", "30"], stdout=subprocess.PIPE, stderr=stderr)

    monkeypatch.setattr(git_ref, "_spawn", hanging)
    monkeypatch.setattr(git_ref, "GIT_MAX_SECONDS", 0.2)
    started = time.monotonic()
    with pytest.raises(InputError) as caught:
        changed_lines(changed, verified_commit(changed, "HEAD"))
    assert time.monotonic() - started < 10
    assert caught.value.file == "git diff HEAD"
    assert caught.value.message == "git took longer than 0.2 s, docgen's limit for one git call"


def test_a_change_on_a_later_line_of_a_call_is_annotated_on_the_call(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The call is written over several lines in the base; the pull request changes only its `status=` line.
    Findings about the call stand on its first line, and that line counts as changed."""
    root = copy_project(REPO_ROOT, tmp_path / "project")
    server = root / SERVER
    split = (
        "return _rpc_error(\n            request_id,\n            METHOD_NOT_FOUND,\n"
        '            f"Method not found: {method}",\n            status=404,\n'
        '            doc="method-not-found",\n        )'
    )
    text = server.read_text(encoding="utf-8")
    one_line = f"return _rpc_error(\n            request_id, METHOD_NOT_FOUND, {OLD}\n        )"
    assert text.count(one_line) == 1, f"{one_line!r} not once in {SERVER}: the test needs updating"
    server.write_text(text.replace(one_line, split), encoding="utf-8")
    assert main(["-f", str(root / "mkdocs.yml"), "extract"]) == 0
    capsys.readouterr()
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "base")
    server.write_text(
        server.read_text(encoding="utf-8").replace("status=404,", "status=400,"), encoding="utf-8"
    )

    code, log = _check(root, capsys, "--base", "HEAD", "--format", "github")
    assert code == 1
    call_line = _line_of(root, '            f"Method not found: {method}",') - 3  # `return _rpc_error(`
    [annotation] = [line for line in log.splitlines() if line.startswith("::error")]
    assert annotation.startswith(f"::error file={SERVER},line={call_line},title=docgen status-changed")
    assert "not annotated" not in log


def test_a_statement_start_counts_as_changed_only_for_calls_and_simple_statements() -> None:
    source = b"def f():\n    x = call(\n        1,\n        2,\n    )\n    return x\n"
    assert with_statement_starts(frozenset({4}), source) == frozenset({2, 4})
    assert with_statement_starts(frozenset({6}), source) == frozenset({6})  # not the `def` line
    assert with_statement_starts(frozenset({2}), b"def broken(:\n") == frozenset({2})
