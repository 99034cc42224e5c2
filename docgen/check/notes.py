"""Editors' notes against their catalog: gaps, orphans, and constants a note names that no longer exist."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator, Mapping, Sequence

import jinja2
import jinja2.meta

from docgen.check.typos import typo_findings
from docgen.core.errors import suggest
from docgen.core.findings import Finding, Kind
from docgen.core.models import Catalog, NotedCatalog, constants_of
from docgen.core.notes import PROSE_FIELDS, Notes, NotesReport, notes_report
from docgen.core.records import record
from docgen.render.filters import FILTERS
from docgen.templating.sandbox import BoundedSandbox


@record
class UnknownConstants:
    """A note that uses names the catalog's constants lack."""

    entry_id: str
    field: str
    names: frozenset[str]


def notes_findings(
    notes: Notes,
    catalog: NotedCatalog,
    unknown: Sequence[UnknownConstants],
    report: NotesReport | None = None,
    typos: Mapping[str, str] | None = None,
) -> Iterator[Finding]:
    """Gaps, orphans and unknown constants (`unknown`, from `unknown_constants`) of one catalog's notes
    (`report`: their `notes_report`, when the caller has it already). A misspelt key (`typos`: key -> the
    id it means) is one `notes-key-typo` finding instead of an orphan and a gap."""
    report = report or notes_report(catalog, notes)
    typos = typos or {}
    yield from typo_findings(notes, typos)
    for entry_id in report.gaps:
        # A draft `docgen init` wrote is listed by check as a draft (shell/commands.py), not as a gap.
        if entry_id not in typos.values() and not notes.entry(entry_id).draft:
            yield _gap(notes, entry_id, report.drafts.get(entry_id))
    for entry_id in report.orphans:
        if entry_id in typos:
            continue
        yield Finding(
            Kind.NOTES_ORPHAN,
            notes.file,
            notes.line("entries", entry_id),
            entry_id,
            "notes for an entry that is no longer in the catalog",
            "rename the key to the entry's new id (see likely-successor), or delete the notes",
        )
    constants = constants_of(catalog)
    for found in unknown:
        yield Finding(
            Kind.NOTES_UNKNOWN_CONSTANT,
            notes.file,
            notes.line("entries", found.entry_id, found.field) or notes.line("entries", found.entry_id),
            f"{found.entry_id}.{found.field}",
            f"names {', '.join(sorted(found.names))}, which the source no longer defines",
            _constant_hint(found.names, constants),
        )


def _constant_hint(names: frozenset[str], constants: Mapping[str, object]) -> str:
    """The same "did you mean" render gives for the first unknown name, else the list of constants."""
    close = suggest(min(names), constants)
    return close or f"use one of the catalog's constants: {', '.join(sorted(constants))}"


def _gap(notes: Notes, entry_id: str, draft: str | None) -> Finding:
    """An entry without cause or action: readers see a gap, or the code's comment marked as a draft."""
    missing = [field for field in PROSE_FIELDS if not notes.entry(entry_id).prose(field)]
    message = f"the entry has no {' and no '.join(missing)} for readers"
    hint = f"write {' and '.join(f'{field!r}' for field in missing)} under 'entries: {entry_id}:'"
    if draft and "cause" in missing:
        message += "; the page shows the comment above its call in the code as the cause, marked as a draft"
        hint += f" (the draft to start from: {draft!r})"
    return Finding(Kind.NOTES_GAP, notes.file, notes.line("entries", entry_id), entry_id, message, hint)


def unknown_constants(notes: Notes, catalog: Catalog) -> list[UnknownConstants]:
    """Every note (cause or action) that uses a name the catalog's constants lack (all of them, for a
    catalog of a kind that carries no constants)."""
    known = set(constants_of(catalog))
    found = []
    names: dict[str, frozenset[str] | None] = {}  # many entries share a note (`Fix the request.`)
    for entry_id, fields in sorted(notes.entries.items()):
        for field in sorted(PROSE_FIELDS):
            value = fields.prose(field)
            if value is None or "{{" not in value:
                continue
            if value not in names:
                names[value] = _names_used(value)
            used = names[value]
            if used is None:
                continue  # render reports syntax errors with their location
            if used - known:
                found.append(UnknownConstants(entry_id, field, frozenset(used - known)))
    return found


def _names_used(text: str) -> frozenset[str] | None:
    """The variables a note uses besides the sandbox's globals; None when it does not parse. Parsing runs
    nothing of the note."""
    environment = _parser()
    try:
        used = jinja2.meta.find_undeclared_variables(environment.parse(text))
    except (jinja2.TemplateSyntaxError, RecursionError):
        return None
    return frozenset(used - set(environment.globals))


@functools.cache
def _parser() -> BoundedSandbox:
    return BoundedSandbox(filters=FILTERS)  # a note that uses docgen's filters must parse here too


def without_unknown_constants(notes: Notes, unknown: Sequence[UnknownConstants]) -> Notes:
    """The notes with every field that names an unknown constant left out, so the pages can still render
    (and be compared) while the notes are reported."""
    bad = {(found.entry_id, found.field) for found in unknown}
    if not bad:
        return notes
    entries = {
        entry_id: dataclasses.replace(
            fields,
            cause=None if (entry_id, "cause") in bad else fields.cause,
            action=None if (entry_id, "action") in bad else fields.action,
        )
        if (entry_id, "cause") in bad or (entry_id, "action") in bad
        else fields
        for entry_id, fields in notes.entries.items()
    }
    return dataclasses.replace(notes, entries=entries)
