"""`docgen check`: extract and render in memory, compare with what is committed, and say what differs.

Nothing here reads or writes a file: everything comes from the loaded project. The result is a list of
findings; the CLI renders them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from docgen.check.build_config import build_config_findings
from docgen.check.credentials import credential_findings, withhold
from docgen.check.kind_stage import FIX, kind_findings, kind_late_findings, kind_notes
from docgen.check.pages import region_findings, source_findings
from docgen.core.findings import Finding, Kind
from docgen.core.models import Catalog
from docgen.core.notes import Notes
from docgen.core.project import Project
from docgen.core.records import record
from docgen.extract.pipeline import Extraction, extract
from docgen.render.published import site_refusals
from docgen.render.renderer import PageResult, render_all, renderer_for


@record
class CheckReport:
    """Every finding, and which of them are drift in each catalog (its entries, constants and notes)."""

    findings: list[Finding]
    by_catalog: dict[str, list[Finding]]
    rendered: list[PageResult]
    """Every page with regions as render would write it now (with the catalogs it draws from)."""
    docs: str
    """docs_dir, relative to the project root."""

    def blocking(self, page: str) -> list[Finding]:
        """What stops `docgen verify` from stamping `page` (relative to the project root): the page's own
        findings and those of the catalogs its regions draw from. Its Last-verified findings are what
        verify settles, so they do not count."""
        stamps = (Kind.VERIFICATION_STALE, Kind.VERIFICATION_MISSING)
        docs_page = page.removeprefix(f"{self.docs}/")
        catalogs = [name for result in self.rendered if result.page == docs_page for name in result.catalogs]
        own = [f for f in self.findings if f.kind not in stamps and (f.file == page or page in f.pages)]
        return own + [finding for name in catalogs for finding in self.by_catalog.get(name, [])]


def run_check(project: Project) -> list[Finding]:
    """Every finding for the project, in no particular order (with `project.base_ref`, contract changes)."""
    return check_report(project).findings


def check_report(project: Project) -> CheckReport:
    """Every finding for the project, grouped as `CheckReport` says."""
    extraction = extract(project, dump=False)
    findings: list[Finding] = []
    by_catalog: dict[str, list[Finding]] = {}
    safe_notes: dict[str, Notes] = {}
    renamed = dict(project.notes)
    for name, found in extraction.results.items():
        drift = list(_catalog_findings(project, extraction, name, found.catalog))
        checked = kind_notes(project, extraction, name, drift)
        if checked is not None:
            renamed[name], safe_notes[name] = checked.renamed, checked.safe
        by_catalog[name] = drift
        findings.extend(drift)
    # What follows reads the notes as if each misspelt key were right: the typo is reported once.
    project = dataclasses.replace(project, notes=renamed)
    extraction.inform(project.sources)
    renderer = renderer_for(project, catalogs=extraction.catalogs, notes=safe_notes)
    rendered = render_all(renderer, project.pages)
    docs = project.settings.relative(project.settings.docs_dir)
    findings.extend(region_findings(rendered, docs))
    refused = site_refusals(renderer.inputs, rendered)
    findings.extend(credential_findings(project, refused))
    findings.extend(source_findings(project.sources, project.pages, project.fronts, rendered, docs))
    for name in extraction.results:
        findings.extend(kind_late_findings(project, extraction, name))
    findings.extend(build_config_findings(project.settings))
    if refused:  # no finding quotes a value that looks like a credential (a page's diff would)
        findings = withhold(findings, renderer.inputs, refused)
        by_catalog = {name: withhold(found, renderer.inputs, refused) for name, found in by_catalog.items()}
    return CheckReport(findings, by_catalog, rendered, docs)


def _catalog_findings(
    project: Project, extraction: Extraction, name: str, fresh: Catalog
) -> Iterator[Finding]:
    settings = project.settings
    committed = project.committed[name]
    if committed is None:
        shown = settings.relative(settings.catalog_path(name))
        yield Finding(Kind.CATALOG_STALE, shown, None, name, "the catalog does not exist yet", f"run `{FIX}`")
        return
    if committed.catalog.kind != fresh.kind:
        message = f"the committed catalog is a {committed.catalog.kind} catalog; mkdocs.yml says {fresh.kind}"
        yield Finding(Kind.CATALOG_STALE, committed.file, 1, name, message, f"run `{FIX}`")
        return
    yield from kind_findings(project, extraction, name, committed)
