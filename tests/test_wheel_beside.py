"""The wheel installs beside a server's own dependencies and leaves them as they were: into an environment
holding an older FastAPI and Starlette, with every extra, and into one holding Django and Django REST
framework, with none. pip resolves docgen's dependencies from the package registry (its cache under
~/.cache/pip), so each test takes about half a minute.

Each environment then documents its own server with what it holds: the installed framework is the one
docgen reads. Without the extras, the commands that need one say how to install it."""

from __future__ import annotations

import html
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.framework_servers import SERVERS
from tests.wheel_build import build_wheel


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_wheel(tmp_path_factory.mktemp("wheel"))


class Venv:
    """A fresh virtual environment with pip, outside this repository."""

    def __init__(self, folder: Path) -> None:
        subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
        self.bin = folder / "bin"
        self.env = {
            **{k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")},
            "NO_MKDOCS_2_WARNING": "1",
            "PYTHONSAFEPATH": "1",
        }

    def pip(self, *argv: str) -> str:
        done = self.run(Path.cwd(), "python", "-m", "pip", "--disable-pip-version-check", *argv)
        assert done.returncode == 0, (argv, done.stdout, done.stderr)
        return done.stdout

    def frozen(self) -> dict[str, str]:
        """Installed distribution (lower case) -> version."""
        lines = self.pip("list", "--format=freeze").splitlines()
        return {name.lower(): version for name, _, version in (line.partition("==") for line in lines)}

    def run(self, root: Path, command: str, *argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.bin / command), *argv],
            cwd=root,
            env=self.env,
            capture_output=True,
            text=True,
            check=False,
        )


def _installs_beside(venv: Venv, server: list[str], docgen: str) -> dict[str, str]:
    """Install the server's dependencies, then docgen; assert that none of the server's changed."""
    venv.pip("install", "-q", *server)
    before = venv.frozen()
    venv.pip("install", "-q", docgen)
    after = venv.frozen()
    assert "docgen" in after
    changed = {
        name: (version, after.get(name)) for name, version in before.items() if after.get(name) != version
    }
    assert not changed, changed
    return after


def test_beside_an_older_fastapi_and_starlette_with_every_extra(wheel: Path, tmp_path: Path) -> None:
    venv = Venv(tmp_path / "venv")
    server = ["fastapi==0.142.4", "starlette==0.52.1", "uvicorn==0.30.6", "httpx==0.27.2"]
    after = _installs_beside(venv, server, f"docgen[all] @ {wheel.as_uri()}")
    assert (after["fastapi"], after["starlette"]) == ("0.142.4", "0.52.1") and "mkdocs-material" in after
    root = SERVERS["fastapi"].write(tmp_path / "shop")
    for command in (
        ["docgen", "init"],
        ["docgen", "extract"],
        ["docgen", "render"],
        ["mkdocs", "build", "--strict"],
    ):
        done = venv.run(root, *command)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
        assert "not installed" not in done.stderr
    assert venv.run(root, "docgen", "check").returncode == 0
    built = html.unescape((root / "site" / "shop-routes" / "index.html").read_text(encoding="utf-8"))
    for status, message in SERVERS["fastapi"].errors:
        assert f"<code>{status}</code></td>\n<td>{message}</td>" in built, (status, message)


def test_beside_django_and_rest_framework_without_extras(wheel: Path, tmp_path: Path) -> None:
    venv = Venv(tmp_path / "venv")
    after = _installs_beside(venv, ["django==4.2.*", "djangorestframework==3.15.*"], str(wheel))
    assert after["django"].startswith("4.2.") and after["djangorestframework"].startswith("3.15.")
    assert not {"httpx", "uvicorn", "mkdocs-material"} & set(after)
    root = SERVERS["drf"].write(tmp_path / "shop")
    init = venv.run(root, "docgen", "init")
    assert init.returncode == 0, init.stderr
    # Material is what init writes into a new mkdocs.yml, and is not installed: init says how to get it.
    note = "mkdocs.yml:3: note: the theme is Material, which is not installed here"
    assert note in init.stderr and "pip install 'docgen[material]'" in init.stderr
    for command in ("extract", "render", "check"):
        done = venv.run(root, "docgen", command)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
    assert note in done.stderr  # check says it too, before the site build would stop on the theme
    catalog = (root / "data" / "shop-routes.yaml").read_text(encoding="utf-8")
    assert all(message in catalog for _, message in SERVERS["drf"].errors)
    probe = venv.run(root, "docgen", "probe", "--url", "http://127.0.0.1:9/")
    assert probe.returncode == 2, probe.stderr
    assert probe.stderr.startswith(
        "docgen probe: error: docgen probe needs the probe extra: pip install 'docgen[probe]' "
        "(httpx, uvicorn not installed here)"
    )
    assert "Traceback" not in probe.stderr
