"""A machine without Node: probe says why the TypeScript client is left out; the Python client still runs."""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from generator.core.client_calls import ClientCall
from generator.probe.clients import node_problem, observe_clients, runners
from generator.probe.servers import uvicorn_server
from tests.conftest import REPO_ROOT

APP = "backend.app.mcp_server:app"


@pytest.fixture
def no_node(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A PATH that holds nothing at all, so no `node`."""
    empty = tmp_path / "empty-path"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))


@pytest.mark.usefixtures("no_node")
def test_without_node_the_reason_says_what_to_install() -> None:
    problem = node_problem()
    assert problem == "node is not on the PATH (install Node.js 20+ with npm, then `make node-packages`)"
    found, reason = runners()
    assert [runner.name for runner in found] == ["python"] and reason == problem


@pytest.mark.server
@pytest.mark.usefixtures("no_node")
def test_without_node_the_python_half_still_runs(tmp_path: Path) -> None:
    def servers(name: str) -> AbstractContextManager[str]:
        return uvicorn_server(APP, REPO_ROOT, tmp_path / f"{name}.log", "/mcp")

    run = observe_clients({"ping": ClientCall({"action": "ping"})}, servers, own_servers=True)
    assert run.skipped == [f"typescript: {node_problem()}"]
    assert sorted(run.outcomes["ping"]) == ["python-2026-07-28", "python-legacy"]
    assert {cell["outcome"] for cell in run.outcomes["ping"].values()} == {"result"}
    assert "typescript" not in run.clients
