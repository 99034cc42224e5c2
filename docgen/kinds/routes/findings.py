"""Routes catalogs in check: what changed in the operations and their errors since the catalog was
committed, whether the OpenAPI fragment is current, and whether the committed OpenAPI document lists what
the code raises.

Findings about an operation point at its route's line in the source, so that a pull request that adds a
raise of an HTTP error behind a route is annotated where the route is declared.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from docgen.check.kind_stage import FIX
from docgen.core.catalog_config import CatalogConfig
from docgen.core.findings import Finding, Kind
from docgen.core.models import Operation, RouteError, RoutesCatalog
from docgen.core.project import CommittedCatalog, Project
from docgen.extract.pipeline import Extraction
from docgen.extract.resolve import Resolver
from docgen.extract.routes import framework_named
from docgen.kinds.routes.catalog import OperationLine, RoutesExtraction, operations_named, undetermined_groups
from docgen.kinds.routes.openapi import documented_statuses

Key = tuple[str, str]


def routes_findings(
    project: Project, extraction: Extraction, name: str, fresh: RoutesCatalog
) -> Iterator[Finding]:
    """Every finding about routes catalog `name`."""
    committed = project.committed[name]
    found = extraction.results[name]
    assert isinstance(found, RoutesExtraction)  # what the routes kind extracts
    lines = {(line.method, line.path): line for line in found.lines}
    if committed is not None and isinstance(committed.catalog, RoutesCatalog):
        yield from _RoutesDrift(committed, fresh, lines, found.sites).findings()
    config = project.settings.catalogs[name]
    yield from _unused_statements(config, fresh, name, found.statements)
    config_file = config.config_file
    for method, path, expression, reason, file, line in found.unread:
        yield Finding(
            Kind.RUN_TIME_VALUE_UNSTATED,
            file,
            line,
            expression,
            f"{method.upper()} {path}: the path uses `{expression}`, which cannot be read statically "
            f"({reason}); the OpenAPI fragment leaves the operation out",
            f"state its value in {config_file}, catalog {name}, `run_time_values: [{{expression: "
            f"{expression}, value: ...}}]`",
        )
    yield from _statuses_unread(fresh, found.sites, name, config.config_file)
    for (file, line, expression, reason), operations in undetermined_groups(found.undetermined).items():
        yield Finding(
            Kind.RUN_TIME_VALUE_UNSTATED,
            file,
            line,
            expression,
            f"`{expression}` decides which errors the framework answers for {operations_named(operations)} "
            f"and cannot be read statically ({reason}); the errors it decides are not listed",
            f"state the classes it names in {config_file}, catalog {name}, `run_time_values: [{{expression: "
            f"{expression}, value: [package.module.Class]}}]`",
        )
    yield from _unfollowed(found)
    fragment = project.settings.relative(project.settings.fragment_path(name))
    if project.fragments.get(name) != extraction.outputs[fragment]:
        message = "the OpenAPI fragment is out of date" if project.fragments.get(name) else "not written yet"
        yield Finding(Kind.CATALOG_STALE, fragment, None, name, message, f"run `{FIX}`")
    document = project.openapi.get(name)
    config = project.settings.catalogs[name]
    if document is not None and config.openapi is not None:
        yield from openapi_findings(document, config.openapi, fresh, lines, fragment)


class _RoutesDrift:
    def __init__(
        self,
        committed: CommittedCatalog,
        fresh: RoutesCatalog,
        lines: Mapping[Key, OperationLine],
        raises: Mapping[str, tuple[str, int]],
    ) -> None:
        assert isinstance(committed.catalog, RoutesCatalog)
        self.committed = committed
        self.before = committed.catalog
        self.fresh = fresh
        self.lines = lines
        self.raises = raises

    def findings(self) -> Iterator[Finding]:
        self.old = {error.id: error for error in self.before.errors}
        self.new = {error.id: error for error in self.fresh.errors}
        self.old_operations = {(o.method, o.path): o for o in self.before.operations}
        yield from self._operations_now()
        yield from self._errors_before()
        yield from self._operations_before()

    def _operations_now(self) -> Iterator[Finding]:
        """Errors an operation answers with that it did not, and operations that are new."""
        for operation in self.fresh.operations:
            previous = self.old_operations.get((operation.method, operation.path))
            known = {error_id for error_id, _ in previous.errors} if previous is not None else set()
            for error_id, via in operation.errors:
                if error_id not in known:
                    yield self._added(operation, self.new[error_id], via)
            if previous is None:
                yield self._at_route(operation, Kind.ROUTE_CHANGED, "is a new operation")

    def _errors_before(self) -> Iterator[Finding]:
        """Errors no route raises any more, and errors whose status or detail changed."""
        for index, error in enumerate(self.before.errors):
            changed = self.new.get(error.id)
            if changed is None:
                line = self.committed.document.line(("errors", index))
                message = f"this error ({error.status} {error.detail!r}) is no longer raised by any route"
                yield Finding(
                    Kind.ROUTE_ERROR_REMOVED, self.committed.file, line, error.id, message, f"run `{FIX}`"
                )
            elif (error.status, error.detail) != (changed.status, changed.detail):
                file, line = self.raises[error.id]
                message = "the status or detail changed"
                was, now = f"{error.status} {error.detail}", f"{changed.status} {changed.detail}"
                yield Finding(
                    Kind.ROUTE_CHANGED, file, line, error.id, message, f"run `{FIX}`", old=was, new=now
                )

    def _operations_before(self) -> Iterator[Finding]:
        """Operations that are gone, and errors an operation no longer answers with (raised elsewhere)."""
        for index, operation in enumerate(self.before.operations):
            key = (operation.method, operation.path)
            if key not in self.lines:
                line = self.committed.document.line(("operations", index))
                message = f"{key[0].upper()} {key[1]} is no longer declared"
                subject = f"{key[0]} {key[1]}"
                yield Finding(Kind.ROUTE_CHANGED, self.committed.file, line, subject, message, f"run `{FIX}`")
                continue
            now = _operation(self.fresh, key)
            gone = {e for e, _ in operation.errors} - {e for e, _ in now.errors}
            for error_id in sorted(gone & set(self.new)):
                yield self._at_route(now, Kind.ROUTE_CHANGED, f"no longer answers {error_id}")

    def _added(self, operation: Operation, error: RouteError, via: tuple[str, ...]) -> Finding:
        where = " → ".join(part.rsplit(".", 1)[-1] for part in via)
        message = f"can now answer {error.status} {error.detail!r} (raised through {where})"
        return self._at_route(operation, Kind.ROUTE_ERROR_ADDED, message, subject=error.id)

    def _at_route(
        self, operation: Operation, kind: Kind, message: str, *, subject: str | None = None
    ) -> Finding:
        line = self.lines[(operation.method, operation.path)]
        shown = subject or f"{operation.method} {operation.path}"
        return Finding(
            kind,
            line.file,
            line.line,
            shown,
            f"{operation.method.upper()} {operation.path} {message}",
            f"run `{FIX}`",
        )


def _unfollowed(found: RoutesExtraction) -> Iterator[Finding]:
    """What extract could not follow, so that the catalog lacks what is behind it: a router included by an
    expression it cannot resolve, a call past the depth bound. Extract says each; check fails on each, so
    that a gap is never passed as clean."""
    for expression, reason, file, line in found.unfollowed:
        message = f"{expression} cannot be followed: {reason}; the routes it adds are not listed"
        hint = "include it by a name docgen can follow, or give it a catalog of its own (`source:`, `app:`)"
        yield Finding(Kind.SOURCE_UNFOLLOWED, file, line, expression, message, hint)
    for where, at, message in found.cuts:
        hint = "what is raised below this call is not listed; call a shallower helper, or document it by hand"
        yield Finding(Kind.SOURCE_UNFOLLOWED, where, at, "call depth", message, hint)


def _unused_statements(
    config: CatalogConfig, fresh: RoutesCatalog, name: str, classes: frozenset[str]
) -> Iterator[Finding]:
    """A value `run_time_values:` states for an expression no path, status, detail or list of classes
    (`classes`) uses any more (the code now gives it otherwise, or no longer uses it): the statement is
    stale."""
    taken = [*(a for o in fresh.operations for a in o.assumed), *(a for e in fresh.errors for a in e.assumed)]
    used = {value.expression for value in taken if value.source.startswith("stated in ")} | classes
    for expression, _value in config.run_time_values:
        if expression not in used:
            line = config.lines.get(f"run_time_values.{expression}")
            message = f"run_time_values states `{expression}`, which catalog {name} no longer needs"
            hint = "delete the statement, or write the expression as the source now has it"
            yield Finding(Kind.RUN_TIME_VALUE_STALE, config.config_file, line, expression, message, hint)


def _statuses_unread(
    fresh: RoutesCatalog, sites: Mapping[str, tuple[str, int]], name: str, config_file: str
) -> Iterator[Finding]:
    """An error whose status docgen cannot read (a variable, a call, a parameter of a helper), at its raise
    or return: the page shows `?` and the OpenAPI fragment leaves it out until the status is stated."""
    hint = (
        "pass a status docgen can read (a number or a status constant), or state the expression that gives "
        f"it in {config_file}, catalog {name}, `run_time_values: [{{expression: ..., value: 409}}]`"
    )
    for error in fresh.errors:
        if error.status is None:
            file, line = sites.get(error.id, (error.file, 0))
            message = (
                f"{error.exception} '{error.detail}' has a status docgen cannot read statically; the page "
                "shows `?` and the OpenAPI fragment leaves the error out"
            )
            yield Finding(Kind.RUN_TIME_VALUE_UNSTATED, file, line or None, error.id, message, hint)


def _operation(catalog: RoutesCatalog, key: Key) -> Operation:
    return next(o for o in catalog.operations if (o.method, o.path) == key)


def openapi_findings(
    document: Mapping[str, Any],
    shown: str,
    catalog: RoutesCatalog,
    lines: Mapping[Key, OperationLine],
    fragment: str,
) -> Iterator[Finding]:
    """A status the code raises that `document` does not list for the operation, and an error status it
    lists that nothing raises (the framework's own statuses aside), each on the route's line."""
    listed = documented_statuses(document)
    guide = framework_named(catalog.framework, Resolver()).openapi_guide
    hint = f"merge {fragment} into the application's OpenAPI ({guide}), commit {shown}"
    unraised_hint = "remove it from the route's documented responses, or raise it where it applies"
    for operation in catalog.operations:
        key = (operation.method, operation.path)
        line, subject = lines[key], f"{operation.method} {operation.path}"
        raised = _raised_statuses(catalog, operation)
        statuses = listed.get(key)
        if statuses is None:
            if raised:
                message = f"{shown} has no operation {operation.method.upper()} {operation.path}"
                yield Finding(Kind.OPENAPI_UNDOCUMENTED, line.file, line.line, subject, message, hint)
            continue
        for status in sorted(set(raised) - statuses):
            details = "; ".join(repr(detail) for detail in raised[status])
            message = f"raises {status} ({details}), which {shown} does not list for this operation"
            yield Finding(Kind.OPENAPI_UNDOCUMENTED, line.file, line.line, subject, message, hint)
        unraised = {s for s in statuses if s >= 400} - set(raised) - set(catalog.automatic_statuses)
        for status in sorted(unraised):
            message = f"{shown} lists {status} for this operation, but nothing behind the route raises it"
            yield Finding(Kind.OPENAPI_UNRAISED, line.file, line.line, subject, message, unraised_hint)


def _raised_statuses(catalog: RoutesCatalog, operation: Operation) -> dict[int, list[str]]:
    """Each status the operation can answer with -> the details raised with it (unknown statuses aside)."""
    errors = {error.id: error for error in catalog.errors}
    raised: dict[int, list[str]] = {}
    for error_id, _ in operation.errors:
        error = errors[error_id]
        if error.status is not None:
            raised.setdefault(error.status, []).append(error.detail)
    return raised
