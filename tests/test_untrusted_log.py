"""A pull request that tries to run GitHub workflow commands through what docgen prints, in the attacker's
terms: a copy of the repository with the attack committed, the real CLI, and the log read line by line as
GitHub's runner reads it. The only commands it may find are docgen's own annotations and the
`::stop-commands::` around the text it echoes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.helpers import copy_project
from tests.test_untrusted import docgen

TEMPLATE = "templates/error-table.md.j2"
NOTES = "data/mcp-errors.notes.yaml"
EVIL_PAGE = "docs/evil\n::warning::page.md"
"""A page whose file name holds a line break and then a workflow command."""
REGION = "<!-- docgen:begin error-table catalog=mcp-errors -->\n<!-- docgen:end error-table -->\n"

Command = tuple[str, dict[str, str], str]


def commands_run(log: str) -> list[Command]:
    """The workflow commands GitHub's runner would run for `log`, in order: (name, properties, message).

    As the runner does: a line ends at `\\n`, `\\r` or both; a line is a command when, after leading
    whitespace, it starts with `::NAME ...::`, or when it holds `##[NAME ...]` anywhere; after
    `::stop-commands::TOKEN` nothing runs until a command named TOKEN. Any name counts (the runner knows a
    dozen; a test that knew fewer would miss some)."""
    run: list[Command] = []
    stopped_until = None
    for line in re.split(r"\r\n|\r|\n", log):
        command = _parsed(line)
        if command is None:
            continue
        if stopped_until is not None:
            stopped_until = None if command[0] == stopped_until else stopped_until
            continue
        if command[0] == "stop-commands":
            stopped_until = command[2]
        run.append(command)
    return run


def _parsed(line: str) -> Command | None:
    text = line.lstrip()
    if text.startswith("::") and (end := text.find("::", 2)) > 0:
        name, _, properties = text[2:end].partition(" ")
        pairs = (item.split("=", 1) for item in properties.split(",") if "=" in item)
        return name, {key: _unescaped(value) for key, value in pairs}, _unescaped(text[end + 2 :])
    start = line.find("##[")
    if start >= 0 and (end := line.find("]", start)) > 0:
        return line[start + 3 : end].partition(" ")[0], {}, line[end + 1 :]
    return None


def _unescaped(text: str) -> str:
    for escaped, plain in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(escaped, plain)
    return text


def _edit(root: Path, relative: str, old: str, new: str) -> None:
    path = root / relative
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {relative}: the test needs updating"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture
def attacked(tmp_path: Path) -> Path:
    """The pull request: the error table's template prints two lines that are workflow commands, and the
    pages are rendered with them and committed (so in a diff they are unchanged lines, which start with a
    space); then a note changes without a render, so the region drifts and check shows its diff; and a page
    is added whose file name holds a line break and a command."""
    root = copy_project(REPO_ROOT, tmp_path / "project")
    header = "| {% if columns.code %}Code"
    _edit(root, TEMPLATE, header, "##[add-mask]pwned-too\n   ::warning::pwned\n" + header)
    assert docgen(root, "render").returncode == 0
    _edit(
        root, NOTES, "action: Fix how the request is serialised;", "action: Fix how the body is serialised;"
    )
    (root / EVIL_PAGE).write_text(f"---\ntitle: x\n---\n{REGION}", encoding="utf-8")
    return root


def test_the_github_log_runs_only_docgens_annotations(attacked: Path) -> None:
    done = docgen(attacked, "check", "--format", "github")
    assert done.returncode == 1, done.stderr
    run = commands_run(done.stdout + done.stderr)
    names = [name for name, _properties, _message in run]
    assert names == ["error", "error", "stop-commands"]
    files = {properties["file"] for _name, properties, _message in run[:2]}
    assert files == {"docs/developers/mcp-errors.md", EVIL_PAGE}  # the name, escaped, read back whole
    assert all(message.startswith("page-stale: error-table: ") for _name, _p, message in run[:2])
    # The text report is there, inside the stop-commands block, with the diff and the names readable.
    token = run[2][2]
    assert re.fullmatch("[0-9a-f]{32}", token)
    block = done.stdout.split(f"::stop-commands::{token}\n")[1]
    assert block.endswith(f"::{token}::\n")
    assert "        :\\:warning::pwned\n" in block and "    +#\\#[add-mask]pwned-too\n" in block
    assert "page-stale: error-table: the generated region no longer matches" in block


@pytest.mark.parametrize("output", ["text", "json"])
def test_the_other_formats_run_no_command(attacked: Path, output: str) -> None:
    done = docgen(attacked, "check", "--format", output)
    assert done.returncode == 1, done.stderr
    assert commands_run(done.stdout + done.stderr) == []
    if output == "json":  # the values are unchanged: `#\u0023[` reads as `##[`
        diffs = "".join(finding["diff"] or "" for finding in json.loads(done.stdout)["findings"])
        assert "+##[add-mask]pwned-too\n" in diffs and "    ::warning::pwned\n" in diffs


def test_an_error_echoing_a_notes_key_runs_no_command(tmp_path: Path) -> None:
    root = copy_project(REPO_ROOT, tmp_path / "project")
    key = '"ghost\\n::warning file=x::key\\r##[error]boom"'
    _edit(root, NOTES, "entries:\n", f"entries:\n  {key}:\n    cause: x\n    action: y\n")
    done = docgen(root, "check", "--format", "github")
    assert done.returncode == 3
    assert done.stderr.startswith(f"docgen check: error: {NOTES}:")
    assert "does not match '^[a-z0-9][a-z0-9-]*$'" in done.stderr
    assert commands_run(done.stdout + done.stderr) == []


def test_render_showing_a_discarded_edit_runs_no_command(attacked: Path) -> None:
    page = "docs/developers/mcp-errors.md"
    _edit(attacked, page, "   ::warning::pwned\n", "   ::warning::pwned\n::notice::edited by hand\n")
    done = docgen(attacked, "render", "--force")
    assert done.returncode == 0, done.stderr
    assert "was edited by hand and is now overwritten" in done.stderr
    assert "-:\\:notice::edited by hand" not in done.stderr  # a removed line starts with `-`: left alone
    assert "-::notice::edited by hand" in done.stderr
    assert "   :\\:warning::pwned" in done.stderr
    assert commands_run(done.stdout + done.stderr) == []
