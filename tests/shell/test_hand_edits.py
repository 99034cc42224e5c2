"""An editor's hand edit inside a generated region: told where the text really lives, and never lost.

Each case runs on a fresh copy of the repository: the editor adds a sentence to one row of the error table,
then runs render, check and render --force as the hints tell them to.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docgen.shell.cli import main
from tests.conftest import REPO_ROOT
from tests.helpers import copy_project

PAGE = "docs/developers/mcp-errors.md"
NOTES = "data/mcp-errors.notes.yaml"
ADDED = " Ask the operator to raise the limit."


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(REPO_ROOT, tmp_path)


def _run(root: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["-f", str(root / "mkdocs.yml"), *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _edit_row(root: Path, entry_id: str, old: str, new: str) -> str:
    """Change `old` to `new` in the table row of `entry_id`; return the edited row."""
    page = root / PAGE
    text = page.read_text(encoding="utf-8")
    start = text.index(f'<a id="err-{entry_id}"></a>')
    start, end = text.rindex("\n", 0, start) + 1, text.index("\n", start)
    row = text[start:end]
    assert old in row, f"{old!r} not in the row of {entry_id}: the test needs updating"
    edited = row.replace(old, new, 1)
    page.write_text(text[:start] + edited + text[end:], encoding="utf-8")
    return edited


def _notes_line(root: Path, entry_id: str, field: str) -> int:
    lines = (root / NOTES).read_text(encoding="utf-8").splitlines()
    entry = lines.index(f"  {entry_id}:")
    return next(n for n in range(entry, len(lines)) if lines[n].startswith(f"    {field}:")) + 1


def test_the_marker_names_the_files_the_region_comes_from(project: Path) -> None:
    text = (project / PAGE).read_text(encoding="utf-8")
    assert (
        "<!-- docgen:begin error-table catalog=mcp-errors "
        f"edit-in=templates/error-table.md.j2,{NOTES} digest=" in text
    )
    assert "<!-- docgen:begin based-on edit-in=templates/based-on.md.j2 digest=" in text


def test_a_hand_edit_is_traced_to_its_notes_field_by_render_and_check(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _edit_row(project, "body-too-large", "near that size. |", f"near that size.{ADDED} |")
    place = f"{NOTES}:{_notes_line(project, 'body-too-large', 'action')}: body-too-large.action"

    code, _out, err = _run(project, capsys, "render")
    assert code == 1
    said = f"{PAGE}:50: region 'error-table' was edited by hand; left as it is. Move the edit to {place},"
    assert said in err

    code, out, _err = _run(project, capsys, "check", "--format", "json")
    assert code == 1
    [finding] = [f for f in json.loads(out)["findings"] if f["kind"] == "region-hand-edited"]
    assert finding["file"] == PAGE
    assert finding["hint"].startswith(f"make the edit where the text comes from ({place}), then run")


def test_an_edit_outside_the_notes_text_is_traced_to_the_template(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _edit_row(project, "body-too-large", "`413`", "`413 Payload Too Large`")
    code, _out, err = _run(project, capsys, "render")
    assert code == 1
    assert "Move the edit to templates/error-table.md.j2, then run `docgen render --force`" in err


def test_a_forced_render_keeps_the_discarded_text_and_says_where(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edited = _edit_row(project, "body-too-large", "near that size. |", f"near that size.{ADDED} |")

    code, _out, err = _run(project, capsys, "render", "--force")
    assert code == 0
    assert ADDED not in (project / PAGE).read_text(encoding="utf-8")
    kept = sorted((project / ".docgen/discarded").rglob("*.md"))
    assert len(kept) == 1
    relative = kept[0].relative_to(project).as_posix()
    assert relative.startswith(".docgen/discarded/docs/developers/mcp-errors.error-table.")
    assert f"the edited text is kept in {relative}. Move what should stay to {NOTES}:" in err
    # The diff shows the editor's line against the rendered one.
    assert f"-{edited}\n" in err
    assert f"+{edited.replace(ADDED, '')}\n" in err
    assert edited + "\n" in kept[0].read_text(encoding="utf-8")

    # Nothing is left to force: a second forced render keeps nothing more, and check is clean.
    assert _run(project, capsys, "render", "--force")[0] == 0
    assert len(list((project / ".docgen/discarded").rglob("*.md"))) == 1
    assert _run(project, capsys, "check")[0] == 0


def test_the_same_edit_forced_twice_is_kept_once_and_a_new_edit_beside_it(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original = (project / PAGE).read_text(encoding="utf-8")
    for added in (ADDED, ADDED, " Or split the call."):
        (project / PAGE).write_text(original, encoding="utf-8")
        _edit_row(project, "body-too-large", "near that size. |", f"near that size.{added} |")
        assert _run(project, capsys, "render", "--force")[0] == 0
    kept = sorted((project / ".docgen/discarded").rglob("*.md"))
    assert len(kept) == 2
    texts = "".join(path.read_text(encoding="utf-8") for path in kept)
    assert ADDED in texts and "Or split the call." in texts


def test_each_edited_cell_of_a_row_is_traced_on_its_own(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _edit_row(project, "body-too-large", "`413` | The request body is", "`413` | The body is")
    _edit_row(project, "body-too-large", "`-32600`", "`-32600` (invalid request)")
    cause = f"{NOTES}:{_notes_line(project, 'body-too-large', 'cause')}: body-too-large.cause"
    code, _out, err = _run(project, capsys, "render")
    assert code == 1
    assert f"Move the edit to templates/error-table.md.j2; {cause}, then run" in err
