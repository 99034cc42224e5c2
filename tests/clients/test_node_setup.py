"""The Node half's set-up: exact pins, a lock naming only the npm registry, a clear message without npm."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.clients.harness import CLIENTS_DIR, NODE_STAMP, REPO_ROOT, skip_or_fail

REGISTRY = "https://registry.npmjs.org/"
MANIFEST = json.loads((CLIENTS_DIR / "package.json").read_text(encoding="utf-8"))
LOCK = json.loads((CLIENTS_DIR / "package-lock.json").read_text(encoding="utf-8"))
DIRECT = {**MANIFEST["dependencies"], **MANIFEST.get("optionalDependencies", {})}


def test_direct_dependencies_are_pinned_exactly_and_locked_at_that_version() -> None:
    locked = {name: LOCK["packages"][f"node_modules/{name}"]["version"] for name in DIRECT}
    assert locked == DIRECT
    assert LOCK["packages"][""]["dependencies"] == MANIFEST["dependencies"]


def test_every_locked_package_comes_from_the_npm_registry_with_a_checksum() -> None:
    packages = {path: fields for path, fields in LOCK["packages"].items() if path}
    assert packages, "the lock lists no packages"
    foreign = {path: fields["resolved"] for path, fields in packages.items() if "resolved" in fields}
    assert {path: url for path, url in foreign.items() if not url.startswith(REGISTRY)} == {}
    assert [
        path for path, fields in packages.items() if not fields.get("integrity", "").startswith("sha512-")
    ] == []
    assert [
        path for path, fields in packages.items() if fields.get("link") or "hasInstallScript" in fields
    ] == []


@pytest.mark.parametrize("sdk", ["@modelcontextprotocol/client", "@modelcontextprotocol/sdk"])
def test_the_runner_uses_the_pinned_typescript_sdks(sdk: str) -> None:
    if not NODE_STAMP.is_file():
        skip_or_fail("the Node packages are not installed (run `make test`)")
    installed = CLIENTS_DIR / "node_modules" / sdk / "package.json"
    assert json.loads(installed.read_text(encoding="utf-8"))["version"] == DIRECT[sdk]


def test_make_without_npm_says_so_in_one_line_and_goes_on(tmp_path: Path) -> None:
    make = shutil.which("make")
    if make is None:
        pytest.skip("make is not installed")
    done = subprocess.run(
        [make, "-s", "node-packages"],
        cwd=REPO_ROOT,
        env={"PATH": str(tmp_path)},  # an empty folder: no npm (and no node) on the PATH
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0
    assert done.stdout.splitlines() == [
        "make: npm not found: skipping the TypeScript client and conformance tests "
        "(install Node.js 20+ with npm to run them)"
    ]
