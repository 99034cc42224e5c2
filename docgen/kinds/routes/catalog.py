"""A routes catalog: the operations of an HTTP application (found by its framework's route finder) and
the errors each can answer with (found by following its code), every raise site once with a stable id."""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping, Sequence
from http import HTTPStatus
from typing import TypeVar

import griffe

from docgen.core.errors import ConfigError, SourceError
from docgen.core.models import Operation, RouteError, RoutesCatalog, Source
from docgen.core.records import record
from docgen.core.route_models import AssumedValue, UnreadValue
from docgen.core.settings import CatalogConfig
from docgen.extract.detect import detected_framework
from docgen.extract.installed import require_installed
from docgen.extract.instance_defaults import instance_field
from docgen.extract.program import Program
from docgen.extract.raises import Raised, RaiseFinder, Reached, SiteKey, site_key
from docgen.extract.resolve import Resolver, as_json
from docgen.extract.routes import Endpoint, Framework, framework_named

MAX_ID = 48


@record
class OperationLine:
    """Where an operation is declared, for findings about it (never written to the catalog)."""

    method: str
    path: str
    file: str
    line: int


@record
class RoutesExtraction:
    """A routes catalog, and the source lines findings about it point at."""

    catalog: RoutesCatalog
    lines: tuple[OperationLine, ...]
    sites: dict[str, tuple[str, int]]
    """Error id -> the file and line of its raise."""
    unread: tuple[tuple[str, str, str, str, str, int], ...] = ()
    """(method, path, expression, reason, file, line): each part of an operation's path that cannot be
    read statically, where it is written, for check's finding and extract's notice."""
    undetermined: tuple[tuple[str, str, str, str, str, int], ...] = ()
    """The same for what decides an operation's framework errors and cannot be read (`Endpoint.undetermined`):
    its path is known, the errors those values decide are not listed."""
    statements: frozenset[str] = frozenset()
    """The `run_time_values:` expressions operations took as classes (`Endpoint.statements`)."""
    unfollowed: tuple[tuple[str, str, str, int], ...] = ()
    """(expression, reason, file, line): each router the framework could not follow where it is included
    (a framework's optional `unfollowed`), whose routes the catalog therefore lacks."""
    cut: tuple[str, ...] = ()
    """Each call the walks did not follow, past the depth bound, as extract tells it (`file:line: ...`):
    what is raised below it is not listed."""
    cuts: tuple[tuple[str, int | None, str], ...] = ()
    """(file, line, message) of each such call, for check's `source-unfollowed` findings."""


def routes_catalog(
    config: CatalogConfig, program: Program, previous: Sequence[RouteError], resolver: Resolver
) -> RoutesExtraction:
    """The routes catalog of `program`; errors keep the ids of `previous` where they are the same error."""
    stated = {expression: (value, config.config_file) for expression, value in config.run_time_values}
    resolver = Resolver(resolver.modules, instances=instance_field, stated=stated)
    try:
        if config.framework:
            framework = framework_named(config.framework, resolver)
        else:
            framework = detected_framework(config, program, resolver)
        require_installed(framework, program, resolver, config)
        endpoints = framework.endpoints(program, config.app)
    except ConfigError as err:
        err.file = config.config_file  # the configuration actually read (under --config, that file)
        raise
    if not endpoints:
        raise _no_routes(framework, config)
    finder = RaiseFinder(program, framework, framework.handlers(program))
    reached = [finder.operation_errors(endpoint) for endpoint in endpoints]
    sites = _distinct_sites(reached)
    ids = assign_route_ids(sites, previous)
    errors = tuple(_error(site, ids[key]) for key, site in sites.items())
    operations = tuple(
        _operation(endpoint, found, ids) for endpoint, found in zip(endpoints, reached, strict=True)
    )
    catalog = RoutesCatalog(
        name=config.name,
        framework=framework.name,
        automatic_statuses=tuple(sorted(framework.automatic_statuses)),
        sources=_sources(endpoints, list(sites.values()), program),
        errors=errors,
        operations=operations,
    )
    lines = tuple(OperationLine(e.method, e.path, e.file, e.line) for e in endpoints)
    unread = tuple(
        (e.method, e.path, u.expression, u.reason, u.file, u.line) for e in endpoints for u in e.unread
    )
    undetermined = tuple(
        (e.method, e.path, u.expression, u.reason, u.file, u.line) for e in endpoints for u in e.undetermined
    )
    statements = frozenset(s for e in endpoints for s in e.statements)
    unfollowed = tuple((u.expression, u.reason, u.file, u.line) for u in getattr(framework, "unfollowed", ()))
    cut = _cut_notice(finder)
    cuts = tuple(
        (error.file or config.config_file, error.line, error.message) for error in finder.cuts.values()
    )
    return RoutesExtraction(
        catalog,
        lines,
        {ids[key]: key[:2] for key in sites},
        unread,
        undetermined,
        statements,
        unfollowed,
        cut,
        cuts,
    )


def _no_routes(framework: Framework, config: CatalogConfig) -> SourceError:
    """The error for a source in which no route is found: at the first thing docgen could not follow, when
    there is one (`path("api/", api_router.urls)` of a router it cannot read), else at the configuration."""
    unfollowed = list(getattr(framework, "unfollowed", ()))
    found = f"no {framework.name} routes found in {config.source}"
    if unfollowed:
        first = unfollowed[0]
        more = f" (and {len(unfollowed) - 1} more such)" if len(unfollowed) > 1 else ""
        return SourceError(
            f"{found}: {first.expression} cannot be followed{more}: {first.reason}",
            file=first.file,
            line=first.line,
            hint="declare the routes in a way docgen reads (README: the framework's section), or point "
            "'source:' at another module",
        )
    return SourceError(
        found,
        file=config.config_file,
        hint="point 'source:' at the module that builds the application; its routers are read from there",
    )


def _cut_notice(finder: RaiseFinder) -> tuple[str, ...]:
    """One line for the calls the walks left out past the depth bound: the first, and how many more."""
    if not finder.cuts:
        return ()
    first, *others = finder.cuts.values()
    more = f", and {len(others)} more such call(s)" if others else ""
    operations = operations_named(list(finder.cut_operations))
    return (
        f"{first.location}: {first.message}{more}; these calls are not followed, so what they raise is "
        f"not listed for {operations}",
    )


def undetermined_groups(
    undetermined: Sequence[tuple[str, str, str, str, str, int]],
) -> dict[tuple[str, int, str, str], list[str]]:
    """(file, line, expression, reason) -> the operations (`GET /users/`) whose path or errors it decides:
    one value a router or a view sets is reported once, not once per operation."""
    groups: dict[tuple[str, int, str, str], list[str]] = {}
    for method, path, expression, reason, file, line in undetermined:
        groups.setdefault((file, line, expression, reason), []).append(f"{method.upper()} {path}")
    return groups


def operations_named(operations: Sequence[str], most: int = 3) -> str:
    """`GET /a, POST /b and 16 more`."""
    shown = ", ".join(operations[:most])
    return shown if len(operations) <= most else f"{shown} and {len(operations) - most} more"


def _distinct_sites(reached: Sequence[Sequence[Reached]]) -> dict[SiteKey, Raised]:
    sites: dict[SiteKey, Raised] = {}
    for found in reached:
        for item in found:
            sites.setdefault(site_key(item.raised), item.raised)
    return dict(sorted(sites.items()))


def _error(site: Raised, error_id: str) -> RouteError:
    return RouteError(
        id=error_id,
        status=site.status,
        detail=site.detail,
        exception=site.exception,
        function=site.function,
        file=site.file,
        handler=site.handler,
        body_key=site.body_key,
        assumed=tuple(AssumedValue(a.expression, as_json(a.value), a.source) for a in site.assumed),
    )


def _operation(endpoint: Endpoint, found: Sequence[Reached], ids: dict[SiteKey, str]) -> Operation:
    errors = tuple((ids[site_key(item.raised)], item.via) for item in found)
    return Operation(
        method=endpoint.method,
        path=endpoint.path,
        function=endpoint.function.path,
        file=endpoint.file,
        dependencies=tuple(dependency.path for dependency in endpoint.dependencies),
        errors=errors,
        condition=endpoint.condition,
        assumed=tuple(AssumedValue(a.expression, as_json(a.value), a.source) for a in endpoint.assumed),
        unresolved=tuple(UnreadValue(u.expression, u.reason) for u in endpoint.unread),
    )


_Key = TypeVar("_Key", bound=Hashable)


def assign_route_ids(
    sites: Mapping[_Key, Raised],
    previous: Sequence[RouteError],
) -> dict[_Key, str]:
    """A stable id per raise site: the id of the committed error with the same function, status and detail
    (else the same function and detail, else the same status and detail, else the same function and
    status: a reworded detail), otherwise a new one (`_fresh_id`). Each pass runs over every site before
    the next, so an exact match is never taken by a looser one."""
    taken: set[str] = set()
    ids: dict[_Key, str] = {}
    keys = (
        lambda e: (e.function, e.status, e.detail),
        lambda e: (e.function, e.detail),
        lambda e: (e.status, e.detail),
        lambda e: (e.function, e.status),
    )
    for same in keys:
        for key, site in sites.items():
            if key in ids:
                continue
            match = next(
                (old.id for old in previous if old.id not in taken and same(old) == same(site)), None
            )
            if match is not None:
                ids[key] = match
                taken.add(match)
    for key, site in sites.items():
        if key not in ids:
            ids[key] = _fresh_id(site, taken)
            taken.add(ids[key])
    return ids


def _fresh_id(site: Raised, taken: set[str]) -> str:
    """A new error's id: the application's own exception class (`ItemNotFound` -> `item-not-found`), else,
    for what the framework offers every application, the status and detail. Only new errors get one: a kept
    id never changes."""
    name = site.exception.rsplit(".", 1)[-1]
    if name and not site.generic:
        base = _at_most(re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", name).lower().strip("-"))
    else:
        words = _words(site.detail) or _words(_phrase(site.status))
        base = _at_most(f"{site.status or 'status'}-{words or 'unknown'}")
    candidate, number = base, 2
    while candidate in taken:
        candidate, number = f"{base}-{number}", number + 1
    return candidate


def _words(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _phrase(status: int | None) -> str:
    """The status's reason phrase (`Bad Request`), what names an error answered without a body, as
    `Response(status=400)` is; empty for a status HTTP does not name."""
    try:
        return HTTPStatus(status).phrase if status is not None else ""
    except ValueError:
        return ""


def _at_most(slug: str) -> str:
    """`slug` cut to `MAX_ID` characters at the end of a word, so that an id does not end in half a word
    (`404-the-requested-url-was-not-found-on-the`, not `...-on-the-serve`); where the last whole word would
    leave less than half of that, as a very long word does, it is cut where the limit falls."""
    if len(slug) <= MAX_ID:
        return slug
    cut = slug[: MAX_ID + 1].rsplit("-", 1)[0]
    return cut if len(cut) >= MAX_ID // 2 else slug[:MAX_ID]


def _sources(endpoints: Sequence[Endpoint], sites: Sequence[Raised], program: Program) -> tuple[Source, ...]:
    """The files the catalog comes from, each with the routes' and raising functions defined there."""
    by_file: dict[str, list[str]] = {}
    functions: list[griffe.Function | griffe.Class] = [endpoint.function for endpoint in endpoints]
    for site in sites:
        raising = program.function(site.function)
        if raising is not None:
            functions.append(raising)
    for function in functions:
        local = function.path.removeprefix(f"{function.module.path}.")
        symbols = by_file.setdefault(program.file(function), [])
        if local not in symbols:
            symbols.append(local)
    return tuple(Source(path, tuple(symbols)) for path, symbols in sorted(by_file.items()))
