"""The official MCP conformance suite against backend/ under uvicorn, compared with its committed record.

The record is clients/conformance-results.yaml.

The suite's active server scenarios run once (about two seconds; some 90 requests, so on a server of this
module's own). Every check's status is compared with the record, and for the scenarios that can apply to this
server also the failure messages; a scenario that passed and stops passing fails the test named after it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clients.conformance import GENERIC, SuiteUnavailable, find_suite, run_suite
from tests.backend.conftest import run_server, write_docs
from tests.clients.harness import CLIENTS_DIR, RECORD_HINT, RECORDING, load_record, skip_or_fail, write_record

pytestmark = pytest.mark.server

RECORD_PATH = CLIENTS_DIR / "conformance-results.yaml"
RECORD_HEADER = """\
# The official MCP conformance suite's active server scenarios, run against backend/ under uvicorn on
# 127.0.0.1 by tests/clients/test_conformance.py, which fails when a check's status (or, where the scenario
# applies to this server, its failure message) differs from what is written here.
# Machine-written: refresh with DOCGEN_RECORD_CLIENTS=1 .venv/bin/python -m pytest tests/clients
# `applies: false` marks scenarios only the suite's own reference server can pass; `why` says what they need.
"""


@pytest.fixture(scope="module")
def results(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """One run of the suite against a fresh server."""
    try:
        suite = find_suite()
    except SuiteUnavailable as problem:
        skip_or_fail(f"the conformance suite cannot run here: {problem}")
    docs = write_docs(tmp_path_factory.mktemp("docs"))
    with run_server(repo_root, docs, tmp_path_factory.mktemp("log") / "uvicorn.log") as server:
        summary = run_suite(server.url, suite)
    if RECORDING:
        write_record(RECORD_PATH, RECORD_HEADER, summary)
    yield summary


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    """The committed record."""
    return load_record(RECORD_PATH)


def _recorded_scenarios() -> list[str]:
    return list(load_record(RECORD_PATH).get("scenarios", {}))


@pytest.mark.parametrize("scenario", _recorded_scenarios())
def test_scenario_ends_as_recorded(results: dict[str, Any], record: dict[str, Any], scenario: str) -> None:
    seen = results["scenarios"].get(scenario)
    assert seen is not None, f"the suite no longer runs scenario {scenario}; {RECORD_HINT}"
    assert seen == record["scenarios"][scenario], f"scenario {scenario} ended differently; {RECORD_HINT}"


def test_the_suite_runs_no_scenario_the_record_lacks(results: dict[str, Any], record: dict[str, Any]) -> None:
    assert set(results["scenarios"]) - set(record.get("scenarios", {})) == set(), RECORD_HINT
    assert results["suite"] == record.get("suite"), RECORD_HINT
    assert results["applicable_checks"] == record.get("applicable_checks"), RECORD_HINT


def test_every_scenario_is_classified(results: dict[str, Any]) -> None:
    unclassified = [
        name for name, seen in results["scenarios"].items() if "not classified" in seen.get("why", "")
    ]
    assert unclassified == []


@pytest.mark.parametrize("scenario", GENERIC)
def test_scenarios_any_server_can_pass_pass(results: dict[str, Any], scenario: str) -> None:
    seen = results["scenarios"][scenario]
    assert seen["applies"] is True
    assert set(seen["checks"].values()) == {"SUCCESS"}, seen
