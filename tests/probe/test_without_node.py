"""A machine without Node: the TypeScript client cannot run, so probe stops naming what is missing, unless the
user leaves that client out by name; the Python client then still runs."""

from __future__ import annotations

import shutil
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from docgen.core.errors import ConfigError
from docgen.examples.client_calls import ClientCall
from docgen.probe.clients import node_problem, observe_clients, runners
from docgen.probe.servers import uvicorn_server
from tests.conftest import REPO_ROOT

APP = "backend.app.mcp_server:app"


@pytest.fixture
def no_node(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A PATH that holds nothing at all, so no `node`."""
    empty = tmp_path / "empty-path"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))


@pytest.mark.usefixtures("no_node")
def test_without_node_the_typescript_client_stops_probe_naming_both_ways_out() -> None:
    assert node_problem() == "node is not on the PATH"
    with pytest.raises(ConfigError) as raised:
        runners()
    said = str(raised.value)
    assert said.startswith("the official typescript client cannot run here: node is not on the PATH;")
    assert "nothing was run or written" in said
    assert "install Node.js 20+ with npm, then run `make node-packages`" in said
    assert "npm ci in clients/, exactly as clients/package-lock.json records them" in said
    assert "or leave it out with `--skip-client typescript`" in said
    assert raised.value.exit_code == 2


@pytest.mark.usefixtures("no_node")
def test_without_node_skipping_typescript_by_name_leaves_the_python_runner() -> None:
    assert [runner.name for runner in runners(["typescript"])] == ["python"]
    assert runners(["typescript", "python"]) == []


def test_without_the_node_packages_the_reason_names_them(tmp_path: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not on the PATH here, so the packages are never looked at")
    shutil.copytree(
        REPO_ROOT / "clients", tmp_path / "clients", ignore=shutil.ignore_patterns("node_modules")
    )
    problem = node_problem(tmp_path)
    assert problem == (
        "the Node packages are not installed (clients/node_modules/@modelcontextprotocol/client is absent)"
    )
    with pytest.raises(ConfigError, match="--skip-client typescript"):
        runners(root=tmp_path)
    # The 2.x client alone is not enough: legacy sessions need the 1.x SDK.
    (tmp_path / "clients/node_modules/@modelcontextprotocol/client").mkdir(parents=True)
    assert node_problem(tmp_path) == (
        "the Node packages are not installed (clients/node_modules/@modelcontextprotocol/sdk is absent)"
    )


@pytest.mark.server
@pytest.mark.usefixtures("no_node")
def test_without_node_the_python_half_still_runs(tmp_path: Path) -> None:
    def servers(name: str) -> AbstractContextManager[str]:
        return uvicorn_server(APP, REPO_ROOT, tmp_path / f"{name}.log", "/mcp")

    found = runners(["typescript"])
    calls = {"tools": ClientCall({"action": "list_tools"})}
    run = observe_clients(calls, servers, own_servers=True, found=found)
    assert run.skipped == []
    assert sorted(run.outcomes["tools"]) == ["python-2026-07-28", "python-legacy"]
    assert {cell["outcome"] for cell in run.outcomes["tools"].values()} == {"result"}
    assert not any(name.startswith("typescript") for name in run.clients)
