"""Probe evidence of an HTTP API at rest: what the application answered to each error's example request.

`docgen probe` writes `data/<catalog>.evidence.yaml` for a routes catalog whose notes carry examples (schema
`routes-evidence`). Unlike an MCP server's evidence there are no official clients: the application's own
answer (status, the detail read from the body, the headers a client acts on, the body) is the evidence.
check reads it statically and reports it missing, stale or contradicting the catalog.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any

from docgen.core.models import Json, RoutesCatalog
from docgen.core.records import record
from docgen.core.schemas import validate
from docgen.core.symbols import SourceFiles
from docgen.core.yamlio import LoadedYaml


@record
class Reply:
    """What the application answered to one example."""

    status: int
    headers: Mapping[str, str] = field(default_factory=dict)
    body: str = ""
    detail: str | None = None
    """The detail read from the body where the catalog says the error keeps it; None when it holds none."""

    def as_data(self) -> dict[str, Json]:
        return {
            "status": self.status,
            "detail": self.detail,
            "headers": dict(self.headers),
            "body": self.body,
        }


@record
class RouteRecord:
    """One error's evidence: the example sent (by fingerprint, method and target) and the reply."""

    id: str
    example: str
    untriggerable: str | None = None
    request: tuple[str, str] | None = None
    """(method, path with its query) as sent."""
    expected: tuple[int | None, str] | None = None
    """The (status, detail) the catalog said when probe ran."""
    reply: Reply | None = None
    reproduced: bool | None = None

    def as_data(self) -> dict[str, Json]:
        data: dict[str, Json] = {"id": self.id, "example": self.example}
        if self.untriggerable is not None:
            data["untriggerable"] = self.untriggerable
            return data
        if self.request is not None:
            data["request"] = {"method": self.request[0], "target": self.request[1]}
        if self.expected is not None:
            data["expected"] = {"status": self.expected[0], "detail": self.expected[1]}
        if self.reply is not None:
            data["observed"] = self.reply.as_data()
        data["reproduced"] = self.reproduced
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> RouteRecord:
        request, expected, observed = data.get("request"), data.get("expected"), data.get("observed")
        return cls(
            id=data["id"],
            example=data["example"],
            untriggerable=data.get("untriggerable"),
            request=(request["method"], request["target"]) if request else None,
            expected=(expected["status"], expected["detail"]) if expected else None,
            reply=Reply(**observed) if observed is not None else None,
            reproduced=data.get("reproduced"),
        )


@record
class RouteEvidence:
    """One routes catalog's evidence file."""

    catalog: str
    probed: str
    target: str
    source: Mapping[str, str]
    """`file:symbol` -> fingerprint of each symbol the catalog cited, when probe ran."""
    entries: tuple[RouteRecord, ...]
    file: str = ""
    document: LoadedYaml | None = field(default=None, compare=False)

    def records(self) -> dict[str, RouteRecord]:
        return {entry.id: entry for entry in self.entries}

    def line(self, *path: str | int) -> int | None:
        return self.document.line(path) if self.document is not None else None

    def record_line(self, entry_id: str) -> int | None:
        index = next((i for i, entry in enumerate(self.entries) if entry.id == entry_id), None)
        return self.line("entries", index) if index is not None else None

    def as_data(self) -> dict[str, Json]:
        return {
            "catalog": self.catalog,
            "probed": self.probed,
            "target": self.target,
            "source": dict(sorted(self.source.items())),
            "entries": [entry.as_data() for entry in self.entries],
        }


def parse_route_evidence(loaded: LoadedYaml, hint: str) -> RouteEvidence:
    """The evidence a loaded routes evidence file holds, checked against its schema."""
    validate(loaded, "routes-evidence", f"this file is written by probe: run `{hint}` again")
    data: Mapping[str, Any] = loaded.data
    return RouteEvidence(
        catalog=data["catalog"],
        probed=data["probed"],
        target=data["target"],
        source=dict(data["source"]),
        entries=tuple(RouteRecord.from_data(entry) for entry in data["entries"]),
        file=loaded.file,
        document=loaded,
    )


def route_fingerprints(sources: SourceFiles, catalog: RoutesCatalog) -> dict[str, str]:
    """`file:symbol` -> fingerprint of each function the catalog cites (its operations and raises)."""
    prints: dict[str, str] = {}
    for source in catalog.sources:
        for name in source.symbols:
            symbol = sources.symbol_or_none(source.path, name)
            prints[f"{source.path}:{name}"] = symbol.fingerprint if symbol else "missing"
    return prints
