"""Evidence against the catalog: a missing example, and evidence missing, stale or contradicting the table;
the official clients' part of it is `docgen.check.client_evidence`.

check reads the evidence the project loaded (no server, no network). A catalog whose notes carry no example
at all is left alone; one whose configuration says `examples: optional` is not asked for an example of
every entry once one has one.
"""

from __future__ import annotations

from collections.abc import Iterator

from docgen.check.client_evidence import client_findings, pinned_sdks
from docgen.check.evidence_sources import stale_sources
from docgen.core.evidence import Evidence, Record, probe_command, source_fingerprints
from docgen.core.findings import Finding, Kind
from docgen.core.models import ErrorEntry, ErrorsCatalog
from docgen.core.project import Project
from docgen.examples.client_calls import RUNNERS_ROOT
from docgen.examples.requests import Example, examples_of
from docgen.kinds.errors.catalog import ErrorsExtraction


def evidence_findings(project: Project, found: ErrorsExtraction, name: str) -> Iterator[Finding]:
    """Findings about the examples and evidence of errors catalog `name`, when its notes have examples."""
    notes, catalog = project.notes[name], found.catalog
    if not notes.examples():
        return
    examples = examples_of(catalog, notes)
    required = project.settings.catalogs[name].examples in (None, "required")
    for entry in catalog.entries:
        if required and entry.id not in examples:
            yield Finding(
                Kind.EXAMPLE_MISSING,
                notes.file,
                notes.line("entries", entry.id),
                entry.id,
                "the entry has no example request, so probe cannot show it is true",
                f"add 'example:' under 'entries: {entry.id}:' (or 'untriggerable:' with the reason)",
            )
    yield from _against_evidence(project, name, catalog, examples, found.roots)


def _probe(project: Project) -> str:
    return probe_command(project.settings.probe_app)


def _against_evidence(
    project: Project,
    name: str,
    catalog: ErrorsCatalog,
    examples: dict[str, Example],
    roots: frozenset[str],
) -> Iterator[Finding]:
    evidence, probe = project.evidence.get(name), _probe(project)
    if evidence is None:
        shown = project.settings.relative(project.settings.evidence_path(name))
        yield Finding(
            Kind.EVIDENCE_MISSING,
            shown,
            None,
            name,
            "no example has been replayed against the server yet",
            probe,
        )
        return
    yield from stale_sources(evidence, source_fingerprints(project.sources, catalog, roots), probe)
    records = evidence.records()
    for entry in catalog.entries:
        example = examples.get(entry.id)
        if example is not None:
            yield from _entry_findings(evidence, entry, example, records.get(entry.id), probe)
    # The project's own pins first (an installed docgen's clients run with the SDKs of the project's
    # environment), then those of the docgen checkout the runners come from.
    pins = {**pinned_sdks(RUNNERS_ROOT), **pinned_sdks(project.settings.root)}
    yield from client_findings(evidence, examples, pins, probe)


def _entry_findings(
    evidence: Evidence, entry: ErrorEntry, example: Example, record: Record | None, probe: str
) -> Iterator[Finding]:
    shown = evidence.file  # the record's line is looked up only for a finding: it parses the file again
    if record is None:
        yield Finding(
            Kind.EVIDENCE_MISSING, shown, None, entry.id, "probe has not replayed this example", probe
        )
    elif record.example != example.fingerprint:
        yield Finding(
            Kind.EVIDENCE_STALE,
            shown,
            evidence.record_line(entry.id),
            entry.id,
            "the example changed after probe replayed it",
            f"run `{probe}` again and commit the evidence",
        )
    elif example.triggerable:
        observed = record.observed
        seen = f"{observed.code if observed else None} at HTTP {observed.status if observed else None}"
        table = f"{entry.code} at HTTP {entry.status}"
        if seen != table:
            yield Finding(
                Kind.EVIDENCE_MISMATCH,
                shown,
                evidence.record_line(entry.id),
                entry.id,
                f"the server answered {seen} to the example; the table says {table}",
                "fix the server or the example, then run probe again; the table follows the code",
            )
