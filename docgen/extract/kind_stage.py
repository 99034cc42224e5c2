"""What extract asks of a catalog kind, and the run every kind's extraction reads the source through.

`docgen/core/kinds.py` finds the kind; a kind that builds catalogs from source also gives `extract`
(`ExtractingKind`). It returns one typed result of its own (`KindResult`): the catalog, plus whatever its
findings need later (call sites, lines), so that no stage keeps a dictionary of them per kind.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Protocol, runtime_checkable

import griffe

from docgen.core import kinds
from docgen.core.catalog_config import CatalogConfig
from docgen.core.coverage import Coverage
from docgen.core.errors import ConfigError
from docgen.core.models import Catalog
from docgen.core.project import Project
from docgen.extract.error_marks import MarkedCalls
from docgen.extract.modules import SourceModules
from docgen.extract.program import ModuleTrees, Program, imported_modules
from docgen.extract.resolve import STDLIB_ENUMS, Resolver
from docgen.extract.source import FunctionBodies, ModuleFiles, load_source, locate


class KindResult(Protocol):
    """What one catalog's extraction gives, whatever its kind: at least the catalog."""

    @property
    def catalog(self) -> Catalog: ...


@runtime_checkable
class ExtractingKind(Protocol):
    """A catalog kind as extract calls it."""

    def extract(self, run: ExtractRun, name: str, config: CatalogConfig) -> KindResult:
        """Catalog `name` built from its configured source (the committed one, `run.project.committed`,
        gives the ids to keep); files to write beside it go to `run.outputs`."""
        ...


def extracting(kind: str) -> ExtractingKind:
    """The kind called `kind`, as extract calls it."""
    found = kinds.kind_of(kind)
    if not isinstance(found, ExtractingKind):
        raise ConfigError(f"catalog kind {kind!r} cannot extract a catalog: it has no `extract`")
    return found


class ExtractRun:
    """One run of extract: the project, and the modules of its source read once however many catalogs
    need them."""

    def __init__(self, project: Project) -> None:
        self.project = project
        settings = project.settings
        self.root = settings.root
        self.bodies = ModuleTrees()
        self.modules = SourceModules(
            settings.root, [self.bodies], search_paths=settings.python_path, stop_at=STDLIB_ENUMS
        )
        self.resolver = Resolver(self.modules)
        self.files = ModuleFiles(settings.root)
        self.outputs: dict[str, str] = {}
        """Project-relative path -> text: what the kinds write besides their catalogs."""
        self.marks = MarkedCalls()
        """The calls that lead to catalogued errors, which the kinds that have them add."""

    def module(self, config: CatalogConfig) -> tuple[griffe.Module, FunctionBodies]:
        """The configured source's module as griffe reads it, and the function bodies of this run."""
        location = locate(self.root, config.source)
        return load_source(self.modules, location, root=self.root), self.bodies

    def program(self, config: CatalogConfig) -> Program:
        """The modules of the configured source's package that it imports, transitively (for a source that
        names a whole package, every module of it), as a program to follow calls in."""
        module = self.module(config)[0]
        found = imported_modules(self.modules, module, self.bodies)
        if locate(self.root, config.source).whole:  # a whole package: every module of it, imported or not
            found = sorted(
                {m.path: m for m in [*found, *self.modules.inside(module.path)]}.values(), key=_path
            )
        return Program(found, self.bodies, self.files, loader=self._imported_from)

    def _imported_from(self, dotted: str) -> list[griffe.Module]:
        """The module `dotted` and the modules of its package it imports, or none when it is not found."""
        module = self.modules.module(dotted)
        return imported_modules(self.modules, module, self.bodies) if module is not None else []

    def trees(self) -> dict[bytes, ast.Module]:
        """Every module tree griffe parsed in this run, by the bytes it was parsed from."""
        return dict(self.bodies.trees)


def _path(module: griffe.Module) -> str:
    return module.path


@runtime_checkable
class ReportingKind(Protocol):
    """A catalog kind with more to tell an editor after `docgen extract` than the catalog's summary."""

    def notices(self, project: Project, name: str, result: KindResult) -> Iterator[str]:
        """Lines for the editor about catalog `name` as just extracted (a likely successor's notes to
        rename, a gap in the notes), each naming its file."""
        ...


def notices(project: Project, name: str, result: KindResult) -> Iterator[str]:
    """What `docgen extract` tells the editor about catalog `name`, by its kind (nothing, for most)."""
    kind = kinds.kind_of(result.catalog.kind)
    if isinstance(kind, ReportingKind):
        yield from kind.notices(project, name, result)


@runtime_checkable
class CoveringKind(Protocol):
    """A catalog kind whose catalogs are made of sites read from the source, which can say how many of
    them it read in full."""

    def coverage(self, result: KindResult) -> Coverage:
        """How many sites catalog `result` has, how many have every field resolved, and why the others
        do not."""
        ...


def coverage_line(result: KindResult) -> str | None:
    """The coverage line `docgen extract` ends a catalog's output with; None for a kind without sites."""
    kind = kinds.kind_of(result.catalog.kind)
    return kind.coverage(result).line() if isinstance(kind, CoveringKind) else None
