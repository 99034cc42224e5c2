"""The example requests of a routes catalog's notes: an HTTP request to one of the application's operations.

An error of a routes catalog can carry `example:` in `data/<catalog>.notes.yaml`, naming the request that
gets it: `path` (the operation's path with its parameters filled in), and as the request needs, `method`,
`query`, `headers` and `body` (JSON) or `raw` (text). The path must name an operation that lists the error;
the method, when left out, is that operation's. `docgen probe` sends the request to the application and
records the answer. Nothing here touches the network or any file.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Mapping
from urllib.parse import urlencode

from docgen.core.errors import CatalogError
from docgen.core.models import Json
from docgen.core.notes import Notes, WrittenExample
from docgen.core.records import record
from docgen.core.route_models import Operation, RoutesCatalog
from docgen.examples.requests import Where

UNTAKEN = ("size", "repeat", "client_note")
"""Fields of an errors catalog's example that a routes catalog's example does not take."""
REQUEST = ("method", "path", "query", "headers", "body", "raw")
JSON_TYPE = ("Content-Type", "application/json")


@record
class RouteExample:
    """One error's example request to the application, resolved against the catalog's operations."""

    entry_id: str
    method: str = "GET"
    path: str = "/"
    query: tuple[tuple[str, str], ...] = ()
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""
    operation: str = ""
    """The operation the path names, as `METHOD /template`."""
    untriggerable: str | None = None

    @property
    def triggerable(self) -> bool:
        return self.untriggerable is None

    @property
    def target(self) -> str:
        """The path with its query string, as sent."""
        return f"{self.path}?{urlencode(self.query)}" if self.query else self.path

    @property
    def fingerprint(self) -> str:
        """Changes whenever what probe would send changes."""
        head = [self.method, self.target, [list(pair) for pair in self.headers], self.untriggerable]
        digest = hashlib.sha256(json.dumps(head, sort_keys=True).encode("utf-8"))
        digest.update(self.body)
        return f"sha256:{digest.hexdigest()[:16]}"


def route_examples(catalog: RoutesCatalog, notes: Notes) -> dict[str, RouteExample]:
    """Error id -> resolved example, in catalog order, for the errors whose notes have one."""
    written = notes.examples()
    found = {}
    for error in catalog.errors:
        if error.id in written:
            where = Where(notes.file, None, f"entries/{error.id}/example", notes.document)
            found[error.id] = resolve_route(error.id, written[error.id], catalog, where)
    return found


def resolve_route(entry_id: str, raw: WrittenExample, catalog: RoutesCatalog, where: Where) -> RouteExample:
    """Turn one `example:` of a routes catalog's notes into the request it describes."""
    _check_fields(raw, where)
    if raw.untriggerable is not None:
        return RouteExample(entry_id, untriggerable=str(raw.untriggerable).strip())
    assert raw.path is not None  # _check_fields asks for it
    method, operation = _operation(entry_id, raw, catalog, where)
    headers = dict(raw.headers)
    body = b""
    if "body" in raw.given:
        body = json.dumps(raw.body, ensure_ascii=False).encode("utf-8")
        if not any(name.lower() == "content-type" for name in headers):
            headers = {JSON_TYPE[0]: JSON_TYPE[1], **headers}
    elif raw.raw is not None:
        body = str(raw.raw).encode("utf-8")
    return RouteExample(
        entry_id,
        method,
        raw.path,
        tuple(_query_pairs(raw.query)),
        tuple(headers.items()),
        body,
        f"{operation.method.upper()} {operation.path}",
    )


def _check_fields(raw: WrittenExample, where: Where) -> None:
    problem, field, hint = None, None, "give `path` (with `method`, `query`, `headers`, `body` as needed)"
    if untaken := [name for name in UNTAKEN if name in raw.given]:
        field = untaken[0]
        problem = f"`{field}` is for an errors catalog's example; a routes catalog's example does not take it"
        hint = "delete it"
    elif "untriggerable" in raw.given:
        if extra := [name for name in REQUEST if name in raw.given]:
            problem = f"is untriggerable, yet describes a request ({', '.join(extra)})"
            hint = "keep `untriggerable` (why no request can get this error) or the request, not both"
    elif "path" not in raw.given:
        problem = "names no `path`: a routes catalog's example is a request to one of its operations"
    elif "body" in raw.given and "raw" in raw.given:
        field, problem = "raw", "has both `body` and `raw`"
        hint = "give `body` (JSON) or `raw` (the exact text), not both"
    if problem is not None:
        at = where.line_at(field) if field is not None else where.line_at()
        shown = f"{where.path}/{field}" if field is not None else where.path
        raise CatalogError(f"{shown}: the example {problem}", file=where.file, line=at, hint=hint)


def _operation(
    entry_id: str, raw: WrittenExample, catalog: RoutesCatalog, where: Where
) -> tuple[str, Operation]:
    """The example's method and the one operation listing the error that its path (and method) names."""
    assert raw.path is not None
    listing = [op for op in catalog.operations if any(error == entry_id for error, _via in op.errors)]
    by_path = [op for op in listing if path_pattern(op.path).fullmatch(raw.path)]
    method = raw.method.upper() if "method" in raw.given else None
    chosen = [op for op in by_path if method is None or op.method.upper() == method]
    if len(chosen) == 1:
        return method or chosen[0].method.upper(), chosen[0]
    listed = ", ".join(f"{op.method.upper()} {op.path}" for op in listing) or "none"
    if not chosen:
        asked = f"{method} {raw.path}" if method else raw.path
        problem = f"{asked} names no operation that lists this error"
        hint = f"the operations listing {entry_id}: {listed}; fill in their parameters"
    else:
        problem = f"{raw.path} names {len(chosen)} operations that list this error"
        hint = "add `method:` to say which: " + ", ".join(op.method.upper() for op in chosen)
    field = "method" if method is not None and by_path else "path"
    raise CatalogError(
        f"{where.path}/{field}: {problem}", file=where.file, line=where.line_at(field), hint=hint
    )


def path_pattern(template: str) -> re.Pattern[str]:
    """A path template (`/items/{item_id}`, `/files/{name:path}`) as a pattern the filled path matches."""
    parts = re.split(r"(\{[^{}]*\})", template)
    pattern = "".join(
        (".+" if part.endswith(":path}") else "[^/]+") if part.startswith("{") else re.escape(part)
        for part in parts
    )
    return re.compile(pattern)


def _query_pairs(query: Mapping[str, Json]) -> Iterator[tuple[str, str]]:
    for name, value in query.items():
        for one in value if isinstance(value, list) else [value]:
            yield name, _query_text(one)


def _query_text(value: Json) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
