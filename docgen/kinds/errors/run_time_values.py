"""Codes and statuses the server sets at run time, against what editors state about them in the notes.

A value set at run time that no statement answers is reported at its call in the source, with the notes key
to write; a statement that answers an expression the catalog no longer records (the code changed it, or now
gives the value statically) is reported at its line in the notes file. Both fail check, as a notes gap does:
the page cannot show what a client gets until an editor says it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from docgen.core.findings import Finding, Kind
from docgen.core.models import ErrorsCatalog
from docgen.core.notes import Notes, NotesReport
from docgen.core.run_time_values import StaleStatement, quoted, shown_values, statement_to_write
from docgen.extract.sites import ErrorSite


def run_time_value_findings(
    notes: Notes, catalog: ErrorsCatalog, sites: Sequence[ErrorSite], report: NotesReport
) -> Iterator[Finding]:
    """One finding per unstated value (at the call) and per stale statement (in the notes)."""
    where = {entry.id: site for entry, site in zip(catalog.entries, sites, strict=True)}
    for entry_id, values in report.run_time.items():
        site = where[entry_id]
        for field, expression in values.unstated.items():
            yield Finding(
                Kind.RUN_TIME_VALUE_UNSTATED,
                site.entry.file,
                site.line,
                f"{entry_id}.{field}",
                f"the {field} is set at run time by `{expression}`; the page says only that, until an editor "
                "states what a client gets",
                f"in {notes.file}, {statement_to_write(entry_id, field, expression)}",
            )
        for stale in values.stale:
            yield _stale(notes, entry_id, stale)


def _stale(notes: Notes, entry_id: str, stale: StaleStatement) -> Finding:
    field = stale.statement.field
    line = notes.line("entries", entry_id, "run_time_values", field, "expression") or notes.line(
        "entries", entry_id, "run_time_values", field
    )
    if stale.now is not None:
        message = f"{stale.reason()}; the page shows no stated value until an editor reviews it"
        hint = (
            f"if {shown_values(stale.statement.values)} still holds, write `expression: {quoted(stale.now)}` "
            f"under 'entries: {entry_id}: run_time_values: {field}:'; otherwise correct `value:` too"
        )
    else:
        message = stale.reason()
        hint = f"delete 'run_time_values: {field}:' under 'entries: {entry_id}:'"
    return Finding(
        Kind.RUN_TIME_VALUE_STALE,
        notes.file,
        line,
        f"{entry_id}.{field}",
        message,
        hint,
        old=stale.statement.expression,
        new=stale.now if stale.now is not None else f"not set at run time ({stale.value})",
    )
