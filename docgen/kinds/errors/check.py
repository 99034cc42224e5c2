"""What check and `docgen extract` say about an errors catalog: its entries' drift, likely successors, and
its notes (gaps, orphans, misspelt keys, unknown constants, values set at run time)."""

from __future__ import annotations

from collections.abc import Iterator

from docgen.check.kind_stage import CheckedNotes
from docgen.check.notes import notes_findings, unknown_constants, without_unknown_constants
from docgen.check.typos import mistyped_keys, with_keys_renamed
from docgen.core.findings import Finding, Kind
from docgen.core.notes import notes_report
from docgen.core.project import CommittedCatalog, Project
from docgen.extract.kind_stage import KindResult
from docgen.extract.pipeline import Extraction
from docgen.kinds.coverage import errors_without_status
from docgen.kinds.errors.catalog import ErrorsExtraction
from docgen.kinds.errors.drift import CatalogDrift
from docgen.kinds.errors.run_time_values import run_time_value_findings
from docgen.kinds.notes_notices import notes_notices


def extracted(extraction: Extraction, name: str) -> ErrorsExtraction:
    """The errors kind's result for catalog `name`."""
    found = extraction.results[name]
    assert isinstance(found, ErrorsExtraction)  # extract ran this kind for it
    return found


def errors_findings(
    project: Project, extraction: Extraction, name: str, committed: CommittedCatalog
) -> Iterator[Finding]:
    """Entries added, removed or changed since the catalog was committed, and the likely successor of each
    entry that is gone."""
    found = extracted(extraction, name)
    drift = CatalogDrift(
        committed=committed, fresh=found.catalog, sites=found.sites, module_names=found.module_names
    )
    yield from drift.findings()
    for successor in found.successors:
        yield Finding(
            Kind.LIKELY_SUCCESSOR,
            committed.file,
            None,
            successor.new_id,
            f"most likely replaces '{successor.old_id}' (similarity {successor.similarity:.2f})",
            f"if it does, rename '{successor.old_id}' to '{successor.new_id}' in "
            f"{project.notes[name].file} so its prose follows",
        )


def errors_notes(project: Project, extraction: Extraction, name: str, drift: list[Finding]) -> CheckedNotes:
    """Add the findings about the catalog's notes to `drift`; the notes with misspelt keys renamed, and
    those without the fields that name unknown constants."""
    found = extracted(extraction, name)
    fresh, notes = found.catalog, project.notes[name]
    typos = mistyped_keys(fresh, notes)
    unknown = unknown_constants(notes, fresh)
    drift.extend(notes_findings(notes, fresh, unknown, notes_report(fresh, notes), typos))
    renamed = with_keys_renamed(notes, typos)
    safe = with_keys_renamed(without_unknown_constants(notes, unknown), typos)
    drift.extend(run_time_value_findings(renamed, fresh, found.sites, notes_report(fresh, renamed)))
    return CheckedNotes(renamed, safe)


def extract_notices(project: Project, name: str, result: KindResult) -> Iterator[str]:
    """The likely successor of each entry that is gone, then what the notes lack."""
    assert isinstance(result, ErrorsExtraction)
    notes = project.notes[name]
    path = project.settings.relative(project.settings.catalog_path(name))
    for successor in result.successors:
        yield (
            f"{path}: new entry '{successor.new_id}' most likely replaces '{successor.old_id}' "
            f"(similarity {successor.similarity:.2f}); if so, rename its key in "
            f"{notes.file} so the prose follows it"
        )
    yield from notes_notices(notes, result.catalog)
    yield from errors_without_status(result.catalog, [site.line for site in result.sites])


def late_findings(project: Project, extraction: Extraction, name: str) -> Iterator[Finding]:
    """Examples and evidence, the specification the notes name, and, with a base ref, contract changes."""
    from docgen.kinds.errors.evidence import evidence_findings  # noqa: PLC0415
    from docgen.kinds.errors.spec import spec_findings  # noqa: PLC0415

    found = extracted(extraction, name)
    yield from evidence_findings(project, found, name)
    yield from spec_findings(project, found, name)
    if project.base_ref is not None:
        from docgen.kinds.errors.contract import contract_findings  # noqa: PLC0415 (only with --base)

        yield from contract_findings(project, found, name)
