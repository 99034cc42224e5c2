"""The official MCP conformance suite for 2026-07-28 against backend/ under uvicorn, held to its baseline.

The baseline is clients/conformance-baseline.yaml (the accepted failures, each with its reason); the record of
the last run is clients/conformance-results.yaml.

The suite runs the scenarios `--requirements 2026-07-28` names once (about three seconds; some 110 requests,
so on a server of this module's own, and a second server for the stale-acceptance run). A required check that
fails without an acceptance fails the run, and so does an acceptance whose check passes now; every check's
status, and the messages of the required scenarios, are compared with the record, so a scenario that passed
and stops passing fails the test named after it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clients.conformance import (
    BadBaseline,
    Suite,
    SuiteUnavailable,
    find_suite,
    load_baseline,
    run_suite,
)
from tests.backend.conftest import run_server, write_docs
from tests.clients.harness import CLIENTS_DIR, RECORD_HINT, RECORDING, load_record, skip_or_fail, write_record

pytestmark = pytest.mark.server

RECORD_PATH = CLIENTS_DIR / "conformance-results.yaml"
RECORD_HEADER = """\
# The official MCP conformance suite with `--requirements 2026-07-28`, run against backend/ under uvicorn on
# 127.0.0.1 by tests/clients/test_conformance.py, which fails when a check's status (or, in a scenario the
# revision requires, its failure message) differs from what is written here.
# Machine-written: refresh with DOCGEN_RECORD_CLIENTS=1 .venv/bin/python -m pytest tests/clients
# `scored: false` marks the scenarios the suite runs without counting them (extensions, pending ones); the
# failures accepted, and why, are in clients/conformance-baseline.yaml.
"""
PASSING = "tools-list:tools-list"
"""A required check the server passes: accepting it as a failure is a stale acceptance."""
ANY_SERVER = ("tools-list", "resources-list", "prompts-list", "dns-rebinding-protection", "caching")
"""Required scenarios that need nothing but what every server offers: never to be accepted as failing."""


@pytest.fixture(scope="module")
def suite() -> Suite:
    try:
        return find_suite()
    except SuiteUnavailable as problem:
        skip_or_fail(f"the conformance suite cannot run here: {problem}")
        raise


def _run(
    repo_root: Path, tmp: pytest.TempPathFactory, suite: Suite, accepted: dict[str, str]
) -> dict[str, Any]:
    """One run of the suite against a fresh server (the run spends most of the rate-limit budget)."""
    docs = write_docs(tmp.mktemp("docs"))
    with run_server(repo_root, docs, tmp.mktemp("log") / "uvicorn.log") as server:
        return run_suite(server.url, suite, accepted)


@pytest.fixture(scope="module")
def results(
    repo_root: Path, tmp_path_factory: pytest.TempPathFactory, suite: Suite
) -> Iterator[dict[str, Any]]:
    """One run of the suite with the committed baseline."""
    summary = _run(repo_root, tmp_path_factory, suite, load_baseline())
    if RECORDING:
        write_record(RECORD_PATH, RECORD_HEADER, summary)
    yield summary


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    """The committed record."""
    return load_record(RECORD_PATH)


def _recorded_scenarios() -> list[str]:
    return list(load_record(RECORD_PATH).get("scenarios", {}))


def test_every_required_failure_is_accepted_and_every_acceptance_still_fails(results: dict[str, Any]) -> None:
    assert results["unexpected"] == [], "fix the server, or accept it in clients/conformance-baseline.yaml"
    assert results["stale"] == [], "these pass now: remove them from clients/conformance-baseline.yaml"
    assert results["exit"] == 0  # the suite's own verdict against the same baseline


def test_a_stale_acceptance_fails_the_run(
    repo_root: Path, tmp_path_factory: pytest.TempPathFactory, suite: Suite, results: dict[str, Any]
) -> None:
    scenario, _, check = PASSING.partition(":")
    assert results["scenarios"][scenario]["checks"][check] == "SUCCESS"
    accepted = {**load_baseline(), PASSING: "accepted although it passes"}
    stale = _run(repo_root, tmp_path_factory, suite, accepted)
    assert (stale["exit"], stale["stale"], stale["unexpected"]) == (1, [PASSING], [])


def test_every_acceptance_names_a_required_scenario(results: dict[str, Any]) -> None:
    required = {name for name, seen in results["scenarios"].items() if seen["scored"]}
    assert sorted({key.partition(":")[0] for key in load_baseline()} - required) == []


@pytest.mark.parametrize("scenario", ANY_SERVER)
def test_scenarios_any_server_can_pass_pass_and_are_not_accepted(
    results: dict[str, Any], scenario: str
) -> None:
    seen = results["scenarios"][scenario]
    assert seen["scored"] is True
    assert set(seen["checks"].values()) == {"SUCCESS"}, seen
    assert [key for key in load_baseline() if key.partition(":")[0] == scenario] == []


def test_an_acceptance_without_a_reason_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "baseline.yaml"
    path.write_text("requirements: '2026-07-28'\naccepted:\n  tools-call-error: ''\n", encoding="utf-8")
    with pytest.raises(BadBaseline, match="'tools-call-error' needs a reason"):
        load_baseline(path)


@pytest.mark.parametrize("scenario", _recorded_scenarios())
def test_scenario_ends_as_recorded(results: dict[str, Any], record: dict[str, Any], scenario: str) -> None:
    seen = results["scenarios"].get(scenario)
    assert seen is not None, f"the suite no longer runs scenario {scenario}; {RECORD_HINT}"
    assert seen == record["scenarios"][scenario], f"scenario {scenario} ended differently; {RECORD_HINT}"


def test_the_suite_runs_no_scenario_the_record_lacks(results: dict[str, Any], record: dict[str, Any]) -> None:
    assert set(results["scenarios"]) - set(record.get("scenarios", {})) == set(), RECORD_HINT
    for key in ("suite", "requirements", "scored_checks"):
        assert results[key] == record.get(key), RECORD_HINT
