"""The catalogs as typed values: what extract builds, what the committed YAML is read back into.

A catalog file is plain data (`as_data` gives it, key for key, in the order it is written); everything else
in docgen works on these values. `from_data` reads data that has already passed the catalog's JSON Schema, so
it trusts the types the schema guarantees.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any, Literal, Protocol, TypeAlias, runtime_checkable

from generator.core.records import record

Json: TypeAlias = "bool | int | float | str | list[Json] | dict[str, Json] | None"
"""A value as YAML and JSON write it."""


@record
class Source:
    """A file a catalog draws on, with the symbols of it that the catalog cites."""

    path: str
    symbols: tuple[str, ...]

    def as_data(self) -> dict[str, Json]:
        return {"path": self.path, "symbols": list(self.symbols)}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Source:
        return cls(str(data["path"]), tuple(data["symbols"]))


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


@record
class Parameter:
    """A parameter of a tool, resource or prompt, as a client passes it."""

    name: str
    type: str
    required: bool
    default: Json
    description: str

    def as_data(self) -> dict[str, Json]:
        return {
            "name": self.name,
            "type": self.type,
            "required": self.required,
            "default": self.default,
            "description": self.description,
        }


@record
class Tool:
    """A tool, resource or prompt the server publishes, read from its decorator and docstring."""

    name: str
    function: str
    description: str
    parameters: tuple[Parameter, ...]
    uri_template: str | None = None
    """Resources only: the URI they answer."""

    def as_data(self) -> dict[str, Json]:
        data: dict[str, Json] = {"name": self.name, "function": self.function}
        if self.uri_template is not None:
            data["uri_template"] = self.uri_template
        data["description"] = self.description
        data["parameters"] = [parameter.as_data() for parameter in self.parameters]
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Tool:
        return cls(
            name=data["name"],
            function=data["function"],
            description=data["description"],
            parameters=tuple(Parameter(**parameter) for parameter in data["parameters"]),
            uri_template=data.get("uri_template"),
        )


TOOL_KINDS = ("tools", "resources", "prompts")


@record
class ToolsCatalog:
    """The tools, resources and prompts a server publishes, each list in source order."""

    name: str
    sources: tuple[Source, ...]
    tools: tuple[Tool, ...]
    resources: tuple[Tool, ...]
    prompts: tuple[Tool, ...]
    kind: Literal["tools"] = field(default="tools", init=False)

    def items(self, kind: str) -> tuple[Tool, ...]:
        """The list of one of `TOOL_KINDS`."""
        lists = {"tools": self.tools, "resources": self.resources, "prompts": self.prompts}
        return lists[kind]

    def as_data(self) -> dict[str, Json]:
        data: dict[str, Json] = {
            "catalog": self.name,
            "kind": self.kind,
            "sources": [source.as_data() for source in self.sources],
        }
        for kind in TOOL_KINDS:
            data[kind] = [item.as_data() for item in self.items(kind)]
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> ToolsCatalog:
        lists = {kind: tuple(Tool.from_data(item) for item in data[kind]) for kind in TOOL_KINDS}
        return cls(
            name=data["catalog"],
            sources=tuple(Source.from_data(source) for source in data["sources"]),
            tools=lists["tools"],
            resources=lists["resources"],
            prompts=lists["prompts"],
        )


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
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> RouteError:
        return cls(**{key: data[key] for key in data})


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

    def as_data(self) -> dict[str, Json]:
        return {
            "method": self.method,
            "path": self.path,
            "function": self.function,
            "file": self.file,
            "dependencies": list(self.dependencies),
            "errors": [{"id": error, "via": list(via)} for error, via in self.errors],
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Operation:
        return cls(
            method=data["method"],
            path=data["path"],
            function=data["function"],
            file=data["file"],
            dependencies=tuple(data["dependencies"]),
            errors=tuple((error["id"], tuple(error["via"])) for error in data["errors"]),
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


class Catalog(Protocol):
    """What every catalog value gives, whatever its kind: the stages hand catalogs on by this, and the kind
    that built one (`generator/core/kinds.py`) is what reads the rest of it."""

    @property
    def name(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def sources(self) -> tuple[Source, ...]:
        """The files (and symbols) it was extracted from."""
        ...

    def as_data(self) -> dict[str, Json]:
        """Its file's plain data, key for key in the written order."""
        ...


class NotedCatalog(Catalog, Protocol):
    """A catalog whose items editors write notes for, keyed by the items' ids."""

    def note_ids(self) -> tuple[str, ...]: ...


@runtime_checkable
class WithConstants(Protocol):
    """A catalog that carries the constants of its source, which notes may use (an errors catalog does)."""

    @property
    def constants(self) -> Mapping[str, Json]: ...


def constants_of(catalog: Catalog) -> Mapping[str, Json]:
    """The constants `catalog` carries; none for a catalog of a kind that carries none."""
    return catalog.constants if isinstance(catalog, WithConstants) else {}


def entries_by_id(entries: Sequence[ErrorEntry]) -> dict[str, ErrorEntry]:
    return {entry.id: entry for entry in entries}
