"""Editors' notes against their catalog: gaps, orphans, and constants a note names that no longer exist."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from typing import Any

import jinja2
import jinja2.meta

from generator.core.catalog import notes_report
from generator.core.findings import Finding
from generator.core.sandbox import BoundedSandbox
from generator.core.settings import Settings
from generator.core.yamlio import first_line, read_yaml


def key_line(text: str, key: str) -> int | None:
    """The first line of `text` that starts (after indentation) with `key:`."""
    return first_line(text, lambda line: line.strip().startswith(f"{key}:"))


def notes_findings(
    settings: Settings, name: str, catalog: Mapping[str, Any], notes: Mapping[str, Any]
) -> Iterator[Finding]:
    """Gaps, orphans and unknown constants, each at its line of the notes file.

    The lines come from the YAML loader, recorded once for the whole file: looking each id up in the text
    instead made check quadratic in the number of notes (25 s for 5,000 orphaned ids).
    """
    shown = settings.relative(settings.notes_path(name))
    path = settings.notes_path(name)
    report = notes_report(catalog, notes)
    unknown = list(unknown_constants(notes, catalog))
    found_any = report.gaps or report.orphans or unknown
    lines = read_yaml(path, shown).lines if found_any and path.exists() else {}
    for entry_id in report.gaps:
        yield Finding(
            "notes-gap",
            shown,
            lines.get(("entries", entry_id)),
            entry_id,
            "the entry has no cause or no action for readers",
            f"write 'cause:' and 'action:' under 'entries: {entry_id}:'",
        )
    for entry_id in report.orphans:
        yield Finding(
            "notes-orphan",
            shown,
            lines.get(("entries", entry_id)),
            entry_id,
            "notes for an entry that is no longer in the catalog",
            "rename the key to the entry's new id (see likely-successor), or delete the notes",
        )
    for entry_id, field, names in unknown:
        yield Finding(
            "notes-unknown-constant",
            shown,
            lines.get(("entries", entry_id, field)) or lines.get(("entries", entry_id)),
            f"{entry_id}.{field}",
            f"names {', '.join(sorted(names))}, which the source no longer defines",
            f"use one of the catalog's constants: {', '.join(sorted(catalog.get('constants', {})))}",
        )


def unknown_constants(
    notes: Mapping[str, Any], catalog: Mapping[str, Any]
) -> Iterator[tuple[str, str, set[str]]]:
    """(entry id, field, names) for every note that uses a name the catalog's constants lack."""
    known = set(catalog.get("constants") or {})
    for entry_id, fields in sorted((notes.get("entries") or {}).items()):
        for field, value in sorted((fields or {}).items()):
            if not isinstance(value, str) or "{{" not in value:
                continue
            used = _names_used(value)
            if used is None:
                continue  # render reports syntax errors with their location
            if used - known:
                yield entry_id, field, set(used - known)


@functools.lru_cache(maxsize=4096)
def _names_used(text: str) -> frozenset[str] | None:
    """The variables a note uses besides the sandbox's globals (None when it does not parse), worked out
    once: check asks twice. Parsing runs nothing of the note."""
    environment = _parser()
    try:
        used = jinja2.meta.find_undeclared_variables(environment.parse(text))
    except (jinja2.TemplateSyntaxError, RecursionError):
        return None
    return frozenset(used - set(environment.globals))


@functools.cache
def _parser() -> BoundedSandbox:
    return BoundedSandbox()


def without_unknown_constants(notes: Mapping[str, Any], catalog: Mapping[str, Any]) -> dict[str, Any]:
    bad = {(entry_id, field) for entry_id, field, _ in unknown_constants(notes, catalog)}
    entries = {
        entry_id: {f: v for f, v in (fields or {}).items() if (entry_id, f) not in bad}
        for entry_id, fields in (notes.get("entries") or {}).items()
    }
    return {**notes, "entries": entries}
