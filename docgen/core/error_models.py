"""An errors catalog as a typed value: each call of a server's error constructor (`ErrorEntry`), with the
raise sites behind it when it sits in an `except` handler (`RaiseSite`), and the constants the calls use.

`from_data` reads data that has already passed the errors catalog's JSON Schema, so it trusts its types.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any, Literal

from docgen.core.model_base import Json, Source
from docgen.core.records import record


@record
class RaiseSite:
    """Where an exception that a handler turns into this error is raised, and with what message."""

    exception: str
    function: str
    file: str
    message: str
    line: int | None = field(default=None, compare=False)
    """The line now (for findings); never written, so that moving code is not drift."""

    def as_data(self) -> dict[str, Json]:
        return {
            "exception": self.exception,
            "function": self.function,
            "file": self.file,
            "message": self.message,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> RaiseSite:
        return cls(data["exception"], data["function"], data["file"], data["message"])


@record
class ErrorEntry:
    """One call of the error constructor: what a client sees, and where the code decides it."""

    id: str
    code: int | str | None
    """None when the catalog maps no code (a plain HTTP API), or when it is known only at run time."""
    status: int | None
    message: str
    function: str
    file: str
    conditions: tuple[str, ...] = ()
    data_keys: tuple[str, ...] = ()
    constants_used: tuple[str, ...] = ()
    draft_cause: str | None = None
    """The comment above the call, for editors to start the cause from."""
    dynamic: Mapping[str, str] = field(default_factory=dict)
    """Field -> the expression that gives it, for a code or status known only when the server runs."""
    path: tuple[str, ...] = ()
    """The configured function, then each helper called on the way to `function`; written only when there
    is a helper, and read back as `(function,)` when not written."""
    raises: tuple[RaiseSite, ...] = ()
    """When the call sits in an `except` handler: where the exceptions it catches are raised."""
    raises_scope: str | None = None
    """`reachable` (raised in the code the `try` body reaches) or `anywhere` (in the loaded source)."""

    @property
    def reached_by(self) -> tuple[str, ...]:
        """The path from the configured function to `function`, at least `function` itself."""
        return self.path or (self.function,)

    def as_data(self) -> dict[str, Json]:
        data: dict[str, Json] = {"id": self.id}
        if self.code is not None:
            data["code"] = self.code
        if self.status is not None:
            data["status"] = self.status
        data |= {
            "message": self.message,
            "function": self.function,
            "file": self.file,
            "conditions": list(self.conditions),
            "data_keys": list(self.data_keys),
            "constants_used": list(self.constants_used),
        }
        if self.draft_cause:
            data["draft_cause"] = self.draft_cause
        if self.dynamic:
            data["dynamic"] = dict(self.dynamic)
        if len(self.reached_by) > 1:  # reached through helpers; otherwise the path is `function` alone
            data["path"] = list(self.reached_by)
        if self.raises_scope is not None:
            data["raises_scope"] = self.raises_scope
            data["raises"] = [site.as_data() for site in self.raises]
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> ErrorEntry:
        return cls(
            id=data["id"],
            code=data.get("code"),
            status=data.get("status"),
            message=data["message"],
            function=data["function"],
            file=data["file"],
            conditions=tuple(data.get("conditions") or ()),
            data_keys=tuple(data.get("data_keys") or ()),
            constants_used=tuple(data.get("constants_used") or ()),
            draft_cause=data.get("draft_cause"),
            dynamic=dict(data.get("dynamic") or {}),
            path=tuple(data.get("path") or (data["function"],)),
            raises=tuple(RaiseSite.from_data(site) for site in data.get("raises") or ()),
            raises_scope=data.get("raises_scope"),
        )


@record
class ErrorsCatalog:
    """Every error a server's configured functions can answer with, and the constants they use."""

    name: str
    sources: tuple[Source, ...]
    constants: Mapping[str, Json]
    entries: tuple[ErrorEntry, ...]
    kind: Literal["errors"] = field(default="errors", init=False)

    def note_ids(self) -> tuple[str, ...]:
        """The ids editors key their notes by: the entries', in catalog order."""
        return tuple(entry.id for entry in self.entries)

    def as_data(self) -> dict[str, Json]:
        return {
            "catalog": self.name,
            "kind": self.kind,
            "sources": [source.as_data() for source in self.sources],
            "constants": dict(self.constants),
            "entries": [entry.as_data() for entry in self.entries],
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> ErrorsCatalog:
        return cls(
            name=data["catalog"],
            sources=tuple(Source.from_data(source) for source in data["sources"]),
            constants=dict(data["constants"]),
            entries=tuple(ErrorEntry.from_data(entry) for entry in data["entries"]),
        )


def entries_by_id(entries: Sequence[ErrorEntry]) -> dict[str, ErrorEntry]:
    return {entry.id: entry for entry in entries}
