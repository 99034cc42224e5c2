"""`docgen check --base REF` where REF is hostile, in the attacker's terms: the real CLI on a committed copy
of the repository, the exit code, the message naming the ref, and nothing written anywhere (the project,
its .git, a folder the attack aims at)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from docgen.core.errors import ConfigError
from docgen.core.git_ref import bytes_at, verified_commit
from tests.conftest import REPO_ROOT
from tests.helpers import copy_project
from tests.test_untrusted import docgen, tree

CATALOG = "data/mcp-errors.yaml"


def git(root: Path, *args: str) -> str:
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    done = subprocess.run(["git", *identity, *args], cwd=root, check=True, capture_output=True, text=True)
    return done.stdout


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """A copy of the repository, committed on `main`."""
    root = copy_project(REPO_ROOT, tmp_path / "project")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    return root


def test_the_output_attack_works_on_plain_git_show(repository: Path, tmp_path: Path) -> None:
    """What docgen used to run: `git show --output=DIR:data/x.yaml` writes outside the repository."""
    (tmp_path / "aim:data").mkdir()
    git(repository, "show", f"--output={tmp_path / 'aim'}:{CATALOG}")
    assert (tmp_path / "aim:data" / "mcp-errors.yaml").exists()


ATTACKS = {
    "an option that makes git write a file": ("--output={aim}", "starts with '-', so git would read it"),
    "an empty ref (git would read the index)": ("", "--base is empty"),
    "a short option": ("-x", "--base '-x' starts with '-'"),
    "an option git rev-parse knows": ("--git-dir", "--base '--git-dir' starts with '-'"),
    "a ref naming no commit": ("no-such-branch", "--base 'no-such-branch' names no commit in this"),
    "a file, not a commit": (f"main:{CATALOG}", f"--base 'main:{CATALOG}' names no commit"),
    "an option after a space": ("main --output={aim}", "--base 'main --output="),
    "a line break and a workflow command": ("main\n::warning::pwned", "holds a control character"),
    "a carriage return": ("main\r##[error]pwned", "holds a control character"),
}


@pytest.mark.parametrize("attack", ATTACKS)
def test_a_hostile_base_is_a_usage_error_with_nothing_written(
    repository: Path, tmp_path: Path, attack: str
) -> None:
    ref, message = ATTACKS[attack]
    aim = tmp_path / "aim"
    (tmp_path / "aim:data").mkdir()  # where `git show --output=aim REF:data/...` would write
    before = tree(repository)
    done = docgen(repository, "check", "--format", "github", f"--base={ref.format(aim=aim)}")
    assert done.returncode == 2, done.stderr
    assert message.format(aim=aim) in done.stderr
    assert "hint: pass a branch, tag or commit that exists here" in done.stderr
    assert "the docs match the code" not in done.stdout
    assert "Traceback" not in done.stderr
    assert not aim.exists() and not any((tmp_path / "aim:data").iterdir())
    assert tree(repository) == before
    for line in (done.stdout + done.stderr).splitlines():
        assert not line.lstrip().startswith("::") and "##[" not in line


def test_a_real_base_still_compares(repository: Path) -> None:
    assert docgen(repository, "check", "--base", "main").returncode == 0
    commit = verified_commit(repository, "main")
    assert commit.id == git(repository, "rev-parse", "main").strip() and commit.prefix == ""
    assert bytes_at(repository, commit, CATALOG) == (repository / CATALOG).read_bytes()
    assert bytes_at(repository, commit, "data/no-such-file.yaml") is None
    assert bytes_at(repository, commit, "data") is None  # a folder, not a file
    assert bytes_at(repository, commit, "data/a blob missing") is None


def test_a_project_in_a_folder_of_the_repository_reads_its_own_catalog(tmp_path: Path) -> None:
    top = tmp_path / "repository"
    root = copy_project(REPO_ROOT, top / "site")
    git(top, "init", "-q", "-b", "main")
    git(top, "add", "-A")
    git(top, "commit", "-qm", "base")
    commit = verified_commit(root, "main")
    assert commit.prefix == "site/"
    assert bytes_at(root, commit, CATALOG) == (root / CATALOG).read_bytes()


def test_outside_a_repository_the_message_says_what_git_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_project(REPO_ROOT, tmp_path / "project")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    done = docgen(root, "check", "--base", "main")
    assert done.returncode == 2
    assert "--base 'main' names no commit in this repository (git: fatal: not a git repository" in done.stderr


def test_a_ref_is_refused_before_git_runs(tmp_path: Path) -> None:
    """The shape checks come first: even where there is no repository, git is never asked."""
    refused = {
        "": "--base is empty",
        "-": "starts with '-'",
        "--output=x": "starts with '-'",
        "main\x00": "holds a control character",
        "main\u2028": "holds a control character or a line break",
    }
    for ref, message in refused.items():
        with pytest.raises(ConfigError) as caught:
            verified_commit(tmp_path / "no-such-folder", ref)  # git could not even start there
        assert message in caught.value.message
