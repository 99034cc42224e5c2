"""`docgen probe` with the official clients on a fresh copy of the project, against the committed evidence.

One probe run sends every example through the Python client in both connect modes and the TypeScript clients
(2.x for 2026-07-28, 1.x for legacy sessions), against servers under uvicorn that probe starts itself; each
cell of the evidence it writes is compared with data/mcp-errors.evidence.yaml, one test per row and client,
so a server or SDK that answers one row
differently fails the test named after that row and that client. A copy of backend/ answering one row
differently is named the same way by probe's own report. A few tests state facts readers rely on: the
legacy TypeScript client can ping (the 2026-07-28 one refuses to: the revision has no ping), a loopback Origin
on any port is accepted, the rate limit counts the handshake.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from docgen.core.evidence import Evidence, Record
from docgen.core.models import ErrorsCatalog
from docgen.examples.client_calls import CLIENT_NAMES, TYPESCRIPT, ClientCall, client_call
from docgen.examples.requests import examples_of
from docgen.probe.clients import changed_cells, node_problem, observe_clients, runners
from docgen.probe.servers import uvicorn_server
from tests.clients.harness import skip_or_fail
from tests.helpers import copy_project, load

pytestmark = pytest.mark.server

EVIDENCE = "data/mcp-errors.evidence.yaml"
APP = "backend.app.mcp_server:app"
COMMITTED: dict[str, Any] = yaml.safe_load(
    (Path(__file__).resolve().parents[2] / EVIDENCE).read_text(encoding="utf-8")
)
CELLS = [
    (record["id"], client)
    for record in COMMITTED["entries"]
    if "untriggerable" not in record
    for client in CLIENT_NAMES
]


@pytest.fixture(scope="module")
def probed(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The evidence one `docgen probe --app` writes on a fresh copy of the project (clients included)."""
    project = copy_project(repo_root, tmp_path_factory.mktemp("project"))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "docgen",
            "probe",
            "--app",
            APP,
            "--date",
            COMMITTED["probed"],
            *_skipped(),
        ],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    written: dict[str, Any] = yaml.safe_load((project / EVIDENCE).read_text(encoding="utf-8"))
    return {"evidence": written, "said": done.stderr}


def _skipped() -> list[str]:
    """`--skip-client typescript` where Node cannot run it (probe would stop otherwise): its tests skip."""
    return ["--skip-client", TYPESCRIPT] if node_problem() is not None else []


def _cell(evidence: dict[str, Any], row: str, client: str) -> dict[str, Any] | None:
    record = next(record for record in evidence["entries"] if record["id"] == row)
    cell: dict[str, Any] | None = record.get("clients", {}).get(client)
    return cell


def _runs_here(client: str) -> None:
    if client.startswith(TYPESCRIPT) and (problem := node_problem()) is not None:
        skip_or_fail(problem)


@pytest.mark.parametrize(("row", "client"), CELLS)
def test_client_surfaces_what_the_evidence_records(probed: dict[str, Any], row: str, client: str) -> None:
    _runs_here(client)
    recorded = _cell(COMMITTED, row, client)
    assert recorded is not None, f"row {row}, client {client}: not in {EVIDENCE}; run docgen probe"
    assert _cell(probed["evidence"], row, client) == recorded, (
        f"row {row}, client {client} surfaced something else than {EVIDENCE} records; "
        "if that is meant, run docgen probe and commit the evidence"
    )


def test_probe_records_the_pinned_clients_and_reports_no_change(probed: dict[str, Any]) -> None:
    _runs_here(TYPESCRIPT)
    assert probed["evidence"]["clients"] == COMMITTED["clients"]
    assert ", client " not in probed["said"], probed["said"]  # no "row X, client Y: ..." change lines


def _posts_of(sent: list[str], method: str) -> int:
    """How many POSTs of `method` a compressed `sent` list holds (`tools/list x118` counts 118)."""
    total = 0
    for entry in sent:
        name, _, times = entry.partition(" x")
        if name == method:
            total += int(times) if re.fullmatch(r"\d+", times) else 1
    return total


@pytest.mark.parametrize("client", CLIENT_NAMES)
def test_the_rate_limit_counts_every_request_the_client_posts(probed: dict[str, Any], client: str) -> None:
    """Refused at request RATE_LIMIT_REQUESTS + 1, handshake included, so at an earlier call for a client that
    spends requests of its own; a client that answers a repeated call from its cache never meets it."""
    _runs_here(client)
    cell = _cell(probed["evidence"], "rate-limited", client)
    assert cell is not None
    catalog = load(Path(__file__).resolve().parents[2]).catalogs()["mcp-errors"]
    assert isinstance(catalog, ErrorsCatalog)
    budget = catalog.constants["RATE_LIMIT_REQUESTS"]
    if cell["outcome"] == "result":
        assert cell["requests"] <= budget, cell
    else:
        assert (cell["outcome"], cell["requests"]) == ("exception", budget + 1)
        assert _posts_of(cell["sent"], "tools/list") == cell["call"]


@pytest.fixture(scope="module")
def changed_copy(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The clients against a copy of backend/ whose header mismatch is a 409 instead of a 400, in the same
    run as two everyday calls: a ping, and a list of tools from a page on localhost:5173."""
    tmp = tmp_path_factory.mktemp("changed")
    project = copy_project(repo_root, tmp / "project")
    server = project / "backend/app/mcp_server.py"
    text = server.read_text(encoding="utf-8")
    old = 'f"Header mismatch: {detail}", status=400, doc="header-mismatch"'
    assert text.count(old) == 1
    new = 'f"Header mismatch: {detail}", status=409, doc="header-mismatch"'
    server.write_text(text.replace(old, new), encoding="utf-8")
    loaded = load(project)
    catalog = loaded.catalogs()["mcp-errors"]
    assert isinstance(catalog, ErrorsCatalog)
    examples = {"header-mismatch": examples_of(catalog, loaded.notes["mcp-errors"])["header-mismatch"]}
    call = client_call(examples["header-mismatch"])
    assert call is not None
    calls = {
        "header-mismatch": call,
        "ping": ClientCall({"action": "ping"}),
        "loopback-origin": ClientCall(
            {"action": "list_tools", "headers": {"Origin": "http://localhost:5173"}}
        ),
    }

    def servers(name: str) -> Any:
        return uvicorn_server(APP, project, tmp / f"{name}.log", "/mcp")

    run = observe_clients(calls, servers, own_servers=True, found=runners(_skipped()[1:]))
    return {"run": run, "said": changed_cells(_committed_evidence(), run, examples)}


def test_a_backend_answering_one_row_differently_names_row_and_client(changed_copy: dict[str, Any]) -> None:
    """The legacy TypeScript client reports the HTTP status, so it sees the change; the 2026-07-28 one reads
    the JSON-RPC error of a 400 only, so a 409 leaves it with the status alone; the Python client reports the
    JSON-RPC code, which the copy left alone."""
    said, run = changed_copy["said"], changed_copy["run"]
    assert run.outcomes["header-mismatch"]["python-legacy"]["code"] == -32020
    assert all(not line.startswith("row header-mismatch, client python") for line in said)
    _runs_here(TYPESCRIPT)
    assert [line.split(":")[0] for line in said] == [
        "row header-mismatch, client typescript-2026-07-28",
        "row header-mismatch, client typescript-legacy",
    ]
    assert "exception SdkHttpError" in said[0]
    assert "the evidence said exception ProtocolError -32020" in said[0]
    assert run.outcomes["header-mismatch"]["typescript-2026-07-28"]["status"] == 409
    assert "StreamableHTTPError 409" in said[1]


def test_legacy_typescript_client_can_ping_and_the_2026_client_will_not(changed_copy: dict[str, Any]) -> None:
    _runs_here(TYPESCRIPT)
    seen = changed_copy["run"].outcomes["ping"]
    assert seen["typescript-legacy"]["outcome"] == "result", seen
    modern = seen["typescript-2026-07-28"]
    assert (modern["outcome"], modern["class"]) == ("cannot-send", "SdkError")
    assert modern["sent"] == ["server/discover"]
    assert "not supported by the negotiated protocol version" in modern["why"]


@pytest.mark.parametrize("client", CLIENT_NAMES)
def test_loopback_origin_on_any_port_is_accepted(changed_copy: dict[str, Any], client: str) -> None:
    _runs_here(client)
    seen = changed_copy["run"].outcomes["loopback-origin"][client]
    assert seen["outcome"] == "result", seen


def _committed_evidence() -> Evidence:
    records = tuple(Record.from_data(record) for record in COMMITTED["entries"])
    return Evidence(COMMITTED["catalog"], COMMITTED["probed"], COMMITTED["target"], {}, records)
