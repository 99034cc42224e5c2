"""The built wheel, installed apart from this repository, takes an empty folder holding a small server of each
framework docgen reads through `docgen init`, extract, render, a strict build and check: the templates and
schemas come from the installed package, not from a checkout."""

from __future__ import annotations

import html
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.framework_servers import SERVERS
from tests.wheel_build import build_wheel

DOCGEN = "import sys; from docgen.shell.cli import run; sys.argv[0] = 'docgen'; run()"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """(the Python of a fresh virtual environment holding only the wheel, the folder it was installed in)."""
    folder = tmp_path_factory.mktemp("wheel")
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    target = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", target, build_wheel(folder)],
        check=True,
        capture_output=True,
    )
    return python, target


@pytest.mark.parametrize("name", sorted(SERVERS))
def test_the_installed_wheel_documents_a_server_in_an_empty_folder(
    name: str, installed: tuple[Path, str], tmp_path: Path
) -> None:
    python, target = installed
    # The dependencies come from this environment's site-packages, read as a plain folder: its .pth files
    # (the editable install of this checkout among them) are not run, so the repository is not importable.
    env = {
        **os.environ,
        "PYTHONPATH": sysconfig.get_paths()["purelib"],
        "NO_MKDOCS_2_WARNING": "1",
        "PYTHONSAFEPATH": "1",
    }
    server = SERVERS[name]
    root = server.write(tmp_path / "shop")

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([python, *argv], cwd=root, env=env, capture_output=True, text=True, check=False)
        assert done.returncode == 0, (argv, done.stdout, done.stderr)
        return done

    where = run("-c", "import docgen; print(docgen.__file__)").stdout
    assert where.startswith(target), where
    for argv in (["init"], ["extract"], ["render"]):
        run("-c", DOCGEN, *argv)
    assert f"framework: {server.framework}\n" in (root / "mkdocs.yml").read_text(encoding="utf-8")
    run("-m", "mkdocs", "build", "--strict")
    assert "the docs match the code" in run("-c", DOCGEN, "check").stdout
    built = html.unescape((root / "site" / "shop-routes" / "index.html").read_text(encoding="utf-8"))
    for status, message in server.errors:
        assert f"<code>{status}</code></td>\n<td>{message}</td>" in built, (status, message)
    assert not (root / "data" / "schema").exists() and not (root / "templates").exists()
