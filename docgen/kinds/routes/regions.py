"""The region only a routes catalog fills: the errors each operation can answer with."""

from __future__ import annotations

import dataclasses
import html
import posixpath
import re
from typing import Any

from docgen.core.models import RouteError, RoutesCatalog
from docgen.core.records import record
from docgen.kinds.routes.replies import replies_context
from docgen.render.context import json_href, render_entry_notes
from docgen.render.inputs import RenderInputs
from docgen.render.kind_stage import Builder, Context
from docgen.render.regions import Region


@record
class RouteRow:
    """One row of the route table: an error one operation can answer with, its fields read through as they
    are (`row.status`, `row.detail`, `row.handler`: every field of `RouteError`), and what the row adds."""

    error: RouteError
    method: str
    """Upper case, as a request line writes it."""
    path: str
    detail_text: str
    """The detail as text for Markdown: `<`, `>` and `&` escaped."""
    via: list[str]
    """The functions that lead from the operation to the error (a list, as the catalog's data has it)."""
    cause: str | None
    """The notes' cause rendered, None for a gap."""
    action: str | None
    route_anchor: str
    """`route-<method>-<path>`, the operation's link target, written on its first row."""
    anchor: str
    """`<route_anchor>-<id>`, the row's link target."""
    first: bool
    """Whether this is the operation's first row."""
    condition: str | None = None
    """The condition the operation is registered under, as written; None when it always is."""

    def __getattr__(self, name: str) -> Any:
        # Reached only for a name the row itself lacks: the error's fields, as its template reads them.
        if name not in _ERROR_FIELDS:
            raise AttributeError(name)
        return getattr(self.error, name)


_ERROR_FIELDS = frozenset(field.name for field in dataclasses.fields(RouteError))


def route_errors(inputs: RenderInputs, region: Region, page: str, context: Context) -> Context:
    """`rows`: per operation, in catalog order, each error it can answer with, by status, as a `RouteRow`;
    `json_href`; `openapi_file`, the OpenAPI fragment extract writes beside the catalog; `assumed`, the
    values the paths take on trust (each `AssumedValue` once); `replies`, what probe recorded of the
    examples (`docgen.kinds.routes.replies`), None without evidence."""
    name = str(context["catalog_name"])
    catalog = inputs.catalogs[name]
    assert isinstance(catalog, RoutesCatalog)  # render hands a kind's builders only its own catalogs
    errors = {error.id: error for error in catalog.errors}
    rows: list[RouteRow] = []
    for operation in catalog.operations:
        route = f"route-{operation.method}-" + re.sub(r"[^a-z0-9]+", "-", operation.path.lower()).strip("-")
        listed = sorted(operation.errors, key=lambda item: errors[item[0]].status or 0)
        for index, (error_id, via) in enumerate(listed):
            error = errors[error_id]
            cause, action = render_entry_notes(inputs, name, error_id)
            detail = html.escape(error.detail, quote=False)
            method, anchor = operation.method.upper(), f"{route}-{error_id}"
            rows.append(
                RouteRow(
                    error,
                    method,
                    operation.path,
                    detail,
                    list(via),
                    cause,
                    action,
                    route,
                    anchor,
                    index == 0,
                    operation.condition,
                )
            )
    openapi_file = posixpath.join(inputs.data_folder, f"{name}.openapi.json")
    assumed = list(dict.fromkeys(value for operation in catalog.operations for value in operation.assumed))
    return {
        "rows": rows,
        "json_href": json_href(page, name),
        "openapi_file": openapi_file,
        "assumed": assumed,
        "replies": replies_context(
            inputs, name, catalog, {(f"{r.method} {r.path}", r.error.id): r.anchor for r in rows}
        ),
    }


REGIONS: dict[str, Builder] = {"route-errors": route_errors}
