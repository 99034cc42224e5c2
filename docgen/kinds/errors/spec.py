"""Spec conformance in check: new differences, stale baseline entries, conditions the specification lacks.

Each revision the specification file classifies is compared on its own, against the differences the baseline
accepts for that revision: the file's own, then each earlier one the server still serves."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from docgen.core.findings import Finding, Kind
from docgen.core.notes import Notes
from docgen.core.project import Project
from docgen.core.spec import ASPECTS, Comparison, Spec, compare, here, mapping, required
from docgen.extract.sites import ErrorSite
from docgen.kinds.errors.catalog import ErrorsExtraction


def spec_findings(project: Project, found: ErrorsExtraction, name: str) -> Iterator[Finding]:
    """New differences, stale baseline entries and unknown conditions of errors catalog `name`, when its
    notes name a specification."""
    spec = project.spec_of(name)
    if spec is None:
        return
    catalog, notes = found.catalog, project.notes[name]
    yield from _unknown_conditions(notes, spec)
    sites = {entry.id: site for entry, site in zip(catalog.entries, found.sites, strict=True)}
    for revision in (None, *spec.earlier):
        for comparison in compare(catalog, notes, spec, revision):
            yield from _comparison_findings(spec, comparison, sites, revision)
        yield from _unknown_baseline(spec, revision)


def _unknown_conditions(notes: Notes, spec: Spec) -> Iterator[Finding]:
    for condition_id, entry_ids in sorted(mapping(notes).items()):
        if spec.condition(condition_id) is None:
            named = notes.entry(entry_ids[0]).spec.index(condition_id)
            yield Finding(
                Kind.SPEC_UNKNOWN_CONDITION,
                notes.file,
                notes.line("entries", entry_ids[0], "spec", named),
                f"{entry_ids[0]}.spec",
                f"names condition {condition_id!r}, which {spec.spec_file} does not have",
                f"use one of: {', '.join(c.id for c in spec.conditions)}",
            )


def _comparison_findings(
    spec: Spec, comparison: Comparison, sites: Mapping[str, ErrorSite], revision: str | None
) -> Iterator[Finding]:
    condition = comparison.condition
    accepted = spec.accepted_at(revision).get(condition.id)
    title, under = (
        (spec.title, "") if revision is None else (f"{spec.title}, as {revision} says", f" under {revision}")
    )
    allowed = set(accepted.differs) if accepted is not None else set()
    new = [aspect for aspect in comparison.differs if aspect not in allowed]
    gone = [aspect for aspect in ASPECTS if aspect in allowed and aspect not in comparison.differs]
    if new:
        site = sites.get(comparison.entries[0].id) if comparison.entries else None
        yield Finding(
            Kind.SPEC_DIFFERENCE,
            site.entry.file if site else spec.spec_file,
            site.line if site else spec.condition_line(condition.id),
            condition.id,
            f"{condition.condition} Differs in {', '.join(new)} from {title} "
            f"({condition.source.section}, {condition.source.url})",
            f"make the server conform, or accept the difference with a reason in {spec.baseline_file}"
            + (f" (under `earlier: {revision}:`)" if revision else ""),
            old=required(condition),
            new=here(comparison),
        )
    if gone:
        yield Finding(
            Kind.SPEC_BASELINE_STALE,
            spec.baseline_file,
            spec.accepted_line(condition.id, revision),
            condition.id,
            f"accepted as differing in {', '.join(gone)}{under}, but the server now conforms there",
            f"remove {', '.join(gone)} from 'differs' (or the whole entry) in {spec.baseline_file}",
        )


def _unknown_baseline(spec: Spec, revision: str | None) -> Iterator[Finding]:
    defined = {condition.id for condition in spec.conditions_at(revision)}
    under = "" if revision is None else f" under {revision}"
    for condition_id in sorted(set(spec.accepted_at(revision)) - defined):
        yield Finding(
            Kind.SPEC_BASELINE_STALE,
            spec.baseline_file,
            spec.accepted_line(condition_id, revision),
            condition_id,
            f"accepts a difference for a condition {spec.spec_file} does not have{under}",
            f"remove it from {spec.baseline_file}, or fix its name",
        )
    if revision is None:
        for unknown in sorted(set(spec.earlier_accepted) - set(spec.earlier)):
            yield Finding(
                Kind.SPEC_BASELINE_STALE,
                spec.baseline_file,
                spec.baseline.line(("earlier", unknown)) if spec.baseline is not None else None,
                unknown,
                f"accepts differences under revision {unknown}, which {spec.spec_file} does not classify",
                f"remove it from {spec.baseline_file}, or add it to `earlier:` in {spec.spec_file}",
            )
