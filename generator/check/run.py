"""`docgen check`: extract and render in memory, compare with what is committed, and say what differs.

Nothing here writes a file. The result is a list of findings; the CLI renders them.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping
from typing import Any

from generator.check.contract import contract_findings
from generator.check.drift import FIX, CatalogDrift, tools_drift
from generator.check.evidence import evidence_findings
from generator.check.links import link_findings
from generator.check.notes import key_line, notes_findings, without_unknown_constants
from generator.check.spec import spec_findings
from generator.check.stamps import cited_symbols, stamp_findings
from generator.core import catalog as catalogs
from generator.core.findings import Finding
from generator.core.pages import read_pages, split_front_matter
from generator.core.settings import Settings
from generator.core.symbols import reusing
from generator.core.yamlio import read_text
from generator.extract.pipeline import Extraction, extract, previous_catalog
from generator.render.renderer import render_all


def run_check(settings: Settings, *, base: str | None = None) -> list[Finding]:
    """Every finding for the project, in no particular order."""
    committed = {name: previous_catalog(settings, name) for name in settings.catalogs}
    extraction = extract(settings, committed, dump=False)
    findings: list[Finding] = []
    notes: dict[str, dict[str, Any]] = {}
    for name, fresh in extraction.catalogs.items():
        findings.extend(_catalog_findings(settings, extraction, name, fresh, committed[name]))
        if fresh["kind"] == "errors":
            notes_path = settings.notes_path(name)
            notes[name] = catalogs.load_notes(notes_path, settings.relative(notes_path))
            findings.extend(notes_findings(settings, name, fresh, notes[name]))
    findings.extend(_schema_copies(settings, extraction))
    safe_notes = {
        name: without_unknown_constants(note, extraction.catalogs[name]) for name, note in notes.items()
    }
    with reusing(extraction.trees):  # the cited files griffe has parsed are not parsed again
        findings.extend(_page_findings(settings, extraction.catalogs, safe_notes))
        findings.extend(evidence_findings(settings, extraction, notes))
    findings.extend(spec_findings(settings, extraction, notes))
    if base is not None:
        findings.extend(contract_findings(settings, extraction, base))
    return findings


def _catalog_findings(
    settings: Settings,
    extraction: Extraction,
    name: str,
    fresh: Mapping[str, Any],
    committed: Mapping[str, Any] | None,
) -> Iterator[Finding]:
    path = settings.catalog_path(name)
    shown = settings.relative(path)
    if committed is None:
        yield Finding("catalog-stale", shown, None, name, "the catalog does not exist yet", f"run `{FIX}`")
        return
    text = read_text(path, shown)
    if fresh["kind"] == "tools":
        yield from tools_drift(shown, committed, fresh, text)
        return
    drift = CatalogDrift(
        path=shown,
        committed=committed,
        committed_text=text,
        fresh=fresh,
        sites=extraction.sites[name],
        module_names=extraction.module_names[name],
    )
    yield from drift.findings()
    for successor in extraction.successors.get(name, []):
        yield Finding(
            "likely-successor",
            shown,
            None,
            successor.new_id,
            f"most likely replaces '{successor.old_id}' (similarity {successor.similarity:.2f})",
            f"if it does, rename '{successor.old_id}' to '{successor.new_id}' in "
            f"{settings.relative(settings.notes_path(name))} so its prose follows",
        )


def _schema_copies(settings: Settings, extraction: Extraction) -> Iterator[Finding]:
    for relative, text in sorted(extraction.outputs.items()):
        if relative.endswith(".schema.json"):
            path = settings.root / relative
            if not path.exists() or read_text(path, relative) != text:
                yield Finding(
                    "catalog-stale",
                    relative,
                    None,
                    path.name,
                    "the schema copy is out of date",
                    f"run `{FIX}`",
                )


def _page_findings(
    settings: Settings, fresh: Mapping[str, Any], notes: Mapping[str, Any]
) -> Iterator[Finding]:
    docs = settings.relative(settings.docs_dir)
    pages = read_pages(settings.docs_dir)
    for result in render_all(settings, fresh, notes, pages=pages):
        shown = f"{docs}/{result.page}"
        for region in result.regions:
            if region.state == "fresh":
                continue
            diff = "".join(
                difflib.unified_diff(
                    region.actual.splitlines(keepends=True),
                    region.expected.splitlines(keepends=True),
                    f"committed {shown}",
                    f"rendered {shown}",
                )
            )
            if region.state == "hand-edited":
                yield Finding(
                    "region-hand-edited",
                    shown,
                    region.line,
                    region.name,
                    "this generated region was edited by hand; render will not overwrite it",
                    "move the edit to data/*.notes.yaml or the template, then `docgen render --force`",
                    diff=diff,
                )
            else:
                yield Finding(
                    "page-stale",
                    shown,
                    region.line,
                    region.name,
                    "the generated region no longer matches the catalog",
                    f"run `{FIX}`",
                    diff=diff,
                )
    yield from _source_findings(settings, pages)


def _source_findings(settings: Settings, pages: Mapping[str, str]) -> Iterator[Finding]:
    """Citations, Last-verified stamps, and links of every page."""
    docs = settings.relative(settings.docs_dir)
    for page, text in sorted(pages.items()):
        shown = f"{docs}/{page}"
        meta, _body = split_front_matter(text, page=shown)
        yield from _citation_findings(settings, meta, shown, text)
        yield from stamp_findings(settings.root, meta, page=shown, text=text)
    yield from link_findings(settings.docs_dir, pages, display_root=docs)


def _citation_findings(
    settings: Settings, meta: Mapping[str, Any], page: str, text: str
) -> Iterator[Finding]:
    for file, name, symbol in cited_symbols(settings.root, meta, page=page, text=text):
        line = key_line(text, "based_on")
        if not (settings.root / file).is_file():
            yield Finding(
                "citation-file",
                page,
                line,
                file,
                "the cited file does not exist",
                "fix the path in the page's based_on list",
            )
            break
        if symbol is None:
            yield Finding(
                "citation-symbol",
                page,
                line,
                f"{file}:{name}",
                f"{file} defines no {name}",
                "fix the symbol in the page's based_on list, or restore it in the code",
            )
