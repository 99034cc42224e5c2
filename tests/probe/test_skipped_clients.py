"""`docgen probe` where an official client cannot run, in the user's terms: a copy of the project, the real
CLI in a process of its own with a PATH that holds no `node`, then the exit code, the message, the evidence
file and the page.

Without Node, probe stops before it runs anything and the tree stays as it was; with the TypeScript client
left out by name, its outcomes stay in the evidence as they were recorded, with their date, and the page says
so; where there is nothing to keep, the page says that client has not run the rows, never that it agrees.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.helpers import copy_project

pytestmark = pytest.mark.server

APP = "backend.app.mcp_server:app"
EVIDENCE = "data/mcp-errors.evidence.yaml"
PAGE = "docs/developers/mcp-errors.md"
CATALOG = "data/mcp-errors.yaml"
TYPESCRIPT_CELLS = 10
"""The rows whose example the TypeScript clients run, in the committed evidence."""
TYPESCRIPT = ("typescript-2026-07-28", "typescript-legacy")
"""The clients `--skip-client typescript` leaves out: the 2.x client for 2026-07-28 and the 1.x SDK."""


@pytest.fixture
def project(repo_root: Path, tmp_path: Path) -> Path:
    return copy_project(repo_root, tmp_path / "project")


@pytest.fixture
def no_node(tmp_path: Path) -> dict[str, str]:
    """The environment of a machine without Node: a PATH holding nothing at all."""
    empty = tmp_path / "empty-path"
    empty.mkdir()
    return {**os.environ, "PATH": str(empty)}


def docgen(root: Path, env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    """The docgen command run from `root`, whose own backend/ is the one probed."""
    return subprocess.run(
        [sys.executable, "-m", "docgen", *argv],
        cwd=root,
        env={**env, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def tree(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes() for path in root.rglob("*") if path.is_file()
    }


def cells(root: Path, client: str) -> dict[str, Any]:
    """Row id -> the outcome `client` has in the evidence under `root`."""
    data = yaml.safe_load((root / EVIDENCE).read_text(encoding="utf-8"))
    return {r["id"]: r["clients"][client] for r in data["entries"] if client in r.get("clients", {})}


def committed_date(repo_root: Path) -> str:
    return str(yaml.safe_load((repo_root / EVIDENCE).read_text(encoding="utf-8"))["probed"])


def test_without_node_probe_stops_naming_what_is_missing_and_changes_nothing(
    project: Path, no_node: dict[str, str]
) -> None:
    before = tree(project)
    done = docgen(project, no_node, "probe", "--app", APP)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(
        "docgen probe: error: the official typescript client cannot run here: node is not on the PATH; "
        "nothing was run or written\n"
    )
    assert "then run `make node-packages`, which installs the pinned Node packages" in done.stderr
    assert "or leave it out with `--skip-client typescript`" in done.stderr
    # Nothing ran (not even the server's import, which leaves __pycache__ behind) and nothing was written.
    assert tree(project) == before


def test_skipping_typescript_keeps_its_outcomes_byte_for_byte_then_with_their_date(
    repo_root: Path, project: Path, no_node: dict[str, str]
) -> None:
    date = committed_date(repo_root)
    done = docgen(project, no_node, "probe", "--app", APP, "--date", date, "--skip-client", "typescript")
    assert done.returncode == 0, done.stderr
    # The Python clients ran and surfaced what they did before; the TypeScript outcomes were kept: same bytes.
    assert (project / EVIDENCE).read_bytes() == (repo_root / EVIDENCE).read_bytes()
    kept = f"its outcomes for {TYPESCRIPT_CELLS} row(s) are kept, as recorded on {date}"
    assert f"typescript skipped by name: {kept}" in done.stderr
    assert "every row a client can trigger reproduced" not in done.stderr
    assert "the typescript client(s) did not run (skipped by name)" in done.stderr

    # A later run: the kept outcomes say when they were recorded, and the page says it beside each of them.
    done = docgen(
        project, no_node, "probe", "--app", APP, "--date", "2027-01-05", "--skip-client", "typescript"
    )
    assert done.returncode == 0, done.stderr
    python = cells(project, "python-legacy")
    for client in TYPESCRIPT:
        typescript = cells(project, client)
        assert len(typescript) == TYPESCRIPT_CELLS
        assert {cell["recorded"] for cell in typescript.values()} == {date}
        before = cells(repo_root, client)
        assert {row: {**cell, "recorded": date} for row, cell in before.items()} == typescript
    assert all("recorded" not in cell for cell in python.values())
    assert docgen(project, no_node, "render").returncode == 0
    page = (project / PAGE).read_text(encoding="utf-8")
    # Under each example; and named in the list of rows where a client parts from the table, on each row
    # but the two where the legacy TypeScript client reports the table's code (invalid-params, unknown-name).
    for mode in ("2026-07-28", "legacy"):
        assert page.count(f"\n- TypeScript ({mode}) (recorded {date}): ") == TYPESCRIPT_CELLS
    assert page.count(f"TypeScript (legacy) (recorded {date})\n") == TYPESCRIPT_CELLS - 2
    assert f"when this program ran against the server on {date} (and, for a legacy session," in page
    assert "when this program ran against the server on 2027-01-05 (and with" in page
    assert "TypeScript: " not in page


def test_with_nothing_to_keep_the_page_says_typescript_has_not_run(
    project: Path, no_node: dict[str, str]
) -> None:
    (project / EVIDENCE).unlink()
    done = docgen(project, no_node, "probe", "--app", APP, "--skip-client", "typescript")
    assert done.returncode == 0, done.stderr
    assert "typescript skipped by name: there is no earlier outcome of it to keep" in done.stderr
    assert all(cells(project, client) == {} for client in TYPESCRIPT)
    assert len(cells(project, "python-legacy")) == TYPESCRIPT_CELLS
    assert docgen(project, no_node, "render").returncode == 0
    page = (project / PAGE).read_text(encoding="utf-8")
    # What the issue saw: with the TypeScript outcomes gone, every row the Python clients agree on was said to
    # be raised with the table's code by every client.
    assert "Every client raises" not in page
    assert "Every official client reports" not in page
    for mode in ("2026-07-28", "legacy"):
        said = f"\n- TypeScript ({mode}): has not run this example (no outcome recorded)"
        assert page.count(said) == TYPESCRIPT_CELLS
    # And every row is in the list of rows a client parts from, both TypeScript clients named as not run.
    not_run = "TypeScript (2026-07-28) (not run), TypeScript (legacy) (not run)\n"
    assert page.count(not_run) == TYPESCRIPT_CELLS


def test_no_clients_exits_0_and_keeps_every_client_outcome(repo_root: Path, project: Path) -> None:
    done = docgen(project, dict(os.environ), "probe", "--app", APP, "--no-clients", "--date", "2027-01-05")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "the python and typescript client(s) did not run (skipped by name)" in done.stderr
    for client in ("python-2026-07-28", "python-legacy", *TYPESCRIPT):
        recorded = cells(repo_root, client)
        assert cells(project, client) == {
            row: {**cell, "recorded": committed_date(repo_root)} for row, cell in recorded.items()
        }
    # The file is one check reads without complaint (a valid evidence file, every outcome still there).
    checked = docgen(project, dict(os.environ), "check", "--format", "json")
    assert "evidence-missing" not in checked.stdout and "Traceback" not in checked.stderr


def test_a_row_without_a_literal_code_is_reported_not_a_crash(project: Path) -> None:
    """The AssertionError of issue 26: a row whose code the table does not state as a number."""
    catalog = project / CATALOG
    text = catalog.read_text(encoding="utf-8")
    assert text.count("  code: -32602\n") == 1
    catalog.write_text(text.replace("  code: -32602\n", "  code: INVALID_PARAMS\n"), encoding="utf-8")
    done = docgen(project, dict(os.environ), "probe", "--app", APP, "--no-clients")
    assert done.returncode == 1, done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    assert (
        "  invalid-params: NOT reproduced: the table says no literal code and status (they are set at run "
        "time), so nothing to compare with, the server answered -32602 / HTTP 200"
    ) in done.stderr
    assert "docgen probe: 1 row(s) did not reproduce: invalid-params" in done.stderr
    record = next(r for r in yaml.safe_load((project / EVIDENCE).read_text(encoding="utf-8"))["entries"])
    assert record["id"] == "origin-not-allowed" and record["reproduced"] is True
