"""An errors catalog from source: the constructor calls in the configured functions, each an entry with a
stable id, and what check needs about them beyond the catalog (their current lines, likely successors)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from generator.core.catalog_config import CatalogConfig
from generator.core.errors import ConfigError
from generator.core.models import ErrorsCatalog, Json, Source
from generator.core.records import record
from generator.extract.framework_errors import FrameworkErrors
from generator.extract.identity import LikelySuccessor, assign_ids
from generator.extract.kind_stage import ExtractRun
from generator.extract.module_constants import module_constants
from generator.extract.routes import framework_named
from generator.extract.sites import (
    ErrorSite,
    cited_sources,
    extract_error_sites,
    root_sources,
    scanned_functions,
)


@record
class ErrorsExtraction:
    """An errors catalog as extracted, with what findings about it need."""

    catalog: ErrorsCatalog
    sites: tuple[ErrorSite, ...]
    """The call sites with their current line numbers, in entry order (never written to a catalog)."""
    successors: tuple[LikelySuccessor, ...]
    module_names: frozenset[str]
    """The names defined in the configured module and in the modules of its scanned functions."""
    roots: frozenset[str]
    """`file:symbol` of its configured constructors and functions (its sources without the helpers
    extraction reached)."""


def extract_errors(run: ExtractRun, name: str, config: CatalogConfig) -> ErrorsExtraction:
    """Errors catalog `name`: the ids of the committed catalog are kept where an entry is the same."""
    committed = run.project.committed[name]
    previous = committed.catalog if committed is not None else None
    old = previous.entries if isinstance(previous, ErrorsCatalog) else ()
    module, bodies = run.module(config)
    resolver = run.resolver
    defaults = framework_errors(run, config)
    sites = extract_error_sites(config, module, bodies, resolver, run.files, old, defaults)
    homes = {function.module for _, function in scanned_functions(config, module, resolver)}
    module_names = frozenset(module.members).union(*(home.members for home in homes))
    ids, successors = assign_ids(sites, old, module_names)
    roots = root_sources(config, module, run.files, resolver)
    sources = cited_sources(roots, sites)
    constants = module_constants(module, resolver)
    catalog = errors_catalog(name, sites, ids, sources, constants)
    run.marks.add(sites, catalog.entries, module_names)
    return ErrorsExtraction(
        catalog,
        tuple(sites),
        tuple(successors),
        module_names,
        frozenset(f"{root.path}:{symbol}" for root in roots for symbol in root.symbols),
    )


def framework_errors(run: ExtractRun, config: CatalogConfig) -> FrameworkErrors | None:
    """The catalog's framework (`framework:`) as it adds to the configuration; None without one."""
    if not config.framework:
        return None
    try:
        framework = framework_named(config.framework, run.resolver)
    except ConfigError as err:
        err.file = config.config_file
        raise
    return FrameworkErrors(framework, run.program(config), run.resolver)


def errors_catalog(
    name: str,
    sites: Sequence[ErrorSite],
    ids: Sequence[str],
    sources: Sequence[Source],
    constants: Mapping[str, Json],
) -> ErrorsCatalog:
    """The errors catalog of `sites`: each site's entry, given its id."""
    entries = tuple(
        dataclasses.replace(site.entry, id=entry_id) for site, entry_id in zip(sites, ids, strict=True)
    )
    return ErrorsCatalog(name, tuple(sources), dict(constants), entries)
