"""`docgen check`: extract and render in memory, compare with what is committed, and say what differs.

Nothing here writes a file. The result is a list of findings; the CLI renders them.
"""

from __future__ import annotations

import difflib
import subprocess
from collections.abc import Iterator, Mapping
from typing import Any

import jinja2
import jinja2.meta

from generator import catalog as catalogs
from generator.config import Settings
from generator.drift import FIX, CatalogDrift, tools_drift
from generator.errors import CatalogError, ConfigError
from generator.findings import Finding
from generator.links import link_findings
from generator.page_context import split_front_matter
from generator.pipeline import Extraction, extract, notes_report
from generator.render import read_pages, render_all
from generator.stamp import cited_symbols, stamp_findings


def run_check(settings: Settings, *, base: str | None = None) -> list[Finding]:
    """Every finding for the project, in no particular order."""
    extraction = extract(settings)
    findings: list[Finding] = []
    notes: dict[str, dict[str, Any]] = {}
    for name, fresh in extraction.catalogs.items():
        findings.extend(_catalog_findings(settings, extraction, name, fresh))
        if fresh["kind"] == "errors":
            notes_path = settings.notes_path(name)
            notes[name] = catalogs.load_notes(notes_path, settings.relative(notes_path))
            findings.extend(_notes_findings(settings, name, fresh, notes[name]))
    findings.extend(_schema_copies(settings, extraction))
    safe_notes = {
        name: _without_unknown_constants(note, extraction.catalogs[name]) for name, note in notes.items()
    }
    findings.extend(_page_findings(settings, extraction.catalogs, safe_notes))
    if base is not None:
        findings.extend(contract_findings(settings, extraction, base))
    return findings


def _catalog_findings(
    settings: Settings, extraction: Extraction, name: str, fresh: Mapping[str, Any]
) -> Iterator[Finding]:
    path = settings.catalog_path(name)
    shown = settings.relative(path)
    if not path.exists():
        yield Finding("catalog-stale", shown, None, name, "the catalog does not exist yet", f"run `{FIX}`")
        return
    text = path.read_text(encoding="utf-8")
    committed = catalogs.load_catalog(path, shown)
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


def _notes_findings(
    settings: Settings, name: str, catalog: Mapping[str, Any], notes: Mapping[str, Any]
) -> Iterator[Finding]:
    shown = settings.relative(settings.notes_path(name))
    text = settings.notes_path(name).read_text(encoding="utf-8") if settings.notes_path(name).exists() else ""
    report = notes_report(catalog, notes)
    for entry_id in report.gaps:
        yield Finding(
            "notes-gap",
            shown,
            _key_line(text, entry_id),
            entry_id,
            "the entry has no cause or no action for readers",
            f"write 'cause:' and 'action:' under 'entries: {entry_id}:'",
        )
    for entry_id in report.orphans:
        yield Finding(
            "notes-orphan",
            shown,
            _key_line(text, entry_id),
            entry_id,
            "notes for an entry that is no longer in the catalog",
            "rename the key to the entry's new id (see likely-successor), or delete the notes",
        )
    for entry_id, field, unknown in unknown_constants(notes, catalog):
        yield Finding(
            "notes-unknown-constant",
            shown,
            _key_line(text, entry_id),
            f"{entry_id}.{field}",
            f"names {', '.join(sorted(unknown))}, which the source no longer defines",
            f"use one of the catalog's constants: {', '.join(sorted(catalog.get('constants', {})))}",
        )


def _key_line(text: str, key: str) -> int | None:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip().startswith(f"{key}:"):
            return number
    return None


def unknown_constants(
    notes: Mapping[str, Any], catalog: Mapping[str, Any]
) -> Iterator[tuple[str, str, set[str]]]:
    """(entry id, field, names) for every note that uses a name the catalog's constants lack."""
    environment = jinja2.Environment()
    known = set(catalog.get("constants") or {})
    for entry_id, fields in sorted((notes.get("entries") or {}).items()):
        for field, value in sorted((fields or {}).items()):
            if not isinstance(value, str) or "{{" not in value:
                continue
            try:
                used = jinja2.meta.find_undeclared_variables(environment.parse(value))
            except jinja2.TemplateSyntaxError:
                continue  # render reports syntax errors with their location
            if used - known:
                yield entry_id, field, used - known


def _without_unknown_constants(notes: Mapping[str, Any], catalog: Mapping[str, Any]) -> dict[str, Any]:
    bad = {(entry_id, field) for entry_id, field, _ in unknown_constants(notes, catalog)}
    entries = {
        entry_id: {f: v for f, v in (fields or {}).items() if (entry_id, f) not in bad}
        for entry_id, fields in (notes.get("entries") or {}).items()
    }
    return {**notes, "entries": entries}


def _schema_copies(settings: Settings, extraction: Extraction) -> Iterator[Finding]:
    for relative, text in sorted(extraction.outputs.items()):
        if relative.endswith(".schema.json"):
            path = settings.root / relative
            if not path.exists() or path.read_text(encoding="utf-8") != text:
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
    for result in render_all(settings, fresh, notes):
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
    for page, text in sorted(_pages(settings).items()):
        shown = f"{docs}/{page}"
        meta, _body = split_front_matter(text, page=shown)
        yield from _citation_findings(settings, meta, shown, text)
        yield from stamp_findings(settings.root, meta, page=shown, text=text)
    yield from link_findings(settings.docs_dir, _pages(settings), display_root=docs)


def _pages(settings: Settings) -> dict[str, str]:
    return read_pages(settings.docs_dir)


def _citation_findings(
    settings: Settings, meta: Mapping[str, Any], page: str, text: str
) -> Iterator[Finding]:
    for file, name, symbol in cited_symbols(settings.root, meta, page=page):
        line = _key_line(text, "based_on")
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


def contract_findings(settings: Settings, extraction: Extraction, base: str) -> Iterator[Finding]:
    """Breaking changes for clients since `base`: an error's code or status changed, or it vanished."""
    for name, fresh in extraction.catalogs.items():
        if fresh["kind"] != "errors":
            continue
        relative = settings.relative(settings.catalog_path(name))
        old = _catalog_at(settings, base, relative)
        if old is None:
            continue
        new = {e["id"]: e for e in fresh["entries"]}
        lines = {e["id"]: site for e, site in zip(fresh["entries"], extraction.sites[name], strict=True)}
        for entry in old["entries"]:
            current = new.get(entry["id"])
            before = f"{entry['code']} / HTTP {entry['status']}"
            if current is None:
                yield Finding(
                    "contract-removed",
                    relative,
                    None,
                    entry["id"],
                    f"clients relying on {before} ({entry['message']}) will no longer see it",
                    "note the change in the changelog; keep it if clients depend on it",
                    breaking=True,
                )
                continue
            site = lines[entry["id"]]
            for field, kind in (("code", "contract-code"), ("status", "contract-status")):
                if entry[field] != current[field]:
                    yield Finding(
                        kind,
                        site.file,
                        site.line,
                        entry["id"],
                        f"the {field} clients see changed since {base}",
                        "breaking for clients that branch on it: announce it or revert it",
                        old=str(entry[field]),
                        new=str(current[field]),
                        breaking=True,
                    )


def _catalog_at(settings: Settings, ref: str, relative: str) -> dict[str, Any] | None:
    try:
        shown = subprocess.run(
            ["git", "show", f"{ref}:{relative}"],
            cwd=settings.root,
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError as err:
        raise ConfigError(f"cannot run git: {err.strerror}", hint="install git, or drop --base") from err
    if shown.returncode != 0:
        if "exists on disk, but not in" in shown.stderr or "does not exist in" in shown.stderr:
            return None
        raise ConfigError(
            f"cannot read {relative} at {ref!r}: {shown.stderr.strip()}",
            hint="pass a ref that exists, e.g. --base origin/main (fetch it first in CI)",
        )
    try:
        return catalogs.parse_catalog_text(shown.stdout, f"{ref}:{relative}")
    except CatalogError:
        return None
