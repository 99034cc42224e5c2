"""The built wheel, installed apart from this repository, takes an empty folder holding a small server through
`docgen init`, extract, render, a strict build and check: the templates and schemas come from the installed
package, not from a checkout."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from tests.shell.test_init import ERRORS, server

REPO = Path(__file__).resolve().parents[1]


def _wheel(tmp_path: Path) -> Path:
    """The wheel of a copy of the sources (a build writes beside what it builds)."""
    source = tmp_path / "source"
    source.mkdir()
    shutil.copy2(REPO / "pyproject.toml", source)
    shutil.copy2(REPO / "README.md", source)
    shutil.copytree(REPO / "docgen", source / "docgen", ignore=shutil.ignore_patterns("__pycache__"))
    command = [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "-q",
        "--no-deps",
        "--no-build-isolation",
        "-w",
        "dist",
        ".",
    ]
    subprocess.run(command, cwd=source, check=True, capture_output=True)
    (wheel,) = (source / "dist").glob("docgen-*.whl")
    return wheel


def test_the_installed_wheel_documents_a_server_in_an_empty_folder(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    target = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", target, _wheel(tmp_path)],
        check=True,
        capture_output=True,
    )
    # The dependencies come from this environment's site-packages, read as a plain folder: its .pth files
    # (the editable install of this checkout among them) are not run, so the repository is not importable.
    env = {
        **os.environ,
        "PYTHONPATH": sysconfig.get_paths()["purelib"],
        "NO_MKDOCS_2_WARNING": "1",
        "PYTHONSAFEPATH": "1",
    }
    root = server(tmp_path / "shop")

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([python, *argv], cwd=root, env=env, capture_output=True, text=True, check=False)
        assert done.returncode == 0, (argv, done.stdout, done.stderr)
        return done

    where = run("-c", "import docgen; print(docgen.__file__)").stdout
    assert where.startswith(target), where
    docgen = "import sys; from docgen.shell.cli import run; sys.argv[0] = 'docgen'; run()"
    for argv in (["init"], ["extract"], ["render"]):
        run("-c", docgen, *argv)
    run("-m", "mkdocs", "build", "--strict")
    assert "the docs match the code" in run("-c", docgen, "check").stdout
    built = (root / "site" / "shopapi-routes" / "index.html").read_text(encoding="utf-8")
    for status, detail in ERRORS:
        assert f"<code>{status}</code>" in built and detail.split("{")[0] in built
    assert not (root / "data" / "schema").exists() and not (root / "templates").exists()
