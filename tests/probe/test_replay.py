"""docgen probe: every row reproduced against the real server, a changed server named, usage errors located.

The server runs under uvicorn on loopback (the same fixture code as tests/backend), in process through its
ASGI app, or, for the changed server, from a copy of backend/ in a process of its own, so that the copy runs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from docgen.shell.cli import main
from tests.backend.conftest import RunningServer, run_server, write_docs
from tests.clients.harness import node_problem, skip_or_fail
from tests.helpers import copy_project

EVIDENCE = "data/mcp-errors.evidence.yaml"
SERVER = "backend/app/mcp_server.py"
APP = "backend.app.mcp_server:app"


@pytest.fixture
def project(repo_root: Path, tmp_path: Path) -> Path:
    return copy_project(repo_root, tmp_path / "project")


@pytest.fixture
def live_server(repo_root: Path, tmp_path: Path) -> Iterator[RunningServer]:
    """A server of this test's own, so the rate-limit example finds the whole budget unspent."""
    with run_server(repo_root, write_docs(tmp_path / "served"), tmp_path / "uvicorn.log") as running:
        yield running


def evidence(root: Path) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((root / EVIDENCE).read_text(encoding="utf-8"))
    return data


def committed_date(repo_root: Path) -> str:
    return str(evidence(repo_root)["probed"])


def replayed(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The records without the official clients' cells: what the HTTP replay alone writes."""
    return [{key: value for key, value in record.items() if key != "clients"} for record in data["entries"]]


@pytest.mark.server
def test_probe_over_http_reproduces_every_row(
    repo_root: Path, project: Path, live_server: RunningServer, capsys: pytest.CaptureFixture[str]
) -> None:
    problem = node_problem()
    if problem is not None:  # every client runs here; without Node probe stops, as test_without_node shows
        skip_or_fail(problem)
    argv = ["-f", str(project / "mkdocs.yml"), "probe", "--url", live_server.url]
    assert main([*argv, "--date", committed_date(repo_root)]) == 0
    said = capsys.readouterr().err
    written, committed = evidence(project), evidence(repo_root)
    assert written["target"] == f"url {live_server.url}"
    untriggerable = [r["id"] for r in written["entries"] if "untriggerable" in r]
    assert untriggerable == ["internal-error"]
    assert all(r["reproduced"] for r in written["entries"] if "untriggerable" not in r)
    assert len(written["entries"]) == 11
    assert said.count(": reproduced (") == 10
    # Over real HTTP the server answers byte for byte as it did in process when the evidence was committed.
    assert replayed(written) == replayed(committed)
    assert written["source"] == committed["source"]
    # The clients ran against the same server first, and surfaced what they did in process, except for the
    # example that needs a fresh rate-limit budget, which they leave out against --url (and say so).
    assert "skipped rate-limited: not run by the clients against --url" in said
    cells = {r["id"]: r.get("clients") for r in written["entries"] if "untriggerable" not in r}
    expected = {r["id"]: r.get("clients") for r in committed["entries"] if "untriggerable" not in r}
    assert cells == {**expected, "rate-limited": None}
    # check says which row lacks the clients, and the pages that showed them are stale.
    capsys.readouterr()
    assert main(["-f", str(project / "mkdocs.yml"), "check", "--format", "json"]) == 1
    findings = {(f["kind"], f["subject"]) for f in json.loads(capsys.readouterr().out)["findings"]}
    assert findings == {
        ("evidence-missing", "rate-limited"),
        ("page-stale", "error-examples"),
        ("page-stale", "client-differences"),
    }


def test_probe_in_process_is_fresh_each_run_and_matches_the_committed_evidence(
    repo_root: Path, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["-f", str(project / "mkdocs.yml"), "probe", "--app", APP, "--date", committed_date(repo_root)]
    argv.append("--no-clients")  # tests/clients runs probe with the clients
    assert main(argv) == 0
    first = (project / EVIDENCE).read_bytes()
    # A second run within the rate-limit window: a fresh app, so an empty limiter, so the same evidence.
    assert main(argv) == 0
    assert (project / EVIDENCE).read_bytes() == first
    assert replayed(evidence(project)) == replayed(evidence(repo_root))
    assert "every row the server was sent reproduced; the python and typescript client(s) did not run" in (
        capsys.readouterr().err
    )


def test_a_server_that_answers_one_row_differently_fails_probe_naming_it(project: Path) -> None:
    server = project / SERVER
    text = server.read_text(encoding="utf-8")
    old = 'f"Header mismatch: {detail}", status=400, doc="header-mismatch"'
    assert text.count(old) == 1
    new = 'f"Header mismatch: {detail}", status=409, doc="header-mismatch"'
    server.write_text(text.replace(old, new), encoding="utf-8")
    # A process of its own, run from the copy: the copy's backend is the one imported.
    done = subprocess.run(
        [sys.executable, "-m", "docgen", "probe", "--app", APP, "--date", "2026-12-01", "--no-clients"],
        cwd=project,
        env={**os.environ, "PYTHONPATH": str(project)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert "docgen probe: 1 row(s) did not reproduce: header-mismatch" in done.stderr
    assert (
        "header-mismatch: NOT reproduced: the table says -32020 / HTTP 400, the server answered "
        in done.stderr
    )
    records = {r["id"]: r for r in evidence(project)["entries"]}
    assert records["header-mismatch"]["observed"]["status"] == 409
    assert records["header-mismatch"]["reproduced"] is False
    assert all(r.get("reproduced", True) for key, r in records.items() if key != "header-mismatch")


USAGE: dict[str, tuple[list[str], int, str]] = {
    "two targets": (["--app", APP, "--url", "http://127.0.0.1:9/mcp"], 2, "not allowed with argument --app"),
    "app without attribute": (["--app", "backend.app.mcp_server"], 2, "is not MODULE:ATTR"),
    "app module missing": (
        ["--app", "backend.app.nowhere:app"],
        2,
        "there is no module 'backend.app.nowhere'",
    ),
    "app attribute missing": (["--app", "backend.app.mcp_server:application"], 2, "has no 'application'"),
    "url not http": (["--url", "127.0.0.1:9/mcp"], 2, "is not an http(s) URL"),
    "url unreachable": (["--url", "http://127.0.0.1:9/mcp"], 2, "cannot reach http://127.0.0.1:9/mcp"),
    "bad date": (["--app", APP, "--date", "29/11/2026"], 2, "--date '29/11/2026' is not a date"),
    "unknown client": (
        ["--app", APP, "--skip-client", "java"],
        2,
        "argument --skip-client: invalid choice: 'java' (choose from",
    ),
    "unknown catalog": (
        ["--app", APP, "--catalog", "mcp-tools"],
        2,
        "is not an errors or routes catalog with examples",
    ),
}


@pytest.mark.parametrize(("extra", "code", "message"), USAGE.values(), ids=USAGE)
def test_probe_usage_errors_are_located_and_never_a_traceback(
    project: Path, capsys: pytest.CaptureFixture[str], extra: list[str], code: int, message: str
) -> None:
    before = (project / EVIDENCE).read_bytes()
    assert main(["-f", str(project / "mkdocs.yml"), "probe", *extra]) == code
    said = capsys.readouterr().err
    assert message in said
    assert "Traceback" not in said
    assert "hint:" in said or said.startswith("usage: docgen probe")
    assert (project / EVIDENCE).read_bytes() == before


def test_a_server_module_that_fails_to_import_is_bad_input(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = project / SERVER
    server.write_text(server.read_text(encoding="utf-8") + "\nraise RuntimeError('boom')\n", encoding="utf-8")
    assert main(["-f", str(project / "mkdocs.yml"), "probe", "--app", APP]) == 3
    said = capsys.readouterr().err
    assert "importing backend.app.mcp_server failed: RuntimeError: boom" in said
    assert "hint:" in said


def test_probe_help_teaches(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["probe", "--help"]) == 0
    shown = capsys.readouterr().out
    for needle in (
        "usage: docgen probe",
        "--app MODULE:ATTR",
        "--url URL",
        "data/<catalog>.evidence.yaml",
        "rate limiter starts empty",
        "spends this\n                      client's whole budget",
        "docgen probe --app myapp.main:app",
        "standard library's server",
        "Exit 0 when every row reproduced, 1 naming each row that did not",
        "A client that cannot run here stops probe before it starts anything (exit 2)",
        "`make node-packages` runs npm ci in clients/",
        "--skip-client NAME",
        "docgen probe --skip-client typescript",
    ):
        assert needle in shown, needle
