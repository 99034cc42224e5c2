"""What check says about a routes catalog: its operations' and errors' drift, its OpenAPI fragment and
document (`findings.py`), and its notes (gaps, orphans, misspelt keys; it has no constants)."""

from __future__ import annotations

from collections.abc import Iterator

from docgen.check.kind_stage import CheckedNotes
from docgen.check.notes import notes_findings
from docgen.check.typos import mistyped_keys, with_keys_renamed
from docgen.core.findings import Finding
from docgen.core.models import RoutesCatalog
from docgen.core.project import Project
from docgen.extract.pipeline import Extraction
from docgen.kinds.routes.evidence import reply_findings
from docgen.kinds.routes.findings import routes_findings


def _fresh(extraction: Extraction, name: str) -> RoutesCatalog:
    catalog = extraction.results[name].catalog
    assert isinstance(catalog, RoutesCatalog)  # extract ran this kind for it
    return catalog


def findings(project: Project, extraction: Extraction, name: str) -> Iterator[Finding]:
    """Every finding about routes catalog `name` but those about its notes."""
    fresh = _fresh(extraction, name)
    yield from routes_findings(project, extraction, name, fresh)
    yield from reply_findings(project, name, fresh)


def check_notes(project: Project, extraction: Extraction, name: str, drift: list[Finding]) -> CheckedNotes:
    """Add the findings about the catalog's notes to `drift`; the notes with misspelt keys renamed."""
    fresh, notes = _fresh(extraction, name), project.notes[name]
    typos = mistyped_keys(fresh, notes)
    drift.extend(notes_findings(notes, fresh, (), typos=typos))
    renamed = with_keys_renamed(notes, typos)
    return CheckedNotes(renamed, renamed)
