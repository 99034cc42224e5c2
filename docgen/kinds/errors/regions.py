"""The regions only an errors catalog fills (the error table, its examples, how the clients and the
specification differ from it) and what the shared regions ask of it: the page header's evidence count, the
helpers a based-on list cites, and which table row an edited line is."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

from docgen.core.models import ErrorEntry, ErrorsCatalog
from docgen.core.notes import in_notes_order
from docgen.core.records import record
from docgen.kinds.errors.changelog import changelog_context
from docgen.render.context import json_href, render_entry_notes, stated_context
from docgen.render.evidence_context import (
    client_differences_region,
    error_examples,
    header_evidence,
    spec_differences,
)
from docgen.render.inputs import RenderInputs
from docgen.render.kind_stage import Builder, Context
from docgen.render.regions import Region

_ROW_ANCHOR = re.compile(r'<a id="err-(?P<id>[^"]+)"></a>')
"""The anchor `error-table.md.j2` writes at the start of each entry's row."""


def _errors(inputs: RenderInputs, context: Context) -> tuple[str, ErrorsCatalog]:
    name = str(context["catalog_name"])
    catalog = inputs.catalogs[name]
    assert isinstance(catalog, ErrorsCatalog)  # render hands a kind's builders only its own catalogs
    return name, catalog


@record
class ErrorRow:
    """One row of the error table: the catalog's entry, read through as it is (`row.code`, `row.dynamic`,
    `row.raises`: every field of `ErrorEntry`, typed, so that a field the catalog's file leaves out is still
    there, None or empty; `conditions` only where the configuration publishes them), and what the row adds."""

    entry: ErrorEntry
    anchor: str
    """`err-<id>`, the row's link target."""
    cause: str | None
    """The notes' cause rendered, None for a gap (then the row shows `draft_cause`, the code's comment)."""
    action: str | None
    show_raises: bool
    """The notes ask for the row to say where the exceptions behind its handler are raised."""
    stated: dict[str, Any]
    """Field -> `value` (a list), `expression`, `because`: the notes' statement of a value set at run time."""
    published: bool
    """Whether the configuration publishes the entry's `conditions` (`publish_conditions: true`)."""

    def __getattr__(self, name: str) -> Any:
        # Reached only for a name the row itself lacks: the entry's fields, as its template reads them.
        if name not in _ENTRY_FIELDS or (name == "conditions" and not self.published):
            raise AttributeError(name)
        return getattr(self.entry, name)


_ENTRY_FIELDS = frozenset(field.name for field in dataclasses.fields(ErrorEntry))


def error_table(inputs: RenderInputs, region: Region, page: str, context: Context) -> Context:
    """The entries in the notes' order, each an `ErrorRow`, and the columns the table has."""
    name, catalog = _errors(inputs, context)
    notes = inputs.notes_of(name)
    rows = []
    for entry in in_notes_order(catalog.entries, notes, lambda entry: entry.id):
        cause, action = render_entry_notes(inputs, name, entry.id)
        show_raises = notes.entry(entry.id).show_raises
        stated = stated_context(inputs, name, entry)
        published = name in inputs.publish_conditions
        rows.append(ErrorRow(entry, f"err-{entry.id}", cause, action, show_raises, stated, published))
    return {"entries": rows, "columns": _columns(rows), "json_href": json_href(page, name)}


def _columns(rows: list[ErrorRow]) -> dict[str, bool]:
    """Which of the code and status columns the table has: those some entry states, or sets at run time."""
    return {
        "code": any(row.entry.code is not None or "code" in row.entry.dynamic for row in rows),
        "status": any(row.entry.status is not None or "status" in row.entry.dynamic for row in rows),
    }


def _examples(inputs: RenderInputs, region: Region, page: str, context: Context) -> Context:
    return error_examples(inputs, *_errors(inputs, context))


def _clients(inputs: RenderInputs, region: Region, page: str, context: Context) -> Context:
    return client_differences_region(inputs, *_errors(inputs, context))


def _spec(inputs: RenderInputs, region: Region, page: str, context: Context) -> Context:
    return spec_differences(inputs, region, page, *_errors(inputs, context))


def _changelog(inputs: RenderInputs, region: Region, page: str, context: Context) -> Context:
    return changelog_context(inputs, _errors(inputs, context)[0])


REGIONS: Mapping[str, Builder] = {
    "error-table": error_table,
    "error-examples": _examples,
    "spec-differences": _spec,
    "client-differences": _clients,
    "error-changelog": _changelog,
}


def reproduced(inputs: RenderInputs, name: str) -> dict[str, Any] | None:
    """How many of catalog `name`'s rows the last probe reproduced, for a page header."""
    catalog = inputs.catalogs[name]
    assert isinstance(catalog, ErrorsCatalog)  # the registry hands a kind its own catalogs
    return header_evidence(inputs, name, catalog)


def cited(catalog: ErrorsCatalog) -> dict[str, list[str]]:
    """Source file -> the symbols it declares that extract followed to reach the catalog's calls (an entry's
    `path` past its function), in the order the catalog's sources list them."""
    helpers = {  # a closure's call is named `helper.inner`; the source cites `helper`
        ".".join(name.split(".")[:length])
        for entry in catalog.entries
        for name in entry.path[1:]
        for length in range(1, name.count(".") + 2)
    }
    found: dict[str, list[str]] = {}
    for source in catalog.sources:
        symbols = [symbol for symbol in source.symbols if symbol in helpers]
        if symbols:
            found.setdefault(source.path, []).extend(symbols)
    return found


def row_id(line: str) -> str | None:
    """The entry whose error-table row `line` is, by the anchor the row starts with."""
    anchor = _ROW_ANCHOR.search(line)
    return anchor["id"] if anchor is not None else None
