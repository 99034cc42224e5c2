"""The pre-commit hook this repository offers (`.pre-commit-hooks.yaml`), run as an adopter's pre-commit runs
it: pre-commit installs docgen from this checkout into an environment of its own (resolving docgen's
dependencies from the package registry, about fifteen seconds) and runs `docgen check` in a project's git
repository, which passes while the docs match the code and fails once a message in the source changes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
FIXTURE = REPO / "tests" / "fixtures" / "servers" / "method"


def _run(root: Path, env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True, check=False)


def test_the_hook_passes_on_matching_docs_and_fails_on_a_changed_message(tmp_path: Path) -> None:
    root = tmp_path / "shop"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns("__pycache__", ".gitignore"))
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit"),
        "NO_MKDOCS_2_WARNING": "1",
        **{
            f"GIT_{who}_{what}": value
            for who in ("AUTHOR", "COMMITTER")
            for what, value in (("NAME", "Test"), ("EMAIL", "test@example.invalid"))
        },
    }
    for argv in ([str(BIN / "docgen"), "extract"], [str(BIN / "docgen"), "render"]):
        assert _run(root, env, *argv).returncode == 0
    for argv in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-qm", "docs"]):
        done = _run(root, env, *argv)
        assert done.returncode == 0, done.stderr
    hook = [str(BIN / "pre-commit"), "try-repo", str(REPO), "docgen-check", "--all-files"]
    passed = _run(root, env, *hook)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "docgen check (docs match the code)" in passed.stdout and "Passed" in passed.stdout
    handlers = root / "shop" / "handlers.py"
    handlers.write_text(handlers.read_text(encoding="utf-8").replace("Sold out", "Out of stock"), "utf-8")
    assert _run(root, env, "git", "add", "-A").returncode == 0
    failed = _run(root, env, *hook)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "Failed" in failed.stdout and "Out of stock" in failed.stdout
