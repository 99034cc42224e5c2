"""Messages an editor reads: every path spelled from the project root, the same hints from every command.

Each case runs on a fresh copy of the repository and calls the CLI as an editor would.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docgen.shell.cli import main
from tests.conftest import REPO_ROOT
from tests.helpers import copy_project

NOTES = "data/mcp-errors.notes.yaml"
ERRORS_PAGE = "docs/developers/mcp-errors.md"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(REPO_ROOT, tmp_path)


def _edit(root: Path, relative: str, old: str, new: str) -> None:
    path = root / relative
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {relative}: the test needs updating"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _run(root: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["-f", str(root / "mkdocs.yml"), *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_mistyped_constant_in_a_filtered_note_gets_the_same_hint_from_check_as_from_render(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The note passes the constant through a filter (`| join_code("or")`), as most notes do.
    _edit(project, NOTES, "{{ LOOPBACK_ORIGIN_HOSTS | join_code", "{{ LOOPBACK_ORIGIN_HOST | join_code")
    code, _out, err = _run(project, capsys, "render")
    assert code == 3
    assert "hint: did you mean 'LOOPBACK_ORIGIN_HOSTS'?" in err

    code, out, _err = _run(project, capsys, "check", "--format", "json")
    assert code == 1  # a finding, not a crash of check on the note
    found = [f for f in json.loads(out)["findings"] if f["kind"] == "notes-unknown-constant"]
    assert [f["subject"] for f in found] == ["origin-not-allowed.cause"]
    assert found[0]["hint"] == "did you mean 'LOOPBACK_ORIGIN_HOSTS'?"
    assert found[0]["file"] == NOTES


def test_a_failing_template_names_the_page_from_the_project_root(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    template = project / "templates/error-table.md.j2"
    template.write_text(template.read_text(encoding="utf-8") + "{{ 1 // 0 }}\n", encoding="utf-8")
    for command in ("render", "check"):
        code, _out, err = _run(project, capsys, command)
        assert code == 3
        assert err.startswith(f"docgen {command}: error: templates/error-table.md.j2:")
        assert f"of {ERRORS_PAGE}:" in err
        assert str(project) not in err


def test_a_missing_end_marker_is_named_from_the_project_root(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = project / ERRORS_PAGE
    text = page.read_text(encoding="utf-8")
    last = text.rindex("<!-- docgen:end ")
    page.write_text(text[:last] + text[text.index("\n", last) + 1 :], encoding="utf-8")
    for command in ("render", "check", "verify"):
        extra = [ERRORS_PAGE] if command == "verify" else []
        code, _out, err = _run(project, capsys, command, *[str(project / e) for e in extra])
        assert code == 3
        assert f"error: {ERRORS_PAGE}:" in err
        assert "is never closed" in err


def test_a_new_entry_shows_its_code_comment_as_a_draft_and_check_says_so(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A backend engineer adds an error with a comment above it, then runs what check asks for.
    _edit(
        project,
        "backend/app/mcp_server.py",
        "    handler = _METHODS.get(method_name)",
        "    if method == 'ping':\n"
        "        # Ping was removed from the protocol.\n"
        "        return _rpc_error(request_id, METHOD_NOT_FOUND, 'Ping is gone', status=410)\n"
        "    handler = _METHODS.get(method_name)",
    )
    code, _out, err = _run(project, capsys, "extract")
    assert code == 0
    assert (
        "has no cause or action yet; add them under 'entries:' (until then the page shows its code comment"
        in err
    )
    assert _run(project, capsys, "render")[0] == 0

    page = (project / ERRORS_PAGE).read_text(encoding="utf-8")
    [row] = [line for line in page.splitlines() if "`410`" in line and "<a id=" in line]
    draft = "_Draft from the code, not yet reviewed:_ Ping was removed from the protocol."
    assert f"| {draft} The client gets: `Ping is gone`. |" in row  # the message, until a cause is written
    assert row.endswith("| _Not yet documented._ |")

    code, out, _err = _run(project, capsys, "check", "--format", "json")
    assert code == 1
    [gap] = [f for f in json.loads(out)["findings"] if f["kind"] == "notes-gap"]
    assert gap["file"] == NOTES
    assert gap["message"] == (
        "the entry has no cause and no action for readers; the page shows the comment above its call in the "
        "code as the cause, marked as a draft"
    )
    assert gap["hint"].endswith("(the draft to start from: 'Ping was removed from the protocol.')")
