"""The loaded project: everything docgen reads, read once, by the shell, before any stage runs.

A shell (a `docgen` command, the MkDocs plugin) calls `load_project` and hands the result to the stages;
extract, render, check and probe read nothing else (extract's griffe still reads the server's source, which
is its input, and cited source files are read through `Project.sources`, each once). A file that cannot be
read, parsed or checked stops the command here, with its location, before anything is written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any

from docgen.core import kinds
from docgen.core.catalog import parse_catalog
from docgen.core.diff_lines import ChangedLines
from docgen.core.errors import CatalogError, TemplateError
from docgen.core.evidence import Evidence, parse_evidence, probe_command
from docgen.core.git_ref import Commit, bytes_at, changed_lines, verified_commit
from docgen.core.models import Catalog, ErrorsCatalog
from docgen.core.notes import Notes, parse_notes
from docgen.core.openapi import read_openapi
from docgen.core.pages import FrontMatter, page_fronts, read_pages
from docgen.core.reader import decode_utf8, read_text
from docgen.core.records import record
from docgen.core.route_evidence import RouteEvidence, parse_route_evidence
from docgen.core.settings import Settings
from docgen.core.spec import Spec, parse_spec
from docgen.core.symbols import SourceFiles
from docgen.core.yamlio import LoadedYaml, load_yaml, read_yaml


@record
class CommittedCatalog:
    """A catalog as committed in data/: its value, and the file it was read from."""

    catalog: Catalog
    document: LoadedYaml
    """The parsed file: its data exactly as written, and the line of every key and item."""
    text: str
    """The file's text, line endings as written (extract keeps it when the facts have not changed)."""

    @property
    def file(self) -> str:
        return self.document.file

    def entry_line(self, entry_id: str) -> int | None:
        """The line of an errors catalog entry (its `- id:`)."""
        return self.item_line("entries", entry_id, key="id")

    def item_line(self, listed: str, name: str, *, key: str = "name") -> int | None:
        """The line of the item of list `listed` whose `key` is `name`, as the file has it (a tool,
        resource or prompt's `- name:` in a tools catalog, by default); None when there is none."""
        data = self.document.data
        items = data.get(listed) if isinstance(data, dict) else None
        found = (i for i, item in enumerate(items or ()) if isinstance(item, dict) and item.get(key) == name)
        index = next(found, None)
        return self.document.line((listed, index)) if index is not None else None


@record
class Project:
    """One project as loaded: settings, committed catalogs, notes, evidence, specs, pages, templates."""

    settings: Settings
    committed: Mapping[str, CommittedCatalog | None]
    """Catalog name -> the committed catalog; None when it has not been extracted yet."""
    notes: Mapping[str, Notes]
    evidence: Mapping[str, Evidence]
    """Catalog name -> its evidence, for the catalogs (of a kind with evidence) probe has run for."""
    specs: Mapping[str, Spec]
    """Specification name -> the specification, for every one a notes file names."""
    sources: SourceFiles
    """The source files catalogs and pages cite, read when first asked for."""
    pages: Mapping[str, str] = field(default_factory=dict)
    """Docs-relative page path -> text, line endings as written."""
    replies: Mapping[str, RouteEvidence] = field(default_factory=dict)
    """Catalog name -> what its HTTP application answered to the examples, for the catalogs (of a kind with
    replies: routes) probe has run for."""
    fronts: Mapping[str, FrontMatter] = field(default_factory=dict)
    """Docs-relative page path -> the page's front matter, parsed with its lines."""
    templates: Mapping[str, str] = field(default_factory=dict)
    """Template name (relative to templates_dir) -> source."""
    base_ref: str | None = None
    base: Mapping[str, ErrorsCatalog | None] = field(default_factory=dict)
    """With `base_ref`: each catalog of a kind with evidence (errors catalogs) as committed at that ref
    (None: not there, unreadable, or of another kind)."""
    changed: ChangedLines | None = None
    """With `base_ref`: the lines changed since that ref, the only ones `--format github` annotates."""
    fragments: Mapping[str, str | None] = field(default_factory=dict)
    """Routes catalog name -> its committed OpenAPI fragment's text (None: not written yet)."""
    openapi: Mapping[str, dict[str, Any]] = field(default_factory=dict)
    """Routes catalog name -> the committed OpenAPI document its configuration names (read with `site`,
    for check)."""

    def catalogs(self) -> dict[str, Catalog]:
        """Every committed catalog; one that does not exist yet is an error (render needs them all)."""
        found: dict[str, Catalog] = {}
        for name, committed in self.committed.items():
            if committed is None:
                shown = self.settings.relative(self.settings.catalog_path(name))
                raise CatalogError(
                    "the catalog does not exist yet", file=shown, hint="run `docgen extract` first"
                )
            found[name] = committed.catalog
        return found

    def spec_of(self, catalog: str) -> Spec | None:
        """The specification the notes of `catalog` name, if any."""
        notes = self.notes.get(catalog)
        return self.specs[notes.spec] if notes is not None and notes.spec else None


def load_project(
    settings: Settings,
    *,
    site: bool = True,
    pages: Mapping[str, str] | None = None,
    base: str | None = None,
) -> Project:
    """Read and check every file of the project that docgen uses.

    Parameters:
        settings: The configuration.
        site: Also read the pages and templates (extract and probe do without them).
        pages: The pages as a caller already read them (the MkDocs plugin reads them through MkDocs).
        base: A git ref: also read each errors catalog as committed there (for contract changes). It is
            verified to name a commit first, before any file is read (a ConfigError when it does not).
    """
    commit = verified_commit(settings.root, base) if base is not None else None
    committed = {name: _committed(settings, name) for name in settings.catalogs}
    notes = {name: _notes(settings, name, committed[name]) for name in settings.catalogs}
    docs = settings.relative(settings.docs_dir)
    if pages is None and site:
        pages = read_pages(settings.docs_dir, within=settings.root, shown=docs)
    return Project(
        settings=settings,
        committed=committed,
        notes=notes,
        evidence=_evidence(settings),
        replies=_replies(settings),
        specs=_specs(settings, notes),
        sources=SourceFiles(settings.root),
        pages=dict(pages or {}),
        templates=_templates(settings) if pages is not None else {},
        base_ref=base,
        base=_base_catalogs(settings, commit) if commit is not None else {},
        changed=changed_lines(settings.root, commit) if commit is not None else None,
        fragments=_fragments(settings),
        openapi=_openapi_documents(settings) if site else {},
        # Last, so that a page's front-matter error still comes after any other file's.
        fronts=page_fronts(pages or {}, docs=docs),
    )


def _committed(settings: Settings, name: str) -> CommittedCatalog | None:
    """The committed catalog, whose ids a new extraction keeps; None when there is none yet.

    A catalog that exists but cannot be read is an error rather than a fresh start: regenerating it would
    give every entry a new id and leave its editors' notes behind.
    """
    path = settings.catalog_path(name)
    if not path.exists():
        return None
    shown = settings.relative(path)
    try:
        text = read_text(path, shown, newline="", within=settings.root)
        document = load_yaml(text, shown)
        return CommittedCatalog(parse_catalog(document), document, text)
    except CatalogError as err:
        err.hint = (
            f"restore it (`git checkout -- {shown}`) so its entries keep their ids, "
            "or delete it to assign fresh ids (notes keyed by the old ids would then need renaming)"
        )
        raise


def _fragments(settings: Settings) -> dict[str, str | None]:
    found: dict[str, str | None] = {}
    for name, config in settings.catalogs.items():
        path = settings.fragment_path(name)
        if "openapi" in kinds.kind_of(config.kind).companions:
            found[name] = read_text(path, settings.relative(path), newline="") if path.is_file() else None
    return found


def _openapi_documents(settings: Settings) -> dict[str, dict[str, Any]]:
    found = {}
    for name, config in settings.catalogs.items():
        if "openapi" in kinds.kind_of(config.kind).companions and config.openapi is not None:
            path = settings.root / config.openapi
            found[name] = read_openapi(path, settings.relative(path))
    return found


def _notes(settings: Settings, name: str, committed: CommittedCatalog | None) -> Notes:
    path = settings.notes_path(name)
    shown = settings.relative(path)
    loaded = read_yaml(path, shown, within=settings.root) if path.exists() else None
    catalog = committed.catalog if committed is not None else None
    dynamic = {e.id: e.dynamic for e in catalog.entries} if isinstance(catalog, ErrorsCatalog) else None
    return parse_notes(loaded, shown, dynamic)


def _evidence(settings: Settings) -> dict[str, Evidence]:
    found = {}
    for name, config in settings.catalogs.items():
        path = settings.evidence_path(name)
        if "evidence" in kinds.kind_of(config.kind).companions and path.is_file():
            found[name] = parse_evidence(read_yaml(path, settings.relative(path), within=settings.root))
    return found


def _replies(settings: Settings) -> dict[str, RouteEvidence]:
    found = {}
    for name, config in settings.catalogs.items():
        path = settings.evidence_path(name)
        if "replies" in kinds.kind_of(config.kind).companions and path.is_file():
            loaded = read_yaml(path, settings.relative(path), within=settings.root)
            found[name] = parse_route_evidence(loaded, probe_command(settings.probe_app))
    return found


def _specs(settings: Settings, notes: Mapping[str, Notes]) -> dict[str, Spec]:
    specs: dict[str, Spec] = {}
    for note in notes.values():
        if not note.spec or note.spec in specs:
            continue
        spec_path, baseline_path = settings.spec_paths(note.spec)
        shown, shown_baseline = settings.relative(spec_path), settings.relative(baseline_path)
        if not spec_path.is_file():
            raise CatalogError(
                f"the notes name specification {note.spec!r}, but {shown} does not exist",
                file=note.file,
                hint="fix `spec:` in the notes, or add the classification file",
            )
        baseline = (
            read_yaml(baseline_path, shown_baseline, within=settings.root)
            if baseline_path.is_file()
            else None
        )
        loaded = read_yaml(spec_path, shown, within=settings.root)
        specs[note.spec] = parse_spec(note.spec, loaded, baseline, baseline_file=shown_baseline)
    return specs


def _templates(settings: Settings) -> dict[str, str]:
    """Every file under templates_dir (a template may include any of them), by its name there: regular
    files inside the folder, within the size limit, UTF-8."""
    folder = settings.templates_dir
    if not folder.is_dir():
        return {}
    templates, inside, shown_folder = {}, folder.resolve(), settings.relative(folder)
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        name = path.relative_to(folder).as_posix()
        shown = f"{shown_folder}/{name}"
        if not path.resolve().is_relative_to(inside):
            raise TemplateError(
                "the template is a link to a file outside the templates folder",
                file=shown,
                hint="keep templates as files inside the templates folder",
            )
        templates[name] = read_text(path, shown, error=TemplateError)
    return templates


def _base_catalogs(settings: Settings, commit: Commit) -> dict[str, ErrorsCatalog | None]:
    found: dict[str, ErrorsCatalog | None] = {}
    for name, config in settings.catalogs.items():
        if "evidence" in kinds.kind_of(config.kind).companions:
            found[name] = _catalog_at(settings, commit, settings.relative(settings.catalog_path(name)))
    return found


def _catalog_at(settings: Settings, commit: Commit, relative: str) -> ErrorsCatalog | None:
    data = bytes_at(settings.root, commit, relative)
    if data is None:
        return None
    shown = f"{commit.ref}:{relative}"
    try:
        catalog = parse_catalog(load_yaml(decode_utf8(data, shown, error=CatalogError), shown))
    except CatalogError:
        return None
    return catalog if isinstance(catalog, ErrorsCatalog) else None
