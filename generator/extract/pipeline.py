"""The extract stage end to end, in memory: the loaded project in, catalogs and their texts out.

Nothing here writes a file.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import griffe

from generator.core.catalog import dump_catalog
from generator.core.models import Catalog, ErrorEntry, ErrorsCatalog, Json, RoutesCatalog, Source
from generator.core.openapi import dump_fragment, error_fragment
from generator.core.project import CommittedCatalog, Project
from generator.core.schemas import packaged
from generator.core.settings import CatalogConfig, Settings
from generator.core.symbols import SourceFiles
from generator.extract.error_marks import MarkedCalls
from generator.extract.identity import LikelySuccessor, assign_ids
from generator.extract.modules import SourceModules
from generator.extract.program import ModuleTrees, Program, imported_modules
from generator.extract.resolve import STDLIB_ENUMS, Resolver, module_constants
from generator.extract.sites import (
    ErrorSite,
    FunctionBodies,
    ModuleFiles,
    cited_sources,
    extract_error_sites,
    root_sources,
    scanned_functions,
)
from generator.extract.source import load_source, locate
from generator.extract.tools import tools_catalog

if TYPE_CHECKING:
    from generator.extract.route_catalog import OperationLine


@dataclass
class Extraction:
    """What extract found: catalogs as values and as text, plus what editors should hear about."""

    catalogs: dict[str, Catalog] = field(default_factory=dict)
    outputs: dict[str, str] = field(default_factory=dict)
    """Project-relative path -> the exact text docgen would write there."""
    sites: dict[str, list[ErrorSite]] = field(default_factory=dict)
    """Per errors catalog, the call sites with their current line numbers (never written to a catalog)."""
    successors: dict[str, list[LikelySuccessor]] = field(default_factory=dict)
    module_names: dict[str, frozenset[str]] = field(default_factory=dict)
    trees: dict[bytes, ast.Module] = field(default_factory=dict)
    """The syntax tree of every source file read, by its bytes: check fingerprints citations with them."""
    warnings: list[str] = field(default_factory=list)
    """Files that were reached but could not be read, and that no catalog needed."""
    operation_lines: dict[str, tuple[OperationLine, ...]] = field(default_factory=dict)
    """Per routes catalog, where each operation is declared (for findings on the route's line)."""
    raise_lines: dict[str, dict[str, tuple[str, int]]] = field(default_factory=dict)
    """Per routes catalog, error id -> the file and line of its raise."""
    fragments: dict[str, dict[str, Json]] = field(default_factory=dict)
    """Per routes catalog, its OpenAPI fragment (written beside the catalog as `<name>.openapi.json`)."""
    error_marks: MarkedCalls = field(default_factory=MarkedCalls)
    """Every call that leads to an errors catalog's entries, with their facts: fingerprints hash the
    statements holding them as those facts (`SourceFiles.mark_errors`)."""
    roots: dict[str, frozenset[str]] = field(default_factory=dict)
    """Per errors catalog, `file:symbol` of its configured constructors and functions (its sources without
    the helpers extraction reached)."""

    def inform(self, sources: SourceFiles) -> None:
        """Hand the project's source files what extraction learned: the trees griffe parsed (so cited files
        are not parsed again) and the calls that lead to catalogued errors (so fingerprints hash them as
        their errors' facts). check and probe both do, so that they compare the same fingerprints."""
        sources.adopt(self.trees)
        sources.mark_errors(self.error_marks)


class _Loaded:
    """The modules of one run, read once however many catalogs need them."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.bodies = ModuleTrees()
        self.modules = SourceModules(
            settings.root, [self.bodies], search_paths=settings.python_path, stop_at=STDLIB_ENUMS
        )
        self.resolver = Resolver(self.modules)
        self.files = ModuleFiles(settings.root)

    def module(self, config: CatalogConfig) -> tuple[griffe.Module, FunctionBodies]:
        location = locate(self.settings.root, config.source)
        return load_source(self.modules, location, root=self.settings.root), self.bodies

    def program(self, config: CatalogConfig) -> Program:
        """The modules of the configured source's package that it imports, transitively, as a program to
        follow calls in."""
        module = self.module(config)[0]
        return Program(imported_modules(self.modules, module, self.bodies), self.bodies, self.files)

    def trees(self) -> dict[bytes, ast.Module]:
        """Every module tree griffe parsed in this run, by the bytes it was parsed from."""
        return dict(self.bodies.trees)


def extract(project: Project, *, dump: bool = True) -> Extraction:
    """Read every configured source and build every catalog in memory; the committed catalogs give the ids.

    `dump=False` leaves the catalogs' YAML text out of `outputs` (check compares values, and dumping 10,000
    entries takes a while).
    """
    settings = project.settings
    loaded = _Loaded(settings)
    result = Extraction()
    for name, config in settings.catalogs.items():
        committed = project.committed[name]
        data: Catalog
        if config.kind == "tools":
            module = loaded.module(config)[0]
            data = tools_catalog(config, module, loaded.resolver, loaded.files(module))
        elif config.kind == "routes":
            data = _routes(loaded, project, name, config, result)
            fragment = settings.relative(settings.fragment_path(name))
            result.outputs[fragment] = dump_fragment(result.fragments[name])
        else:
            previous = committed.catalog if committed is not None else None
            old = previous.entries if isinstance(previous, ErrorsCatalog) else ()
            data = _errors(loaded, name, config, old, result)
        result.catalogs[name] = data
        if dump:
            result.outputs[settings.relative(settings.catalog_path(name))] = _catalog_text(data, committed)
    for schema, text in packaged().items():
        result.outputs[settings.relative(settings.data_dir / "schema" / schema)] = text
    result.trees = loaded.trees()
    result.warnings = loaded.modules.warnings()
    return result


def _routes(
    loaded: _Loaded, project: Project, name: str, config: CatalogConfig, result: Extraction
) -> RoutesCatalog:
    # Routes catalogs need the web-framework readers; a project without one (most JSON-RPC and MCP servers)
    # does not pay for importing them.
    from generator.extract.route_catalog import routes_catalog  # noqa: PLC0415

    committed = project.committed[name]
    previous = committed.catalog.errors if committed and isinstance(committed.catalog, RoutesCatalog) else ()
    found = routes_catalog(config, loaded.program(config), previous, loaded.resolver)
    result.operation_lines[name] = found.lines
    result.raise_lines[name] = found.sites
    result.fragments[name] = error_fragment(found.catalog, project.notes[name])
    return found.catalog


def _catalog_text(data: Catalog, committed: CommittedCatalog | None) -> str:
    """The text to write for a catalog: the committed file's when it states exactly these facts in this
    order (JSON tells types and key order apart, as the YAML would), otherwise a fresh dump.

    Dumping is what extract spends most on when a large backend's catalogs have not changed: about a second
    for 10,000 entries, against a hundredth for this comparison. A committed catalog that holds the same
    facts in another layout (reformatted by hand) is therefore left as it is until its facts change.
    """
    if committed is not None and _facts(data.as_data()) == _facts(committed.document.data):
        return committed.text
    return dump_catalog(data)


def _facts(data: object) -> str:
    return json.dumps(data, ensure_ascii=False)


def _errors(
    loaded: _Loaded,
    name: str,
    config: CatalogConfig,
    previous: Sequence[ErrorEntry],
    result: Extraction,
) -> ErrorsCatalog:
    module, bodies = loaded.module(config)
    resolver = loaded.resolver
    sites = extract_error_sites(config, module, bodies, resolver, loaded.files, previous)
    homes = {function.module for _, function in scanned_functions(config, module, resolver)}
    module_names = frozenset(module.members).union(*(home.members for home in homes))
    ids, successors = assign_ids(sites, previous, module_names)
    result.sites[name] = sites
    result.successors[name] = successors
    result.module_names[name] = module_names
    roots = root_sources(config, module, loaded.files, resolver)
    sources = cited_sources(roots, sites)
    result.roots[name] = frozenset(f"{root.path}:{symbol}" for root in roots for symbol in root.symbols)
    constants = module_constants(module, resolver)
    catalog = errors_catalog(name, sites, ids, sources, constants)
    result.error_marks.add(sites, catalog.entries, module_names)
    return catalog


def errors_catalog(
    name: str,
    sites: Sequence[ErrorSite],
    ids: Sequence[str],
    sources: Sequence[Source],
    constants: Mapping[str, Json],
) -> ErrorsCatalog:
    """The errors catalog of `sites`, each with its id."""
    entries = tuple(
        ErrorEntry(
            id=entry_id,
            code=site.code,
            status=site.status,
            message=site.message,
            function=site.function,
            file=site.file,
            conditions=site.conditions,
            data_keys=site.data_keys,
            constants_used=site.constants_used,
            draft_cause=site.draft_cause or None,
            dynamic=dict(site.dynamic),
            path=site.path or (site.function,),
            raises=site.raises.sites if site.raises else (),
            raises_scope=site.raises.scope if site.raises else None,
        )
        for site, entry_id in zip(sites, ids, strict=True)
    )
    return ErrorsCatalog(name, tuple(sources), dict(constants), entries)
