"""Find every call of the error constructor in the scanned functions, and resolve what it says.

griffe models modules, functions and constants but not what happens inside a function body, so a small griffe
extension keeps each function's AST node (and each module's source) while griffe visits it; `calls`
finds the calls and their guarding conditions, and the code below resolves what each call says.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import griffe

from generator.core.errors import ConfigError, ConfigErrors, SourceError
from generator.core.models import Source
from generator.core.settings import CatalogConfig, relative_path
from generator.extract.calls import CallFinder, callee_name, name_counts
from generator.extract.constructors import ConstructorTable, lookup, where
from generator.extract.fields import ErrorSite, SiteReader
from generator.extract.resolve import Resolver

__all__ = [
    "ErrorSite",
    "FunctionBodies",
    "ModuleFiles",
    "cited_sources",
    "extract_error_sites",
    "find_function",
    "scanned_functions",
]


class FunctionBodies(griffe.Extension):
    """A griffe extension that remembers the AST node of every function it visits, by dotted path, with the
    source text it was parsed from (so that the text's lines are the node's line numbers)."""

    def __init__(self) -> None:
        super().__init__()
        self.nodes: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        self.code: dict[str, str] = {}
        self.trees: dict[bytes, ast.Module] = {}
        """Each module's whole tree, by the bytes it was parsed from (for `SourceFiles.adopt`)."""

    def on_module_node(self, *, node: Any, agent: Any, **kwargs: Any) -> None:
        code = getattr(agent, "code", None)
        if isinstance(node, ast.Module) and isinstance(code, str):
            # griffe reads files with universal newlines and without a BOM: the encoded text is the file's
            # bytes only when it has neither, and only then can a reader of the file find this tree.
            self.trees[code.encode("utf-8")] = node

    def on_function_instance(self, *, node: Any, func: griffe.Function, agent: Any, **kwargs: Any) -> None:
        code = getattr(agent, "code", None)  # only griffe's visitor parses source
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and isinstance(code, str):
            self.nodes[func.path] = node
            self.code[func.path] = code


def find_function(
    module: griffe.Module,
    name: str,
    resolver: Resolver,
    config: CatalogConfig | None = None,
    *,
    what: str = "function",
) -> griffe.Function:
    """The function `name` (or `Class.method`, or a class's `__init__`) of `module`, imports followed; a
    ConfigError located at the configuration's line, with suggestions, when there is none."""
    obj = lookup(module, name, resolver, config, what=what)
    if isinstance(obj, griffe.Class):
        init = obj.members.get("__init__")
        if isinstance(init, griffe.Function):
            return init
    if not isinstance(obj, griffe.Function):
        key = "constructors" if what == "constructor" else "functions"
        raise ConfigError(
            f"{where(config, key)}'{name}' in {module.path} is not a function",
            file=config.config_file if config else "mkdocs.yml",
            line=config.lines.get(f"{key}.{name}") if config else None,
        )
    return obj


def scanned_functions(
    config: CatalogConfig, module: griffe.Module, resolver: Resolver
) -> list[tuple[str, griffe.Function]]:
    """The configured functions, in order; every name that is not one is reported at once."""
    found: list[tuple[str, griffe.Function]] = []
    errors: list[ConfigError] = []
    for name in config.functions:
        try:
            found.append((name, find_function(module, name, resolver, config)))
        except ConfigError as err:
            errors.append(err)
    if errors:
        raise ConfigErrors(errors) if len(errors) > 1 else errors[0]
    return found


def extract_error_sites(
    config: CatalogConfig,
    module: griffe.Module,
    bodies: FunctionBodies,
    resolver: Resolver,
    files: ModuleFiles,
) -> list[ErrorSite]:
    """All constructor calls in the configured functions, in configuration order, then source order.

    A configured function may be imported into the configured module from another one: its calls are
    located in, and its names resolved in, the module that defines it.
    """
    table = ConstructorTable(config, module, resolver, bodies.nodes)
    constructors = table.by_name
    # By source text, as the configured functions may live in several files: a finder, and the text's lines
    # (griffe reads files with universal newlines, so these are exactly the parser's lines).
    finders: dict[str, tuple[CallFinder, list[str]]] = {}
    sites: list[ErrorSite] = []
    for function_name, function in scanned_functions(config, module, resolver):
        home, file = function.module, files(function.module)
        node = bodies.nodes.get(function.path)
        if node is None:
            raise SourceError(f"no source for {function.path}", file=file, hint="is the module loaded?")
        code = bodies.code[function.path]
        if code not in finders:
            finders[code] = (CallFinder(constructors, name_counts(code, constructors)), code.split("\n"))
        finder, lines = finders[code]
        for found in finder.calls(node.body):
            constructor = constructors[callee_name(found.call)]
            site = SiteReader(config, home, resolver, file, constructor)
            sites.append(site.build(function_name, found, lines))
    if not sites:
        raise _matches_nothing(config)
    return sites


def _matches_nothing(config: CatalogConfig) -> ConfigError:
    """A catalog whose configuration finds no call at all: an error, never an empty catalog called clean."""
    names = ", ".join(config.constructors)
    return ConfigError(
        f"'catalogs.{config.name}': no call of {names} in {', '.join(config.functions)}",
        file=config.config_file,
        line=config.lines.get(f"constructors.{config.constructors[0]}") if config.constructors else None,
        hint="name the functions that build the errors, and the constructor as the calls spell it",
    )


class ModuleFiles:
    """The file each module was read from, relative to the project root (a package: its `__init__.py`),
    worked out once per module in a run: extract asks once per function, and naming a file resolves it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._files: dict[str, str] = {}

    def __call__(self, module: griffe.Module) -> str:
        if module.path not in self._files:
            path = module.filepath[0] if isinstance(module.filepath, list) else module.filepath
            self._files[module.path] = relative_path(path, self.root)
        return self._files[module.path]

    def inside(self, module: griffe.Module) -> bool:
        """Whether `module` was read from a file of the project (not from an installed dependency)."""
        path = module.filepath[0] if isinstance(module.filepath, list) else module.filepath
        return path.resolve().is_relative_to(self.root.resolve())


def cited_sources(
    config: CatalogConfig, module: griffe.Module, files: ModuleFiles, resolver: Resolver
) -> tuple[Source, ...]:
    """The files an errors catalog comes from, each with the constructors and functions defined there, by
    their names in that file, in configuration order. A constructor of an installed dependency is not a
    file of the project, and is not cited."""
    by_file: dict[str, list[str]] = {}
    named = [(name, "constructor") for name in config.constructors]
    for name, what in [*named, *((name, "function") for name in config.functions)]:
        obj = lookup(module, name, resolver, config, what=what)
        if not files.inside(obj.module):
            continue
        local = obj.path.removeprefix(f"{obj.module.path}.")
        if local.endswith(".__init__") and not name.endswith("__init__"):
            local = local.removesuffix(".__init__")  # a class constructor is cited as the class
        by_file.setdefault(files(obj.module), []).append(local)
    return tuple(Source(path, tuple(symbols)) for path, symbols in by_file.items())
