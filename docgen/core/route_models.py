"""A routes catalog as a typed value: the operations of an HTTP application (`Operation`) and every error
each can answer with (`RouteError`).

`from_data` reads data that has already passed the routes catalog's JSON Schema, so it trusts its types.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any, Literal

from docgen.core.model_base import Json, Source
from docgen.core.records import record

TEXT_BODY = ""
"""The `body_key` of an error whose whole body is its detail as plain text (aiohttp's HTTP exceptions send
`404: Not Found`, Starlette's its detail, not a JSON object): no key holds the detail."""
HTML_BODY = "<html>"
"""The `body_key` of an error the framework answers with an HTML page of its own (Werkzeug's), whose text
the application decides is the detail."""
BODY_MEDIA = {TEXT_BODY: "text/plain", HTML_BODY: "text/html"}
"""The media type of each body that is not a JSON object holding the detail under its key."""


@record
class AssumedValue:
    """A value a path, status or detail takes on trust: the expression as the source writes it, the value,
    and where it comes from (`default of app.core.config.Settings.API_V1_STR`: the environment may override
    it; `stated in mkdocs.yml`)."""

    expression: str
    value: Json
    source: str

    def as_data(self) -> dict[str, Json]:
        return {"expression": self.expression, "value": self.value, "source": self.source}


@record
class RouteError:
    """One place an HTTP application raises an error: the status and body a client receives."""

    id: str
    status: int | None
    """None when the status cannot be told statically."""
    detail: str
    """The body's detail: text, or a template with `{placeholders}` for what is known at run time."""
    exception: str
    function: str
    file: str
    handler: str | None = None
    """The exception handler that turns the exception into the response, if one does."""
    body_key: str = "detail"
    """The key of the JSON body that holds the detail (dotted when nested), or one of BODY_MEDIA's (a
    plain-text body, an HTML page)."""
    assumed: tuple[AssumedValue, ...] = ()
    """Values the status or detail takes on trust (a settings default, a value the configuration states)."""

    def as_data(self) -> dict[str, Json]:
        data: dict[str, Json] = {
            "id": self.id,
            "status": self.status,
            "detail": self.detail,
            "exception": self.exception,
            "function": self.function,
            "file": self.file,
        }
        if self.handler is not None:
            data["handler"] = self.handler
        data["body_key"] = self.body_key
        if self.assumed:
            data["assumed"] = [value.as_data() for value in self.assumed]
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> RouteError:
        fields = {key: data[key] for key in data if key != "assumed"}
        return cls(**fields, assumed=tuple(AssumedValue(**value) for value in data.get("assumed", ())))


@record
class UnreadValue:
    """A part of an operation's path that cannot be read statically (kept in the path in braces)."""

    expression: str
    reason: str

    def as_data(self) -> dict[str, Json]:
        return {"expression": self.expression, "reason": self.reason}


@record
class Operation:
    """One HTTP operation and the errors it can answer with, each with the functions that lead to it."""

    method: str
    path: str
    function: str
    file: str
    dependencies: tuple[str, ...]
    errors: tuple[tuple[str, tuple[str, ...]], ...]
    """(error id, the functions from the route's to the raise), in the order the code reaches them."""
    condition: str | None = None
    """The condition the operation is registered under (`settings.ENVIRONMENT == 'local'`)."""
    assumed: tuple[AssumedValue, ...] = ()
    unresolved: tuple[UnreadValue, ...] = ()

    def as_data(self) -> dict[str, Json]:
        data: dict[str, Json] = {"method": self.method, "path": self.path}
        if self.condition is not None:
            data["condition"] = self.condition
        data.update(function=self.function, file=self.file, dependencies=list(self.dependencies))
        if self.assumed:
            data["assumed"] = [value.as_data() for value in self.assumed]
        if self.unresolved:
            data["unresolved"] = [value.as_data() for value in self.unresolved]
        data["errors"] = [{"id": error, "via": list(via)} for error, via in self.errors]
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Operation:
        return cls(
            method=data["method"],
            path=data["path"],
            function=data["function"],
            file=data["file"],
            dependencies=tuple(data["dependencies"]),
            errors=tuple((error["id"], tuple(error["via"])) for error in data["errors"]),
            condition=data.get("condition"),
            assumed=tuple(AssumedValue(**value) for value in data.get("assumed", ())),
            unresolved=tuple(UnreadValue(**value) for value in data.get("unresolved", ())),
        )


@record
class RoutesCatalog:
    """The operations of an HTTP application and every error each can answer with."""

    name: str
    framework: str
    automatic_statuses: tuple[int, ...]
    """Statuses the framework documents by itself, which check does not ask the code to raise."""
    sources: tuple[Source, ...]
    errors: tuple[RouteError, ...]
    operations: tuple[Operation, ...]
    kind: Literal["routes"] = field(default="routes", init=False)

    def note_ids(self) -> tuple[str, ...]:
        """The ids editors key their notes by: the errors', in catalog order."""
        return tuple(error.id for error in self.errors)

    def as_data(self) -> dict[str, Json]:
        return {
            "catalog": self.name,
            "kind": self.kind,
            "framework": self.framework,
            "automatic_statuses": list(self.automatic_statuses),
            "sources": [source.as_data() for source in self.sources],
            "errors": [error.as_data() for error in self.errors],
            "operations": [operation.as_data() for operation in self.operations],
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> RoutesCatalog:
        return cls(
            name=data["catalog"],
            framework=data["framework"],
            automatic_statuses=tuple(data["automatic_statuses"]),
            sources=tuple(Source.from_data(source) for source in data["sources"]),
            errors=tuple(RouteError.from_data(error) for error in data["errors"]),
            operations=tuple(Operation.from_data(operation) for operation in data["operations"]),
        )
