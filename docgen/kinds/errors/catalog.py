"""An errors catalog from source: the constructor calls in the configured functions that make an error, each
an entry with a stable id, and what check needs about them beyond the catalog (their current lines, likely
successors)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from docgen.core.catalog_config import CatalogConfig
from docgen.core.errors import ConfigError
from docgen.core.models import ErrorsCatalog, Json, Source
from docgen.core.records import record
from docgen.extract.framework_errors import FrameworkErrors
from docgen.extract.identity import LikelySuccessor, assign_ids
from docgen.extract.installed import require_installed
from docgen.extract.kind_stage import ExtractRun
from docgen.extract.module_constants import module_constants
from docgen.extract.responses import ERROR_STATUS
from docgen.extract.routes import framework_named
from docgen.extract.sites import (
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
    found = extract_error_sites(config, module, bodies, resolver, run.files, old, defaults)
    sites = [site for site in found if is_error(site)]
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


def is_error(site: ErrorSite) -> bool:
    """Whether a call of a configured builder makes an error: not when its status resolves below 400 and it
    states no code, as a builder that answers both successes and errors does for a success
    (`json_response(data, status=200)`, or a status left to a default of 200). A code keeps the entry
    whatever the status: JSON-RPC answers its errors with 200 and names them by their code; so does a
    status or code known only at run time."""
    entry = site.entry
    if entry.status is None or entry.status >= ERROR_STATUS or entry.code is not None:
        return True
    return "status" in entry.dynamic or "code" in entry.dynamic


def framework_errors(run: ExtractRun, config: CatalogConfig) -> FrameworkErrors | None:
    """The catalog's framework (`framework:`) as it adds to the configuration; None without one."""
    if not config.framework:
        return None
    try:
        framework = framework_named(config.framework, run.resolver)
        program = run.program(config)
        require_installed(framework, program, run.resolver, config)
    except ConfigError as err:
        err.file = config.config_file
        raise
    return FrameworkErrors(framework, program, run.resolver)


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
