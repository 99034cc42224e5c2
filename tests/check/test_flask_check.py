"""`docgen check` on the Flask fixture, run as a user runs it (a subprocess on a copy): the committed docs
match; a changed status or an added error fails it; a comment or a blank line does not."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.extract.test_flask_app import lending_project

LOANS = Path("lending") / "loans.py"


def check(root: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "docgen.shell.cli", "--config", str(root / "mkdocs.yml"), "check"]
    return subprocess.run(command, capture_output=True, text=True, check=False, cwd=root)


def edit(root: Path, old: str, new: str) -> int:
    """Replace `old` by `new` in the loans module; the 1-based line `old` starts on."""
    path = root / LOANS
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    return text[: text.index(old)].count("\n") + 1


def test_the_committed_fixture_is_clean(tmp_path: Path) -> None:
    done = check(lending_project(tmp_path))
    assert (done.returncode, done.stdout) == (0, "docgen check: the docs match the code.\n")


def test_a_changed_status_fails_at_its_line(tmp_path: Path) -> None:
    root = lending_project(tmp_path)
    line = edit(root, '"This book is not on loan"}, 409', '"This book is not on loan"}, 410')
    done = check(root)
    assert done.returncode == 1
    assert f"lending/loans.py:{line}: route-changed: 409-this-book-is-not-on-loan:" in done.stdout


def test_an_added_error_fails_at_its_route(tmp_path: Path) -> None:
    root = lending_project(tmp_path)
    route = edit(root, '@desk.post("/returns/<int:book_id>")', '@desk.post("/returns/<int:book_id>")')
    edit(
        root,
        "    del ON_LOAN[book_id]\n",
        '    if book_id == 0:\n        abort(422, "Book 0 is the catalogue itself")\n'
        "    del ON_LOAN[book_id]\n",
    )
    edit(root, "from flask import Blueprint,", "from flask import Blueprint, abort,")
    done = check(root)
    assert done.returncode == 1
    assert f"lending/loans.py:{route}: route-error-added: 422-book-0-is-the-catalogue-itself:" in done.stdout


def test_a_comment_and_a_blank_line_change_nothing(tmp_path: Path) -> None:
    root = lending_project(tmp_path)
    edit(
        root,
        "    del ON_LOAN[book_id]\n",
        "    # The book is back on the shelf.\n\n    del ON_LOAN[book_id]\n",
    )
    done = check(root)
    assert (done.returncode, done.stdout) == (0, "docgen check: the docs match the code.\n")


def test_a_blueprint_registered_by_an_expression_docgen_cannot_follow_is_a_located_finding(
    tmp_path: Path,
) -> None:
    """A plugin hook registering a blueprint it is handed: its routes cannot be listed, and check says so
    at the registration rather than pass in silence."""
    root = lending_project(tmp_path)
    app = root / "lending" / "app.py"
    text = app.read_text(encoding="utf-8")
    hook = "def install_plugin(plugin):\n    app.register_blueprint(plugin.blueprint, url_prefix='/plugin')\n"
    app.write_text(f"{text}\n\n{hook}", encoding="utf-8")
    line = len(app.read_text(encoding="utf-8").splitlines())
    done = check(root)
    assert done.returncode == 1
    assert (
        f"lending/app.py:{line}: source-unfollowed: register_blueprint(plugin.blueprint): "
        "register_blueprint(plugin.blueprint) cannot be followed: the blueprint, `plugin.blueprint`, is not"
    ) in done.stdout
