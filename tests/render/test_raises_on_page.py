"""An editor's `show_raises` puts the raise sites behind an entry's handler on the page, next to the cause."""

from __future__ import annotations

from pathlib import Path

from docgen.shell.cli import main
from tests.conftest import REPO_ROOT
from tests.helpers import copy_project

NOTES = "data/mcp-errors.notes.yaml"
PAGE = "docs/developers/mcp-errors.md"


def row(page: str, entry_id: str) -> str:
    return next(line for line in page.splitlines() if f'<a id="err-{entry_id}"></a>' in line)


def test_the_raise_sites_are_listed_only_where_the_notes_ask(tmp_path: Path) -> None:
    root = copy_project(REPO_ROOT, tmp_path)
    notes = root / NOTES
    text = notes.read_text(encoding="utf-8")
    assert text.count("\n  invalid-params:\n") == 1
    notes.write_text(
        text.replace("\n  invalid-params:\n", "\n  invalid-params:\n    show_raises: true\n"),
        encoding="utf-8",
    )
    assert main(["-f", str(root / "mkdocs.yml"), "render"]) == 0
    page = (root / PAGE).read_text(encoding="utf-8")
    shown = row(page, "invalid-params")
    assert "Raised in the code it reaches as: " in shown
    assert "`BadParams` in `_string_field` (backend/app/features.py), \"'{key}' must be a string\";" in shown
    assert "`BadParams` in `_handle` (backend/app/mcp_server.py), \"'params' must be an object\"." in shown
    assert "Raised" not in row(page, "unknown-name")  # its notes do not ask
    assert main(["-f", str(root / "mkdocs.yml"), "check"]) == 0
