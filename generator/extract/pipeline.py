"""The extract stage end to end, in memory: settings in, catalog texts out. Nothing here writes a file."""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import griffe

from generator.core import catalog as catalogs
from generator.core.errors import CatalogError
from generator.core.settings import CatalogConfig, Settings
from generator.core.yamlio import read_text
from generator.extract.identity import LikelySuccessor, assign_ids
from generator.extract.resolve import Resolver, module_constants
from generator.extract.sites import (
    ErrorSite,
    FunctionBodies,
    cited_sources,
    extract_error_sites,
    find_function,
    module_file,
)
from generator.extract.source import configured_module, load_top_package, locate
from generator.extract.tools import tools_catalog


@dataclass
class Extraction:
    """What extract found: catalogs as data and as text, plus what editors should hear about."""

    catalogs: dict[str, dict[str, Any]] = field(default_factory=dict)
    outputs: dict[str, str] = field(default_factory=dict)
    """Project-relative path -> the exact text docgen would write there."""
    sites: dict[str, list[ErrorSite]] = field(default_factory=dict)
    """Per errors catalog, the call sites with their current line numbers (never written to a catalog)."""
    successors: dict[str, list[LikelySuccessor]] = field(default_factory=dict)
    module_names: dict[str, frozenset[str]] = field(default_factory=dict)
    trees: dict[bytes, ast.Module] = field(default_factory=dict)
    """The syntax tree of every source file read, by its bytes: check fingerprints citations with them."""


class _Loaded:
    """Each source package is loaded once per run, however many catalogs read it or its modules."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.resolver = Resolver()
        self._packages: dict[tuple[Path, str], tuple[griffe.Module, FunctionBodies]] = {}

    def module(self, config: CatalogConfig) -> tuple[griffe.Module, FunctionBodies]:
        location = locate(self.settings.root, config.source)
        key = (location.search_path, location.package)
        if key not in self._packages:
            bodies = FunctionBodies()
            package = load_top_package(location, root=self.settings.root, extensions=[bodies])
            self._packages[key] = (package, bodies)
        package, bodies = self._packages[key]
        return configured_module(package, location), bodies

    def trees(self) -> dict[bytes, ast.Module]:
        """Every module tree griffe parsed in this run, by the bytes it was parsed from."""
        return {
            source: tree for _, bodies in self._packages.values() for source, tree in bodies.trees.items()
        }


def previous_catalog(settings: Settings, name: str) -> dict[str, Any] | None:
    """The committed catalog, whose ids the new one keeps; None when there is none yet.

    A catalog that exists but cannot be read is an error rather than a fresh start: regenerating it would
    give every entry a new id and leave its editors' notes behind.
    """
    path = settings.catalog_path(name)
    if not path.exists():
        return None
    try:
        return catalogs.load_catalog(path, settings.relative(path))
    except CatalogError as err:
        err.hint = (
            f"restore it (`git checkout -- {settings.relative(path)}`) so its entries keep their ids, "
            "or delete it to assign fresh ids (notes keyed by the old ids would then need renaming)"
        )
        raise


def extract(
    settings: Settings, previous: Mapping[str, dict[str, Any] | None] | None = None, *, dump: bool = True
) -> Extraction:
    """Read every configured source and build every catalog in memory.

    `previous` holds the committed catalogs when the caller has read them already; `dump=False` leaves the
    catalogs' YAML text out of `outputs` (check compares data, and dumping 10,000 entries takes a while).
    """
    if previous is None:
        previous = {name: previous_catalog(settings, name) for name in settings.catalogs}
    loaded = _Loaded(settings)
    result = Extraction()
    for name, config in settings.catalogs.items():
        if config.kind == "tools":
            module = loaded.module(config)[0]
            data = tools_catalog(config, module, loaded.resolver, module_file(module, settings.root))
        else:
            data = _errors(loaded, name, config, previous.get(name), result)
        result.catalogs[name] = data
        if dump:
            text = _catalog_text(settings.catalog_path(name), data, previous.get(name))
            result.outputs[settings.relative(settings.catalog_path(name))] = text
    for schema in sorted(catalogs.SCHEMA_DIR.glob("*.schema.json")):
        target = settings.data_dir / "schema" / schema.name
        result.outputs[settings.relative(target)] = schema.read_text(encoding="utf-8")
    result.trees = loaded.trees()
    return result


def _catalog_text(path: Path, data: Mapping[str, Any], committed: Mapping[str, Any] | None) -> str:
    """The text to write for a catalog: the committed file's when it states exactly these facts in this
    order (JSON tells types and key order apart, as the YAML would), otherwise a fresh dump.

    Dumping is what extract spends most on when a large backend's catalogs have not changed: about a second
    for 10,000 entries, against a hundredth for this comparison. A committed catalog that holds the same
    facts in another layout (reformatted by hand) is therefore left as it is until its facts change.
    """
    if committed is not None and _facts(data) == _facts(committed):
        return read_text(path, path.name, newline="")
    return catalogs.dump_catalog(data)


def _facts(data: Mapping[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False)


def _errors(
    loaded: _Loaded,
    name: str,
    config: CatalogConfig,
    previous: Mapping[str, Any] | None,
    result: Extraction,
) -> dict[str, Any]:
    module, bodies = loaded.module(config)
    resolver, root = loaded.resolver, loaded.settings.root
    sites = extract_error_sites(config, module, bodies, resolver, root)
    homes = {find_function(module, function).module for function in config.functions}
    module_names = frozenset(module.members).union(*(home.members for home in homes))
    ids, successors = assign_ids(sites, (previous or {}).get("entries", []), module_names)
    result.sites[name] = sites
    result.successors[name] = successors
    result.module_names[name] = module_names
    sources = cited_sources(config, module, root)
    constants = module_constants(module, resolver)
    return errors_catalog(name, sites, ids, sources, constants)


def errors_catalog(
    name: str,
    sites: Sequence[ErrorSite],
    ids: Sequence[str],
    sources: Sequence[Mapping[str, Any]],
    constants: Mapping[str, Any],
) -> dict[str, Any]:
    """The errors catalog as plain data, in the field order it is written in."""
    entries = []
    for site, entry_id in zip(sites, ids, strict=True):
        entry: dict[str, Any] = {
            "id": entry_id,
            "code": site.code,
            "status": site.status,
            "message": site.message,
            "function": site.function,
            "file": site.file,
            "conditions": list(site.conditions),
            "data_keys": list(site.data_keys),
            "constants_used": list(site.constants_used),
        }
        if site.draft_cause:
            entry["draft_cause"] = site.draft_cause
        entries.append(entry)
    return {
        "catalog": name,
        "kind": "errors",
        "sources": [dict(source) for source in sources],
        "constants": dict(constants),
        "entries": entries,
    }
