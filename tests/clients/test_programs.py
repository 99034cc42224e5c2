"""The page's programs run: each example's Python and TypeScript program, as docgen writes it for the page, is
run against the server under uvicorn and prints exactly the line the page shows under it from the evidence.

The Python programs run in one interpreter, one after another; the TypeScript programs in one Node process,
each imported as a module of its own. The TypeScript rate-limit program spends the whole budget, so it gets a
server of its own.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from docgen.core.models import ErrorsCatalog
from docgen.examples.client_calls import client_call
from docgen.examples.requests import Example, examples_of
from docgen.probe.clients import node_problem
from docgen.render.client_programs import printed, python_program, typescript_program
from tests.backend.conftest import run_server, write_docs
from tests.clients.harness import CLIENTS_DIR, skip_or_fail
from tests.helpers import load

pytestmark = pytest.mark.server

REPO_ROOT = Path(__file__).resolve().parents[2]
PYTHON = "python-2026-07-28"
TYPESCRIPT = "typescript-2026-07-28"
"""The client whose outcomes the page shows under the program: the 2.x client, as the program is written."""
RUN_PYTHON = """\
import contextlib, io, json, logging, sys, warnings
logging.disable(logging.CRITICAL)
warnings.simplefilter("ignore")
said = {}
for entry_id, code in json.load(sys.stdin):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, entry_id, "exec"), {"__name__": "__main__"})
    said[entry_id] = out.getvalue().strip()
print(json.dumps(said))
"""
RUN_NODE = """\
const said = {};
for (const [id, file] of JSON.parse(process.argv[2])) {
  const lines = [];
  const log = console.log;
  console.log = (...parts) => lines.push(parts.map(String).join(' '));
  try { await import(file); } finally { console.log = log; }
  said[id] = lines.join('\\n');
}
console.log(JSON.stringify(said));
process.exit(0);
"""


@pytest.fixture(scope="module")
def examples() -> dict[str, Example]:
    project = load(REPO_ROOT)
    catalog = project.catalogs()["mcp-errors"]
    assert isinstance(catalog, ErrorsCatalog)
    found = examples_of(catalog, project.notes["mcp-errors"])
    return {entry: example for entry, example in found.items() if example.triggerable}


@pytest.fixture(scope="module")
def cells() -> dict[str, dict[str, Any]]:
    data = yaml.safe_load((REPO_ROOT / "data/mcp-errors.evidence.yaml").read_text(encoding="utf-8"))
    return {record["id"]: record.get("clients", {}) for record in data["entries"]}


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_docs(tmp_path_factory.mktemp("docs"))


def test_each_python_program_prints_what_the_page_shows(
    examples: dict[str, Example], cells: dict[str, dict[str, Any]], docs: Path, tmp_path: Path
) -> None:
    with run_server(REPO_ROOT, docs, tmp_path / "uvicorn.log") as server:
        programs = [
            (entry, python_program(call, server.url, "2026-07-28"))
            for entry, example in examples.items()
            if (call := client_call(example)) is not None and call.runs
        ]
        done = subprocess.run(
            [sys.executable, "-c", RUN_PYTHON],
            input=json.dumps(programs),
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    shown = {entry: printed(cells[entry][PYTHON], examples[entry].repeat) for entry, _ in programs}
    assert said == shown


def test_each_typescript_program_prints_what_the_page_shows(
    examples: dict[str, Example], cells: dict[str, dict[str, Any]], docs: Path, tmp_path: Path
) -> None:
    if (problem := node_problem()) is not None:
        skip_or_fail(problem)
    (tmp_path / "node_modules").symlink_to(CLIENTS_DIR / "node_modules", target_is_directory=True)
    (tmp_path / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    (tmp_path / "run.mjs").write_text(RUN_NODE, encoding="utf-8")
    with (
        run_server(REPO_ROOT, docs, tmp_path / "shared.log") as shared,
        run_server(REPO_ROOT, docs, tmp_path / "budget.log") as own,
    ):
        files = []
        for entry, example in sorted(examples.items(), key=lambda item: item[1].repeat > 1):
            call = client_call(example)
            if call is None or not call.runs:
                continue
            path = tmp_path / f"{entry}.mjs"
            path.write_text(typescript_program(call, (own if example.repeat > 1 else shared).url))
            files.append((entry, str(path)))
        node = shutil.which("node") or "node"
        done = subprocess.run(
            [node, str(tmp_path / "run.mjs"), json.dumps(files)],
            capture_output=True,
            text=True,
            timeout=300,
            cwd=tmp_path,
            check=False,
        )
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout.strip().splitlines()[-1])
    repeats = {entry: examples[entry].repeat for entry, _ in files}
    shown = {entry: printed(cells[entry][TYPESCRIPT], repeats[entry], typescript=True) for entry, _ in files}
    assert said == shown
