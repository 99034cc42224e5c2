"""The regions only an errors catalog fills (the error table, its examples, how the clients and the
specification differ from it) and what the shared regions ask of it: the page header's evidence count, the
helpers a based-on list cites, and which table row an edited line is."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from generator.core.models import ErrorsCatalog
from generator.core.notes import in_notes_order
from generator.render.context import json_href, render_entry_notes, stated_context
from generator.render.evidence_context import (
    client_differences_region,
    error_examples,
    header_evidence,
    spec_differences,
)
from generator.render.inputs import RenderInputs
from generator.render.kind_stage import Builder, Context
from generator.render.regions import Region
from generator.render.shown import entry_view

_ROW_ANCHOR = re.compile(r'<a id="err-(?P<id>[^"]+)"></a>')
"""The anchor `error-table.md.j2` writes at the start of each entry's row."""


def _errors(inputs: RenderInputs, context: Context) -> tuple[str, ErrorsCatalog]:
    name = str(context["catalog_name"])
    catalog = inputs.catalogs[name]
    assert isinstance(catalog, ErrorsCatalog)  # render hands a kind's builders only its own catalogs
    return name, catalog


def error_table(inputs: RenderInputs, region: Region, page: str, context: Context) -> Context:
    """The entries in the notes' order, each with its notes rendered, and the columns the table has."""
    name, catalog = _errors(inputs, context)
    notes = inputs.notes_of(name)
    entries = []
    for entry in in_notes_order(catalog.entries, notes, lambda entry: entry.id):
        cause, action = render_entry_notes(inputs, name, entry.id)
        explained = {"cause": cause, "action": action, "draft_cause": entry.draft_cause}
        # Every key the template reads, present even where the catalog leaves it out of the entry's data.
        data = entry_view(entry, conditions=name in inputs.publish_conditions)
        fields = {"code": entry.code, "status": entry.status, "dynamic": {}, "raises": [], **data}
        stated = stated_context(inputs, name, entry)
        shown = {"show_raises": notes.entry(entry.id).show_raises, "stated": stated}
        entries.append({**fields, "anchor": f"err-{entry.id}", **explained, **shown})
    return {"entries": entries, "columns": _columns(entries), "json_href": json_href(page, name)}


def _columns(entries: list[dict[str, Any]]) -> dict[str, bool]:
    """Which of the code and status columns the table has: those some entry states, or sets at run time."""
    return {
        field: any(entry[field] is not None or field in entry["dynamic"] for entry in entries)
        for field in ("code", "status")
    }


def _examples(inputs: RenderInputs, region: Region, page: str, context: Context) -> Context:
    return error_examples(inputs, *_errors(inputs, context))


def _clients(inputs: RenderInputs, region: Region, page: str, context: Context) -> Context:
    return client_differences_region(inputs, *_errors(inputs, context))


def _spec(inputs: RenderInputs, region: Region, page: str, context: Context) -> Context:
    return spec_differences(inputs, region, page, *_errors(inputs, context))


REGIONS: Mapping[str, Builder] = {
    "error-table": error_table,
    "error-examples": _examples,
    "spec-differences": _spec,
    "client-differences": _clients,
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
