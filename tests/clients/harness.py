"""Helpers for the client tests: the runners in clients/, the Node they need, and records to compare with.

The Node half (the TypeScript client and the conformance suite) needs `npm` and the packages `make test`
installs into clients/node_modules. Without them those tests are skipped with the reason; under CI (the `CI`
variable set) they fail instead, so a machine that should run them cannot pass by skipping.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from docgen.probe.clients import node_problem as probe_node_problem

REPO_ROOT = Path(__file__).resolve().parents[2]
CLIENTS_DIR = REPO_ROOT / "clients"
NODE_STAMP = CLIENTS_DIR / "node_modules" / ".installed"
TS_RUNNER = CLIENTS_DIR / "ts_client.mjs"
RUNNER_TIMEOUT_SECONDS = 90
# DOCGEN_RECORD_CLIENTS=1 rewrites clients/conformance-results.yaml from this run (the clients' outcomes per
# example are probe's evidence, data/mcp-errors.evidence.yaml: `docgen probe` rewrites them).
RECORDING = os.environ.get("DOCGEN_RECORD_CLIENTS") == "1"
RECORD_COMMAND = "DOCGEN_RECORD_CLIENTS=1 .venv/bin/python -m pytest tests/clients"
RECORD_HINT = f"if that is meant, refresh the records: {RECORD_COMMAND}"

# The clients each row is run with: the Python SDK in each connect mode, and the TypeScript runner with the
# 2.x client pinned to 2026-07-28 and the 1.x SDK (legacy sessions).
PYTHON_AUTO = "python-auto"
PYTHON_MODES = {PYTHON_AUTO: "auto", "python-2026-07-28": "2026-07-28", "python-legacy": "legacy"}
TYPESCRIPT = "typescript"
TYPESCRIPT_MODES = {f"{TYPESCRIPT}-2026-07-28": "2026-07-28", f"{TYPESCRIPT}-legacy": "legacy"}


@cache
def node_problem() -> str | None:
    """Why the TypeScript runner cannot run here (probe's own reason), or None when it can."""
    problem = probe_node_problem()
    if problem is None and not NODE_STAMP.is_file():
        return "the Node packages are not installed in clients/node_modules (run `make test`)"
    return problem


def skip_or_fail(reason: str) -> None:
    """Skip with `reason`, or fail under CI, where the Node half must run."""
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the Node half of the tests: {reason}")
    pytest.skip(reason)


def run_client(client: str, action: dict[str, Any] | str) -> subprocess.CompletedProcess[str]:
    """Run one runner on one action (sent on stdin, so large bodies fit) and return the finished process.

    A dict is sent as JSON, with the client's connect mode added (none for the bare runner name `typescript`);
    a string as it is.
    """
    modes: dict[str, str] = PYTHON_MODES
    if client.startswith(TYPESCRIPT):
        command, modes = [shutil.which("node") or "node", str(TS_RUNNER)], TYPESCRIPT_MODES
    else:
        command = [sys.executable, "-m", "clients.python_client"]
    if isinstance(action, dict) and "mode" not in action and client in modes:
        action = {**action, "mode": modes[client]}
    return subprocess.run(
        command,
        input=action if isinstance(action, str) else json.dumps(action),
        capture_output=True,
        text=True,
        timeout=RUNNER_TIMEOUT_SECONDS,
        cwd=REPO_ROOT,
        check=False,
    )


def load_record(path: Path) -> dict[str, Any]:
    """A committed record, or an empty one when it does not exist yet."""
    if not path.is_file():
        return {}
    loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
    return loaded if isinstance(loaded, dict) else {}


def write_record(path: Path, header: str, record: dict[str, Any]) -> None:
    """Write a record: the comment header, then the YAML."""
    body = yaml.safe_dump(record, sort_keys=False, width=110, allow_unicode=True, default_flow_style=None)
    path.write_text(header + body, encoding="utf-8")
