"""Contract changes for clients since a base git ref: an error's code or status changed, or it vanished.

The changes are classified by `docgen.core.changes`, as the errors' changelog on the site classifies each
commit, so a pull request and the changelog agree on what is breaking. Only breaking changes are findings: a
new error (additive) or a reworded message (editorial) needs no announcement before it merges.
"""

from __future__ import annotations

from collections.abc import Iterator

from docgen.core.changes import BREAKING, changes, entry_facts
from docgen.core.findings import Finding, Kind
from docgen.core.models import entries_by_id
from docgen.core.project import Project
from docgen.kinds.errors.catalog import ErrorsExtraction

_FACT_KINDS = {"code": Kind.CONTRACT_CODE, "status": Kind.CONTRACT_STATUS}


def contract_findings(project: Project, found: ErrorsExtraction, name: str) -> Iterator[Finding]:
    """Breaking changes for clients since the project's base ref, in errors catalog `name` (`found` now,
    against the catalog as the project loaded it at that ref), in the base catalog's order."""
    old = project.base.get(name)
    if old is None:
        return
    relative = project.settings.relative(project.settings.catalog_path(name))
    before = entries_by_id(old.entries)
    sites = {e.id: site for e, site in zip(found.catalog.entries, found.sites, strict=True)}
    order = {entry.id: index for index, entry in enumerate(old.entries)}
    found_changes = changes(entry_facts(old.entries), entry_facts(found.catalog.entries))
    for change in sorted(found_changes, key=lambda change: order.get(change.entry, len(order))):
        if change.effect != BREAKING:
            continue
        if change.what == "removed":
            entry = before[change.entry]
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
        site = sites[change.entry]
        yield Finding(
            _FACT_KINDS[change.what],
            site.entry.file,
            site.line,
            change.entry,
            f"the {change.what} clients see changed since {project.base_ref}",
            "breaking for clients that branch on it: announce it or revert it",
            old=str(change.before),
            new=str(change.after),
            breaking=True,
        )
