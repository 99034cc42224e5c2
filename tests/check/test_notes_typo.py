"""A notes key with a typo in it: one finding that names the id it means, and no advice to render first.

The author's mistake here is one letter in a key of data/mcp-errors.notes.yaml. Rendering before the key is
fixed would publish the entry as a draft row, so check must say "rename the key", and nothing else that only
follows from the typo.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from docgen.check.typos import edits
from tests.conftest import REPO_ROOT
from tests.helpers import copy_project

NOTES = "data/mcp-errors.notes.yaml"
TYPO = ("  method-not-found:\n", "  method-not-fuond:\n")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(REPO_ROOT, tmp_path / "project")


def docgen(root: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "docgen.shell.cli", "-f", str(root / "mkdocs.yml"), *argv]
    return subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=300, check=False)


def edit(root: Path, relative: str, old: str, new: str) -> None:
    path = root / relative
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} not found once in {relative}: the test needs updating"
    path.write_text(text.replace(old, new), encoding="utf-8")


def line_of(root: Path, relative: str, needle: str) -> int:
    lines = (root / relative).read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if line.startswith(needle))


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_misspelt_notes_key_is_one_finding_with_its_suggestion(project: Path) -> None:
    edit(project, NOTES, *TYPO)
    before = tree(project)
    done = docgen(project, "check")
    assert done.returncode == 1, done.stderr
    assert done.stderr == ""
    where = f"{NOTES}:{line_of(project, NOTES, '  method-not-fuond:')}"
    # The first line says what changed, the one finding follows; no command closes the report, as
    # rendering would publish a draft.
    assert done.stdout == (
        f"{where}: method-not-fuond: "
        "notes key 'method-not-fuond' names no entry; did you mean 'method-not-found'?\n"
        "\n"
        f"{where}: notes-key-typo: method-not-fuond: "
        "notes key 'method-not-fuond' names no entry; did you mean 'method-not-found'?\n"
        "    hint: rename the key to 'method-not-found' in data/mcp-errors.notes.yaml; rendering before that "
        "would publish 'method-not-found' as a draft without these notes\n"
        "\n"
        "1 finding(s) from 1 cause. Left to do: rename the misspelt notes key as the hint says\n"
    )
    assert tree(project) == before


def test_a_typo_hides_only_what_follows_from_it(project: Path) -> None:
    """Another entry's real gap, and the page drift it causes, are still reported, after the rename."""
    edit(project, NOTES, *TYPO)
    edit(
        project,
        NOTES,
        "    action: Fix how the request is serialised; resending the same bytes fails the same way.\n",
        "",
    )
    done = docgen(project, "check", "--format", "json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    kinds = {(f["kind"], f["subject"]) for f in report["findings"] if f["kind"] != "page-stale"}
    assert kinds == {("notes-key-typo", "method-not-fuond"), ("notes-gap", "parse-error")}
    stale = [f for f in report["findings"] if f["kind"] == "page-stale"]
    assert stale and all("method-not-found" not in (f["diff"] or "") for f in stale)
    steps = report["summary"]["next_steps"]
    assert steps[0] == "rename the misspelt notes key as the hint says"
    assert steps[1] == "`docgen render`"


def test_two_keys_that_could_mean_the_same_entry_are_both_orphans(project: Path) -> None:
    """No guess when two keys could each be the misspelt one: both orphans and the gap stay."""
    edit(project, NOTES, "  method-not-found:\n", "  x-method-not-found:\n")
    edit(project, NOTES, "  unknown-name:\n", "  method-not-fond:\n")
    done = docgen(project, "check", "--format", "json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    notes = {(f["kind"], f["subject"]) for f in report["findings"] if f["file"] == NOTES}
    assert not {kind for kind, _subject in notes} & {"notes-key-typo"}
    assert {
        ("notes-orphan", "x-method-not-found"),
        ("notes-orphan", "method-not-fond"),
        ("notes-gap", "method-not-found"),
    } <= notes


@pytest.mark.parametrize(
    ("key", "entry_id", "expected"),
    [
        ("method-not-fuond", "method-not-found", 2),  # two letters swapped
        ("method-not-foud", "method-not-found", 1),
        ("method-not-found", "method-not-found", 0),
        ("402-the-card-was-refused", "402-the-card-was-declined", 3),  # a rename, not a typo
        ("a", "abcd", 3),
        ("", "ab", 2),
    ],
)
def test_edits_counts_letters_up_to_one_past_the_limit(key: str, entry_id: str, expected: int) -> None:
    assert edits(key, entry_id) == expected
