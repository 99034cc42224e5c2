"""A framework configured (or detected) where its package is not installed: a located configuration error
naming the package and the command that installs it, never a catalog that silently lacks the statuses and
messages docgen reads from the installed framework.

Each case runs `docgen extract` on a copy of a fixture with an interpreter that really cannot import the
framework: Python started without its site-packages (`-S`), given a folder that links every installed
distribution but the framework's."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "servers"

# fixture, the top-level packages hidden, what the error names (package and where the source imports it)
CASES = [
    ("fastapi_app", ["fastapi", "starlette"], "fastapi (imported at shop/deps.py:5)", "pip install fastapi"),
    ("starlette_app", ["starlette"], "starlette (imported at store/admin.py:7)", "pip install starlette"),
    (
        "flask_app",
        ["flask", "werkzeug"],
        "flask (imported at lending/app.py:3)",
        "pip install flask werkzeug",
    ),
    ("aiohttp_app", ["aiohttp"], "aiohttp (imported at library/app.py:4)", "pip install aiohttp"),
    ("litestar_app", ["litestar"], "litestar (imported at bookshelf/app.py:6)", "pip install litestar"),
    (
        "drf_app",
        ["rest_framework", "djangorestframework"],
        "rest_framework",
        "pip install djangorestframework",
    ),
]


def environment_without(hidden: list[str], folder: Path) -> Path:
    """A folder linking every entry of the installed site-packages except the hidden packages' own."""
    folder.mkdir()
    site = Path(sysconfig.get_paths()["purelib"])
    for entry in site.iterdir():
        name = entry.name.split("-")[0].removesuffix(".py")
        if name not in hidden:
            (folder / entry.name).symlink_to(entry)
    return folder


@pytest.mark.parametrize(("fixture", "hidden", "named", "install"), CASES)
def test_a_framework_that_is_not_installed_is_a_located_error(
    tmp_path: Path, fixture: str, hidden: list[str], named: str, install: str
) -> None:
    libs = environment_without(hidden, tmp_path / "libs")
    root = tmp_path / fixture
    shutil.copytree(FIXTURES / fixture, root, ignore=shutil.ignore_patterns("__pycache__", "site"))
    before = {path: path.read_bytes() for path in (root / "data").iterdir()}
    done = subprocess.run(
        [sys.executable, "-S", "-m", "docgen", "extract"],
        cwd=root,
        env={"PYTHONPATH": f"{libs}:{REPO}", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    error, hint = done.stderr.strip().splitlines()[-2:]
    config = (root / "mkdocs.yml").read_text(encoding="utf-8").splitlines()
    line = next(n for n, text in enumerate(config, 1) if text.strip().startswith("framework:"))
    assert error.startswith(f"docgen extract: error: mkdocs.yml:{line}: 'catalogs.")
    assert f"which is missing where docgen runs: {named}" in error
    assert hint.strip().startswith(f"hint: {install} ")
    assert "Traceback" not in done.stderr
    assert {path: path.read_bytes() for path in (root / "data").iterdir()} == before  # nothing written


def test_a_framework_without_a_package_list_is_read_as_before() -> None:
    """A framework from a plugin need not name its packages (`installed_modules` is optional)."""
    from docgen.frameworks.fastapi.framework import FastAPIFramework

    assert FastAPIFramework.installed_modules == {"fastapi": "fastapi", "starlette": "starlette"}


def test_an_errors_catalog_that_names_the_framework_is_refused_the_same_way(tmp_path: Path) -> None:
    libs = environment_without(["fastapi", "starlette"], tmp_path / "libs")
    root = tmp_path / "package_app"
    shutil.copytree(FIXTURES / "package_app", root, ignore=shutil.ignore_patterns("__pycache__", "site"))
    before = sorted(path.name for path in (root / "data").iterdir())
    done = subprocess.run(
        [sys.executable, "-S", "-m", "docgen", "extract"],
        cwd=root,
        env={"PYTHONPATH": f"{libs}:{REPO}", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    config = (root / "mkdocs.yml").read_text(encoding="utf-8").splitlines()
    line = next(n for n, text in enumerate(config, 1) if text.strip().startswith("framework: fastapi"))
    assert (
        f"mkdocs.yml:{line}: 'catalogs.market-web-errors': fastapi is read from the installed" in done.stderr
    )
    assert "pip install fastapi" in done.stderr
    assert sorted(path.name for path in (root / "data").iterdir()) == before  # no catalog written
