"""Contract changes for clients since a base git ref: an error's code or status changed, or it vanished."""

from __future__ import annotations

from collections.abc import Iterator

from generator.core.findings import Finding, Kind
from generator.core.models import entries_by_id
from generator.core.project import Project
from generator.extract.error_catalog import ErrorsExtraction


def contract_findings(project: Project, found: ErrorsExtraction, name: str) -> Iterator[Finding]:
    """Breaking changes for clients since the project's base ref, in errors catalog `name` (`found` now,
    against the catalog as the project loaded it at that ref)."""
    old = project.base.get(name)
    if old is None:
        return
    relative = project.settings.relative(project.settings.catalog_path(name))
    new = entries_by_id(found.catalog.entries)
    sites = {e.id: site for e, site in zip(found.catalog.entries, found.sites, strict=True)}
    for entry in old.entries:
        current = new.get(entry.id)
        if current is None:
            yield Finding(
                Kind.CONTRACT_REMOVED,
                relative,
                None,
                entry.id,
                f"clients relying on {entry.code} / HTTP {entry.status} ({entry.message}) will no longer"
                " see it",
                "note the change in the changelog; keep it if clients depend on it",
                breaking=True,
            )
            continue
        site = sites[entry.id]
        for kind, before, after, field in (
            (Kind.CONTRACT_CODE, entry.code, current.code, "code"),
            (Kind.CONTRACT_STATUS, entry.status, current.status, "status"),
        ):
            if before != after:
                yield Finding(
                    kind,
                    site.file,
                    site.line,
                    entry.id,
                    f"the {field} clients see changed since {project.base_ref}",
                    "breaking for clients that branch on it: announce it or revert it",
                    old=str(before),
                    new=str(after),
                    breaking=True,
                )
