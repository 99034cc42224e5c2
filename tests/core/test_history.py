"""An errors catalog's changelog read from a real git repository built here, commit by commit."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from docgen.core import git_history
from docgen.core.changes import ADDITIVE, BREAKING, EDITORIAL, Change, changes, entry_history
from docgen.core.errors import InputError
from docgen.core.git_history import file_versions

CATALOG = "data/shop errors.yaml"


def _git(root: Path, *args: str, date: str = "2026-01-01T12:00:00+00:00") -> str:
    environment = {
        "GIT_AUTHOR_DATE": date,
        "GIT_COMMITTER_DATE": date,
        "HOME": str(root),
        "PATH": "/usr/bin:/bin",
    }
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=root,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def _commit(root: Path, text: str | None, date: str) -> str:
    path = root / CATALOG
    if text is None:
        path.unlink()
    else:
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "--allow-empty", "-m", "step", date=date)
    return _git(root, "rev-parse", "HEAD")


def _catalog(*errors: tuple[str, int, int, str]) -> str:
    lines = ["catalog: shop", "kind: errors", "entries:"]
    for entry, code, status, message in errors:
        lines += [f"- id: {entry}", f"  code: {code}", f"  status: {status}", f"  message: '{message}'"]
    return "\n".join(lines) + "\n"


@pytest.fixture
def repository(tmp_path: Path) -> tuple[Path, list[str]]:
    _git(tmp_path, "init", "-q", "-b", "main")
    commits = [
        _commit(
            tmp_path, _catalog(("not-found", -32601, 404, "No such method")), "2026-01-02T10:00:00+00:00"
        ),
        _commit(
            tmp_path,
            _catalog(("not-found", -32601, 404, "No such method"), ("too-big", -32600, 413, "Too big")),
            "2026-02-03T10:00:00+00:00",
        ),
        _commit(tmp_path, "entries: [unclosed\n", "2026-02-04T10:00:00+00:00"),
        _commit(
            tmp_path,
            _catalog(("not-found", -32601, 400, "Method not found"), ("too-big", -32600, 413, "Too big")),
            "2026-03-05T10:00:00+00:00",
        ),
        _commit(
            tmp_path, _catalog(("not-found", -32601, 400, "Method not found")), "2026-04-06T10:00:00+00:00"
        ),
    ]
    (tmp_path / "README").write_text("unrelated\n")
    _git(tmp_path, "add", "README")
    _git(tmp_path, "commit", "-q", "-m", "not the catalog", date="2026-05-01T10:00:00+00:00")
    return tmp_path, commits


def test_every_version_of_the_catalog_oldest_first(repository: tuple[Path, list[str]]) -> None:
    root, commits = repository
    versions = file_versions(root, CATALOG)
    assert versions is not None
    assert [v.commit for v in versions] == commits
    assert [v.date for v in versions] == [
        "2026-01-02",
        "2026-02-03",
        "2026-02-04",
        "2026-03-05",
        "2026-04-06",
    ]
    assert versions[2].data == b"entries: [unclosed\n"


def test_each_error_gets_its_changes_newest_first_with_commit_and_date(
    repository: tuple[Path, list[str]],
) -> None:
    root, commits = repository
    versions = file_versions(root, CATALOG)
    assert versions is not None
    history = entry_history(versions, CATALOG)
    found = {
        entry: [
            (e.change.what, e.change.before, e.change.after, e.change.effect, e.commit, e.date)
            for e in events
        ]
        for entry, events in history.events.items()
    }
    assert found == {
        "not-found": [
            ("status", 404, 400, BREAKING, commits[3], "2026-03-05"),
            ("message", "No such method", "Method not found", EDITORIAL, commits[3], "2026-03-05"),
            ("added", None, None, ADDITIVE, commits[0], "2026-01-02"),
        ],
        "too-big": [
            ("removed", None, None, BREAKING, commits[4], "2026-04-06"),
            ("added", None, None, ADDITIVE, commits[1], "2026-02-03"),
        ],
    }
    assert [commit for commit, _ in history.unreadable] == [commits[2]]
    assert "invalid YAML" in history.unreadable[0][1]


def test_a_deleted_catalog_removes_every_error_and_a_restored_one_adds_them_again(tmp_path: Path) -> None:
    _git(tmp_path, "init", "-q", "-b", "main")
    _commit(tmp_path, _catalog(("gone", 1, 500, "Boom")), "2026-01-01T00:00:00+00:00")
    deleted = _commit(tmp_path, None, "2026-01-02T00:00:00+00:00")
    restored = _commit(tmp_path, _catalog(("gone", 1, 500, "Boom")), "2026-01-03T00:00:00+00:00")
    versions = file_versions(tmp_path, CATALOG)
    assert versions is not None and versions[1].data is None
    events = entry_history(versions, CATALOG).events["gone"]
    assert [(e.change.what, e.commit) for e in events][:2] == [("added", restored), ("removed", deleted)]


def test_outside_a_repository_or_before_the_first_commit_there_is_no_history(tmp_path: Path) -> None:
    assert file_versions(tmp_path, CATALOG) is None
    _git(tmp_path, "init", "-q")
    assert file_versions(tmp_path, CATALOG) is None


def test_a_history_over_the_byte_limit_is_a_located_error(
    repository: tuple[Path, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(git_history, "HISTORY_MAX_BYTES", 100)
    with pytest.raises(InputError) as caught:
        file_versions(repository[0], CATALOG)
    assert caught.value.file == CATALOG
    assert "5 committed versions hold" in caught.value.message


def test_a_path_that_looks_like_a_pathspec_or_option_is_read_literally(tmp_path: Path) -> None:
    _git(tmp_path, "init", "-q", "-b", "main")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "a.yaml").write_text("entries: []\n")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-q", "-m", "one")
    assert file_versions(tmp_path, "data/*.yaml") == []
    assert file_versions(tmp_path, "--output=x") == []
    assert not (tmp_path / "x").exists()


def test_changes_between_two_versions_in_a_stable_order() -> None:
    old = {"a": {"code": 1, "status": 400, "message": "A"}, "b": {"code": 2, "status": 404, "message": "B"}}
    new = {"a": {"code": 3, "status": 409, "message": "A!"}, "c": {"code": 4, "status": 500, "message": "C"}}
    assert list(changes(old, new)) == [
        Change("b", "removed"),
        Change("a", "code", 1, 3),
        Change("a", "status", 400, 409),
        Change("a", "message", "A", "A!"),
        Change("c", "added"),
    ]
    assert list(changes(new, new)) == []
