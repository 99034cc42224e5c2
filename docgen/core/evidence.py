"""Probe evidence at rest: what the server answered to each example, as `docgen probe` wrote it.

`docgen probe` writes `data/<catalog>.evidence.yaml`. check reads it statically (no server, no network) and
reports evidence taken from source that has changed since (the cited symbols' fingerprints differ), evidence
for an example edited since, evidence that contradicts the catalog, and entries with no example or no
evidence. A catalog whose notes carry no example at all is left alone.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import field
from typing import Any

from docgen.core.models import ErrorEntry, ErrorsCatalog, Json
from docgen.core.records import record
from docgen.core.schemas import validate
from docgen.core.symbols import SourceFiles
from docgen.core.yamlio import LoadedYaml

PROBE = "docgen probe"
"""The command that refreshes evidence, as hints show it: it serves the app the configuration names
(`probe_app:`), or is given one (`--app MODULE:ATTR`, `--url URL`)."""


def probe_command(app: str | None) -> str:
    """The probe command a hint shows: the configured app serves by default; without one, name the option."""
    return PROBE if app is not None else f"{PROBE} --app MODULE:ATTR"


RECORDED = "recorded"
"""The key of a client's outcome that holds the date it was recorded, written only where that date is not the
evidence's `probed` (the outcome was kept from an earlier run while probe skipped that client)."""


@record
class Observed:
    """What the server answered (to the last request, when the example repeats)."""

    status: int
    code: int | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    body: str = ""

    def as_data(self) -> dict[str, Json]:
        return {"status": self.status, "code": self.code, "headers": dict(self.headers), "body": self.body}


@record
class Record:
    """One entry's evidence: the example sent (by fingerprint) and the answer, or why none can be had."""

    id: str
    example: str | None = None
    """The fingerprint of the example request probe sent."""
    untriggerable: str | None = None
    requests: int | None = None
    expected: tuple[int, int] | None = None
    """The (code, status) the catalog said when probe ran."""
    observed: Observed | None = None
    reproduced: bool | None = None
    clients: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Client name (`python-2026-07-28`, `python-legacy`, `typescript`) -> what that client surfaced (and,
    under `recorded`, when, if that was before the evidence's `probed`)."""

    def as_data(self) -> dict[str, Json]:
        data: dict[str, Json] = {"id": self.id, "example": self.example}
        if self.untriggerable is not None:
            data["untriggerable"] = self.untriggerable
            return data
        data["requests"] = self.requests
        if self.expected is not None:
            data["expected"] = {"code": self.expected[0], "status": self.expected[1]}
        if self.observed is not None:
            data["observed"] = self.observed.as_data()
        data["reproduced"] = self.reproduced
        if self.clients:
            data["clients"] = {name: dict(cell) for name, cell in self.clients.items()}
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Record:
        expected, observed = data.get("expected"), data.get("observed")
        return cls(
            id=data["id"],
            example=data.get("example"),
            untriggerable=data.get("untriggerable"),
            requests=data.get("requests"),
            expected=(expected["code"], expected["status"]) if expected else None,
            observed=Observed(**observed) if observed is not None else None,
            reproduced=data.get("reproduced"),
            clients=dict(data.get("clients", {})),
        )


@record
class Evidence:
    """One catalog's evidence file."""

    catalog: str
    probed: str
    """The date probe ran."""
    target: str
    source: Mapping[str, str]
    """`file:symbol` -> fingerprint of each symbol the catalog cited, when probe ran."""
    entries: tuple[Record, ...]
    clients: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """Client name -> the SDK and version (and the Python client's mode) that produced the records' cells."""
    file: str = ""
    document: LoadedYaml | None = field(default=None, compare=False)

    def records(self) -> dict[str, Record]:
        """Records by entry id."""
        return {record.id: record for record in self.entries}

    def recorded(self, cell: Mapping[str, Any]) -> str:
        """The date a client's outcome in this evidence was recorded."""
        return str(cell.get(RECORDED, self.probed))

    def line(self, *path: str | int) -> int | None:
        """The line of `path` in the evidence file, or None where it is not."""
        return self.document.line(path) if self.document is not None else None

    def record_line(self, entry_id: str) -> int | None:
        """The line of an entry's record (its `- id:`)."""
        index = next((i for i, record in enumerate(self.entries) if record.id == entry_id), None)
        return self.line("entries", index) if index is not None else None

    def as_data(self) -> dict[str, Json]:
        return {
            "catalog": self.catalog,
            "probed": self.probed,
            "target": self.target,
            "source": dict(sorted(self.source.items())),
            "clients": {name: dict(client) for name, client in self.clients.items()},
            "entries": [record.as_data() for record in self.entries],
        }


def still_holds(record: Record, entry: ErrorEntry) -> bool:
    """Whether `record` was taken against the row as the table states it now.

    probe records the code and status the catalog said when it ran (`expected`). When the author changes
    either in the source and runs `docgen extract && docgen render`, the answer recorded then was given by
    the server before the change: a page must not show it as what the server or a client does now, only
    that the row has not been replayed since. A record without `expected` (an untriggerable example, which
    probe never sends) states no answer, so there is nothing it could contradict.
    """
    return record.expected is None or record.expected == (entry.code, entry.status)


def parse_evidence(loaded: LoadedYaml) -> Evidence:
    """The evidence a loaded evidence file holds, checked against its schema."""
    validate(loaded, "errors-evidence", f"this file is written by probe: run `{PROBE}` again")
    data: Mapping[str, Any] = loaded.data
    return Evidence(
        catalog=data["catalog"],
        probed=data["probed"],
        target=data["target"],
        source=dict(data["source"]),
        entries=tuple(Record.from_data(record) for record in data["entries"]),
        clients={name: dict(client) for name, client in data.get("clients", {}).items()},
        file=loaded.file,
        document=loaded,
    )


def source_fingerprints(
    sources: SourceFiles, catalog: ErrorsCatalog, roots: Collection[str]
) -> dict[str, str]:
    """`file:symbol` -> fingerprint of each symbol the catalog cites (the functions its entries come from).

    `roots` are the configured constructors and functions (`file:symbol`): each of them is recorded. A helper
    that extraction reached is recorded only when it does more than pass catalogued errors on
    (`Symbol.routes_errors_only`): what such a helper does is in the facts of its errors, which its
    callers' fingerprints and the catalog carry, so moving an error into one, or out of it again, leaves
    the evidence as it was.
    """
    prints: dict[str, str] = {}
    for source in catalog.sources:
        for name in source.symbols:
            key = f"{source.path}:{name}"
            symbol = sources.symbol_or_none(source.path, name)
            if symbol is not None and symbol.routes_errors_only and key not in roots:
                continue
            prints[key] = symbol.fingerprint if symbol else "missing"
    return prints
