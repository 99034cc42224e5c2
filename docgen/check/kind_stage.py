"""What check asks of a catalog kind: the findings about one of its catalogs, and what its notes say.

A kind that gives neither (`CheckingKind`) is checked by its facts alone: a catalog whose facts differ from
the committed file's is one `catalog-stale` finding, which `docgen extract` clears.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol, runtime_checkable

from docgen.core import kinds
from docgen.core.findings import Finding, Kind
from docgen.core.notes import Notes
from docgen.core.project import CommittedCatalog, Project
from docgen.core.records import record
from docgen.extract.pipeline import Extraction

FIX = "docgen extract && docgen render"
"""The command that brings the catalogs and pages up to date, as findings advise it."""


@record
class CheckedNotes:
    """A catalog's notes as the rest of check and the pages read them."""

    renamed: Notes
    """The notes with each misspelt key read as the id it means (the typo is reported once)."""
    safe: Notes
    """`renamed` without the fields that name constants the source no longer defines: what pages render."""


@runtime_checkable
class CheckingKind(Protocol):
    """A catalog kind as check calls it."""

    def findings(
        self, project: Project, extraction: Extraction, name: str, committed: CommittedCatalog
    ) -> Iterator[Finding]:
        """What differs between catalog `name` as committed (of this kind) and as extracted now."""
        ...

    def check_notes(
        self, project: Project, extraction: Extraction, name: str, drift: list[Finding]
    ) -> CheckedNotes | None:
        """Add the findings about the catalog's notes to `drift`; None for a kind whose catalogs have no
        notes."""
        ...

    def late_findings(self, project: Project, extraction: Extraction, name: str) -> Iterator[Finding]:
        """The findings that compare the catalog with what the sources cite now (evidence, for one): check
        asks for them once the pages are rendered and `Project.sources` knows what extraction found."""
        ...


def kind_findings(
    project: Project, extraction: Extraction, name: str, committed: CommittedCatalog
) -> Iterator[Finding]:
    """The findings about catalog `name` by its kind, or by its facts for a kind that gives none."""
    found = extraction.results[name]
    kind = kinds.kind_of(found.catalog.kind)
    if isinstance(kind, CheckingKind):
        yield from kind.findings(project, extraction, name, committed)
    elif found.catalog.as_data() != committed.document.data:
        yield Finding(
            Kind.CATALOG_STALE, committed.file, None, name, "the catalog is out of date", f"run `{FIX}`"
        )


def kind_notes(
    project: Project, extraction: Extraction, name: str, drift: list[Finding]
) -> CheckedNotes | None:
    """What catalog `name`'s notes say, by its kind (None: a kind without notes)."""
    kind = kinds.kind_of(extraction.results[name].catalog.kind)
    return kind.check_notes(project, extraction, name, drift) if isinstance(kind, CheckingKind) else None


def kind_late_findings(project: Project, extraction: Extraction, name: str) -> Iterator[Finding]:
    """The late findings (`CheckingKind.late_findings`) about catalog `name`, by its kind."""
    kind = kinds.kind_of(extraction.results[name].catalog.kind)
    if isinstance(kind, CheckingKind):
        yield from kind.late_findings(project, extraction, name)
