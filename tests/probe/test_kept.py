"""Which earlier outcomes a skipped client keeps: only those that still describe the same request against the
same server source, each with the date it was recorded."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from docgen.core.evidence import Evidence, Record
from docgen.probe.clients import RUNNER_CLIENTS
from docgen.probe.kept import keep_skipped
from tests.helpers import load


@pytest.fixture(scope="module")
def committed(repo_root: Path) -> Evidence:
    return load(repo_root, site=False).evidence["mcp-errors"]


def without(evidence: Evidence, clients: tuple[str, ...], **changes: object) -> Evidence:
    """`evidence` as a run that did not run `clients` would build it, with `changes` (a new date, source)."""

    def bare(record: Record) -> Record:
        cells = {name: cell for name, cell in record.clients.items() if name not in clients}
        return dataclasses.replace(record, clients=cells)

    shown = {name: client for name, client in evidence.clients.items() if name not in clients}
    return dataclasses.replace(evidence, entries=tuple(map(bare, evidence.entries)), clients=shown, **changes)


TYPESCRIPT = RUNNER_CLIENTS["typescript"]
"""The clients the TypeScript runner plays: the 2.x client for 2026-07-28 and the 1.x SDK."""


def test_kept_outcomes_are_the_earlier_ones_dated_where_older(committed: Evidence) -> None:
    assert TYPESCRIPT == ("typescript-2026-07-28", "typescript-legacy")
    fresh = without(committed, TYPESCRIPT, probed="2027-01-05")
    kept, said = keep_skipped(fresh, committed, ["typescript"])
    for before, after in zip(committed.entries, kept.entries, strict=True):
        for name in TYPESCRIPT:
            if name in before.clients:
                assert after.clients[name] == {**before.clients[name], "recorded": committed.probed}
                assert kept.recorded(after.clients[name]) == committed.probed
        assert list(after.clients) == list(before.clients)  # the clients in the same order
    assert kept.clients == committed.clients
    assert said == [
        f"typescript skipped by name: its outcomes for 10 row(s) are kept, as recorded on {committed.probed}"
    ]


def test_nothing_is_kept_once_the_server_source_changed(committed: Evidence) -> None:
    source = {**committed.source, "backend/app/mcp_server.py:_handle": "sha256:0000000000000000"}
    fresh = without(committed, TYPESCRIPT, source=source)
    kept, said = keep_skipped(fresh, committed, ["typescript"])
    assert kept == fresh
    assert set(TYPESCRIPT).isdisjoint(kept.clients)
    assert said == [
        f"typescript skipped by name: the server source changed since its outcomes were recorded "
        f"({committed.probed}), so none is kept and the page says it has not run"
    ]


def test_a_row_whose_example_changed_keeps_nothing(committed: Evidence) -> None:
    fresh = without(committed, TYPESCRIPT)
    changed = tuple(
        dataclasses.replace(r, example="sha256:ffffffffffffffff") if r.id == "parse-error" else r
        for r in fresh.entries
    )
    kept, said = keep_skipped(dataclasses.replace(fresh, entries=changed), committed, ["typescript"])
    assert set(TYPESCRIPT).isdisjoint(kept.records()["parse-error"].clients)
    assert set(TYPESCRIPT) <= set(kept.records()["origin-not-allowed"].clients)
    assert said[0].endswith(
        "its outcomes for 9 row(s) are kept, as recorded on "
        f"{committed.probed}; none for parse-error, whose example changed since, so the page says it has not "
        "run them"
    )
