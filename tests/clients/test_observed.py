"""Every row of tests/clients/rows.py, run with each official client against backend/ under uvicorn.

What each client surfaced is compared with the committed record, clients/observed.yaml, cell by cell: a
server (or SDK) that answers one row differently fails the test named after that row and that client. A few
tests below state the facts the record shows that matter to readers: among them, that the TypeScript client
can ping, and that a loopback Origin on any port is accepted.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.backend.conftest import run_server, write_docs
from tests.clients.harness import (
    CLIENTS,
    CLIENTS_DIR,
    PYTHON_MODES,
    RECORD_HINT,
    RECORDING,
    TYPESCRIPT,
    load_record,
    node_problem,
    observe,
    skip_or_fail,
    write_record,
)
from tests.clients.rows import CATALOG, CONSTANTS, ROWS

pytestmark = pytest.mark.server

RECORD_PATH = CLIENTS_DIR / "observed.yaml"
RECORD_HEADER = """\
# What each official MCP client surfaced for each row of tests/clients/rows.py, run against backend/ under
# uvicorn on 127.0.0.1 by tests/clients/test_observed.py, which fails when a client surfaces something else.
# Machine-written: refresh with DOCGEN_RECORD_CLIENTS=1 .venv/bin/python -m pytest tests/clients
# Per cell: `outcome` (exception, result or cannot-send), the exception's class, code and message or the
# result's isError and text, `phase` (connect or action), `call` (which of the `repeat` calls), the revision
# negotiated, and `requests`/`sent`: every POST the client made, in order, the handshake included.
"""
# Fields of a runner's output that say which client ran, not what it surfaced; they go to the record's header.
CLIENT_FIELDS = ("client", "mode")


def _cell(observed: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in observed.items() if key not in CLIENT_FIELDS}


def _observe_client(client: str, repo_root: Path, docs: Path, logs: Path) -> dict[str, dict[str, Any]]:
    """All rows with one client: rows sharing a budget on one server, each budget-spending row on its own."""
    seen: dict[str, dict[str, Any]] = {}
    with run_server(repo_root, docs, logs / "shared.log") as shared:
        for row in ROWS:
            if client in row.clients and not row.fresh_server:
                seen[row.id] = observe(client, {"url": shared.url, **row.action})
    for row in ROWS:
        if client in row.clients and row.fresh_server:
            with run_server(repo_root, docs, logs / f"{row.id}.log") as own:
                seen[row.id] = observe(client, {"url": own.url, **row.action})
    return seen


def _record(runs: dict[str, dict[str, dict[str, Any]]]) -> dict[str, Any]:
    clients = {}
    for client, seen in runs.items():
        first = next(iter(seen.values()))
        clients[client] = {**first["client"], **({"mode": first["mode"]} if "mode" in first else {})}
    rows: dict[str, Any] = {}
    for row in ROWS:
        observed = {client: _cell(runs[client][row.id]) for client in runs if client in row.clients}
        rows[row.id] = {"entry": row.entry, "does": row.does, "observed": observed}
    return {"clients": clients, "rows": rows}


@pytest.fixture(scope="module")
def observations(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Run every row with every client that can run here, two at a time; the result has the record's shape."""
    clients = CLIENTS if node_problem() is None else list(PYTHON_MODES)
    docs = write_docs(tmp_path_factory.mktemp("docs"))
    logs = {client: tmp_path_factory.mktemp(f"logs-{client}") for client in clients}
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {c: pool.submit(_observe_client, c, repo_root, docs, logs[c]) for c in clients}
        runs = {client: future.result() for client, future in futures.items()}
    observed = _record(runs)
    if RECORDING and TYPESCRIPT in runs:
        write_record(RECORD_PATH, RECORD_HEADER, observed)
    return observed


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    """The committed record."""
    return load_record(RECORD_PATH)


def _seen(observations: dict[str, Any], row: str, client: str) -> dict[str, Any]:
    if client not in observations["clients"]:
        skip_or_fail(f"{client} cannot run here: {node_problem()}")
    cell: dict[str, Any] = observations["rows"][row]["observed"][client]
    return cell


@pytest.mark.parametrize(("row", "client"), [(row.id, client) for row in ROWS for client in row.clients])
def test_client_surfaces_what_the_record_says(
    observations: dict[str, Any], record: dict[str, Any], row: str, client: str
) -> None:
    seen = _seen(observations, row, client)
    recorded = record.get("rows", {}).get(row, {}).get("observed", {}).get(client)
    assert recorded is not None, f"row {row}, client {client}: not in {RECORD_PATH.name}; {RECORD_HINT}"
    assert seen == recorded, (
        f"row {row}, client {client} surfaced something else than recorded; {RECORD_HINT}"
    )


def test_record_lists_exactly_these_rows(record: dict[str, Any]) -> None:
    recorded = {name: (fields["entry"], fields["does"]) for name, fields in record.get("rows", {}).items()}
    assert recorded == {row.id: (row.entry, row.does) for row in ROWS}, RECORD_HINT


@pytest.mark.parametrize("client", CLIENTS)
def test_record_was_taken_with_the_pinned_client(
    observations: dict[str, Any], record: dict[str, Any], client: str
) -> None:
    _seen(observations, "list-tools", client)
    assert record.get("clients", {}).get(client) == observations["clients"][client], RECORD_HINT


def _posts_of(sent: list[str], method: str) -> int:
    """How many POSTs of `method` a compressed `sent` list holds (`tools/call x118` counts 118)."""
    total = 0
    for entry in sent:
        name, _, times = entry.partition(" x")
        if name == method:
            total += int(times) if re.fullmatch(r"\d+", times) else 1
    return total


@pytest.mark.parametrize("client", CLIENTS)
def test_rate_limit_refuses_the_request_over_the_budget_handshake_included(
    observations: dict[str, Any], client: str
) -> None:
    """The refusal comes at request RATE_LIMIT_REQUESTS + 1 counting everything the client posted, so the call
    that fails is an earlier one for a client that spends requests of its own (handshake, implicit
    tools/list)."""
    seen = _seen(observations, "rate-limited", client)
    budget = CONSTANTS["RATE_LIMIT_REQUESTS"]
    assert seen["outcome"] == "exception"
    assert seen["requests"] == budget + 1
    assert _posts_of(seen["sent"], "tools/call") == seen["call"]


def test_typescript_client_can_ping(observations: dict[str, Any]) -> None:
    seen = _seen(observations, "ping", TYPESCRIPT)
    assert seen["outcome"] == "result", seen


@pytest.mark.parametrize("client", CLIENTS)
def test_loopback_origin_on_any_port_is_accepted(observations: dict[str, Any], client: str) -> None:
    seen = _seen(observations, "loopback-origin-other-port", client)
    assert seen["outcome"] == "result", seen


def test_every_row_draws_an_entry_of_the_catalog() -> None:
    entries = {entry["id"] for entry in yaml.safe_load(CATALOG.read_text(encoding="utf-8"))["entries"]}
    assert {row.id: row.entry for row in ROWS if row.entry is not None and row.entry not in entries} == {}
