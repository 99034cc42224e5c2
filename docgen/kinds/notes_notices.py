"""What `docgen extract` tells an editor about a catalog's notes: gaps, orphans and run-time values
(shared by the kinds whose catalogs have notes)."""

from __future__ import annotations

from collections.abc import Iterator

from docgen.core.models import ErrorsCatalog, RoutesCatalog
from docgen.core.notes import Notes, notes_report


def notes_notices(notes: Notes, catalog: ErrorsCatalog | RoutesCatalog) -> Iterator[str]:
    """One line per entry whose notes have a gap, per note for an entry that is gone, and per value set at
    run time that the notes do not state, or state wrongly."""
    report = notes_report(catalog, notes)
    for entry_id in report.gaps:
        if notes.entry(entry_id).draft:
            yield f"{notes.file}: entry '{entry_id}' is a draft from the code (draft: true); review it"
            continue
        drafted = entry_id in report.drafts
        shown = " (until then the page shows its code comment, marked as a draft)" if drafted else ""
        yield f"{notes.file}: entry '{entry_id}' has no cause or action yet; add them under 'entries:'{shown}"
    for entry_id in report.orphans:
        yield f"{notes.file}: notes for '{entry_id}', which is no longer in the catalog; move or delete them"
    for entry_id, values in report.run_time.items():
        for field, expression in values.unstated.items():
            yield (
                f"{notes.file}: entry '{entry_id}' has its {field} set at run time by `{expression}`; "
                f"state what a client gets under 'run_time_values: {field}:'"
            )
        for stale in values.stale:
            where = f"entry '{entry_id}', run_time_values: {stale.statement.field}"
            yield f"{notes.file}: {where}: {stale.reason()}"
