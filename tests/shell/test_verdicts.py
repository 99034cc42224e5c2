"""The verdict cache of `docgen check` never hides drift: changing any one input checks afresh.

Each test records a trusted verdict of a copy of this repository through the real console command, then
replaces the recorded report with a marker text. A run that prints the marker was answered from the cache;
one that prints a real report checked afresh.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.helpers import copy_project

FROM_CACHE = "answered from the cache\n"
SERVER = "backend/app/mcp_server.py"
OLD_STATUS = 'f"Method not found: {method}", status=404, doc="method-not-found"'


def _edit(root: Path, relative: str, old: str, new: str) -> None:
    path = root / relative
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= 1, f"{old!r} not in {relative}: the test needs updating"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _append(root: Path, relative: str, text: str) -> None:
    with (root / relative).open("a", encoding="utf-8") as file:
        file.write(text)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = copy_project(REPO_ROOT, tmp_path / "project")
    (tmp_path / "installed").mkdir()
    return root


def _run(root: Path, *args: str, record: bool = False) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "DOCGEN_VERDICTS": str(root.parent / "verdicts"),
        "PYTHONPATH": os.pathsep.join([str(root.parent / "installed"), str(REPO_ROOT)]),
    }
    env.pop("DOCGEN_VERDICTS_RECORD", None)
    if record:
        env["DOCGEN_VERDICTS_RECORD"] = "1"
    command = [sys.executable, "-m", "docgen", "-f", str(root / "mkdocs.yml"), "check", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, check=False)


def _recorded(root: Path, *args: str) -> Path:
    """Record a trusted verdict, then put the marker text in its place; the one verdict file."""
    done = _run(root, *args, record=True)
    assert done.returncode == 0, done.stdout + done.stderr
    (stored,) = [p for p in (root.parent / "verdicts").glob("*.json") if p.name != "hashes.json"]
    verdict = json.loads(stored.read_text(encoding="utf-8"))
    assert (verdict["code"], verdict["stdout"]) == (0, done.stdout)
    stored.write_text(json.dumps({**verdict, "stdout": FROM_CACHE}), encoding="utf-8")
    return stored


def test_the_same_inputs_are_answered_from_the_cache_and_an_untrusted_run_writes_nothing(
    project: Path,
) -> None:
    untrusted = _run(project)
    assert untrusted.returncode == 0, untrusted.stdout + untrusted.stderr
    assert not (project.parent / "verdicts").exists()  # a run without DOCGEN_VERDICTS_RECORD=1 only reads
    _recorded(project)
    again = _run(project)
    assert (again.returncode, again.stdout) == (0, FROM_CACHE)


CHANGES: dict[str, Callable[[Path], None]] = {
    "a source line": lambda root: _edit(root, SERVER, "\n", "\n# a comment only\n"),
    "a constant": lambda root: _edit(root, SERVER, OLD_STATUS, OLD_STATUS.replace("404", "400")),
    "a note": lambda root: _edit(root, "data/mcp-errors.notes.yaml", "cause: ", "cause: Indeed, "),
    "a template": lambda root: _edit(root, "templates/error-table.md.j2", "\n", "\n{# a comment #}\n"),
    "the evidence": lambda root: _edit(root, "data/mcp-errors.evidence.yaml", "2026-12-01", "2026-12-02"),
    "the configuration": lambda root: _edit(root, "mkdocs.yml", "\n", "\n# a comment only\n"),
    "a page": lambda root: _append(root, "docs/developers/mcp-errors.md", "\nAn editor's last sentence.\n"),
    "an installed package's version": lambda root: (
        root.parent / "installed" / "somepackage-2.0.dist-info"
    ).mkdir(),
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_changing_any_one_input_checks_afresh(project: Path, change: str) -> None:
    stored = _recorded(project)
    CHANGES[change](project)
    changed = _run(project)
    assert changed.stdout != FROM_CACHE, f"{change}: answered from the cache"
    assert changed.returncode in (0, 1), changed.stderr
    if change in ("a constant", "a note", "a template"):  # drift the recorded clean verdict must not hide
        assert changed.returncode == 1, changed.stdout
    assert stored.read_text(encoding="utf-8").count(FROM_CACHE.strip()) == 1  # an untrusted run wrote nothing


def test_the_options_are_part_of_the_key(project: Path) -> None:
    _recorded(project)
    as_json = _run(project, "--format", "json")
    assert as_json.stdout != FROM_CACHE and json.loads(as_json.stdout)["summary"]


def test_runs_the_cache_cannot_answer_run_as_usual(project: Path) -> None:
    _recorded(project)
    for args in (("--format", "github"), ("--base", "HEAD")):
        done = _run(project, *args)
        assert done.stdout != FROM_CACHE, args


def test_only_a_check_printing_text_or_json_is_answered() -> None:
    from docgen.shell.verdicts import config_of

    assert config_of(["check"]) == Path("mkdocs.yml")
    assert config_of(["-f", "site/mkdocs.yml", "check", "--format", "json"]) == Path("site/mkdocs.yml")
    assert config_of(["--config=a.yml", "check", "--format=text"]) == Path("a.yml")
    for argv in (
        ["render"],
        ["check", "--format", "github"],
        ["check", "--base", "main"],
        ["check", "--format"],
        ["--version", "check"],
        [],
    ):
        assert config_of(argv) is None, argv


def _recorded_hashes(root: Path) -> dict[str, list[object]]:
    kept = json.loads((root.parent / "verdicts" / "hashes.json").read_text(encoding="utf-8"))
    assert isinstance(kept, dict)
    return kept


def test_a_file_written_again_with_its_size_and_times_put_back_checks_afresh(project: Path) -> None:
    """The recorded hashes are believed only for a file whose status is unchanged, and rewriting a file
    moves its change time whatever is done to its modification time."""
    time.sleep(2.1)  # the copy's files settle: a trusted run keeps the hashes of settled files only
    stored = _recorded(project)
    server = project / SERVER
    assert str(server) in _recorded_hashes(project), "the trusted run kept no hash of the server's source"
    assert _run(project).stdout == FROM_CACHE  # answered, with the kept hashes
    before = server.stat()
    _edit(project, SERVER, OLD_STATUS, OLD_STATUS.replace("404", "400"))  # same length
    os.utime(server, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = server.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    changed = _run(project)
    assert (changed.returncode, changed.stdout == FROM_CACHE) == (1, False), changed.stdout
    assert stored.read_text(encoding="utf-8").count(FROM_CACHE.strip()) == 1


def test_a_file_changed_just_before_the_trusted_run_is_hashed_again_later(project: Path) -> None:
    _recorded(project)
    kept = _recorded_hashes(project)
    assert str(project / SERVER) not in kept, "a file written less than two seconds before was kept"
    assert _run(project).stdout == FROM_CACHE  # its content still keys the verdict
