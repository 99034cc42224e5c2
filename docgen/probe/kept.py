"""The outcomes of the official clients probe did not run, carried over from the evidence as it was.

A client skipped by name (`--skip-client`, or all of them with `--no-clients`) keeps what it surfaced before,
each outcome with the date it was recorded (`recorded`, written only where that is not the new `probed`). An
outcome is kept only while it still describes the same request against the same server: the record's example
fingerprint and the cited source's fingerprints are unchanged. Otherwise the row has no outcome from that
client, and the page says that client has not run it: nothing is claimed that no run showed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from typing import Any

from docgen.core.evidence import RECORDED, Evidence, Record
from docgen.examples.client_calls import CLIENT_NAMES
from docgen.probe.clients import RUNNER_CLIENTS

Cells = dict[str, dict[str, Any]]


def keep_skipped(
    fresh: Evidence, previous: Evidence | None, skipped: Collection[str]
) -> tuple[Evidence, list[str]]:
    """`fresh` (this run's evidence) with the previous outcomes of the clients of the `skipped` runners added,
    and one sentence per skipped runner saying what was kept and what could not be."""
    runners = [name for name in RUNNER_CLIENTS if name in skipped]
    names = [name for runner in runners for name in RUNNER_CLIENTS[runner]]
    kept = _kept_cells(fresh, previous, names)
    entries = tuple(_with(record, kept.get(record.id, {})) for record in fresh.entries)
    clients = dict(fresh.clients)
    if previous is not None:
        ran = {name for cells in kept.values() for name in cells}
        clients |= {name: dict(client) for name, client in previous.clients.items() if name in ran}
    shown = {name: clients[name] for name in CLIENT_NAMES if name in clients}
    evidence = dataclasses.replace(fresh, entries=entries, clients=shown)
    return evidence, [_said(runner, kept, fresh, previous) for runner in runners]


def _kept_cells(fresh: Evidence, previous: Evidence | None, names: Collection[str]) -> dict[str, Cells]:
    """Entry -> the previous cells of the clients `names` that still describe this example and this source."""
    if previous is None or dict(previous.source) != dict(fresh.source):
        return {}
    before = previous.records()
    kept: dict[str, Cells] = {}
    for record in fresh.entries:
        old = before.get(record.id)
        if old is None or old.example != record.example:
            continue
        cells = {
            name: _dated(cell, previous, fresh.probed) for name, cell in old.clients.items() if name in names
        }
        if cells:
            kept[record.id] = cells
    return kept


def _dated(cell: Mapping[str, Any], previous: Evidence, date: str) -> dict[str, Any]:
    """The cell as recorded, with its date where that is not `date`."""
    when = previous.recorded(cell)
    plain = {key: value for key, value in cell.items() if key != RECORDED}
    return plain | {RECORDED: when} if when != date else plain


def _with(record: Record, cells: Cells) -> Record:
    if not cells:
        return record
    merged = {**record.clients, **cells}
    return dataclasses.replace(
        record, clients={name: merged[name] for name in CLIENT_NAMES if name in merged}
    )


def _said(runner: str, kept: Mapping[str, Cells], fresh: Evidence, previous: Evidence | None) -> str:
    """What skipping `runner` did to the evidence, in one sentence."""
    head, names = f"{runner} skipped by name:", RUNNER_CLIENTS[runner]
    rows = {record.id for record in fresh.entries}
    had = [r.id for r in previous.entries if r.id in rows and set(names) & set(r.clients)] if previous else []
    if previous is None or not had:
        return f"{head} there is no earlier outcome of it to keep, so the page says it has not run"
    if dict(previous.source) != dict(fresh.source):
        return (
            f"{head} the server source changed since its outcomes were recorded ({previous.probed}), so none "
            "is kept and the page says it has not run"
        )
    mine = [cell for cells in kept.values() for name, cell in cells.items() if name in names]
    dates = sorted({str(cell.get(RECORDED, fresh.probed)) for cell in mine})
    kept_rows = [entry for entry in had if set(names) & set(kept.get(entry, {}))]
    parts = [f"its outcomes for {len(kept_rows)} row(s) are kept, as recorded on {' and '.join(dates)}"]
    lost = [entry for entry in had if entry not in kept_rows]
    if lost:
        parts.append(
            f"none for {', '.join(lost)}, whose example changed since, so the page says it has not run them"
        )
    return f"{head} {'; '.join(parts if kept_rows else parts[1:])}"
