"""Locate the configured backend source and load it with griffe, statically: nothing is imported or run.

Which files are read, and what happens to one that cannot be, is `modules`' business. What griffe does not
keep, every function's syntax tree and the file each module was read from, is kept here as it loads
(`FunctionBodies`, `ModuleFiles`).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import griffe

from docgen.core.errors import ConfigError, SourceError
from docgen.core.records import record
from docgen.core.settings import relative_path
from docgen.core.settings_checks import source_path
from docgen.extract.modules import SourceModules


@record
class SourceLocation:
    """Where a configured source lives: its package root on disk and its dotted module path."""

    search_path: Path
    package: str
    module: str
    whole: bool = False
    """Whether the source names a package (a folder, or a dotted package): then every module of it is read,
    not only the modules its `__init__.py` imports."""


def locate(root: Path, source: str, *, display: str = "mkdocs.yml") -> SourceLocation:
    """Turn a path such as `backend/app/mcp_server.py`, a folder or a dotted package into (search path, top
    package, module)."""
    path = source_path(root, source).resolve()
    if not path.exists():
        raise ConfigError(f"the source {source} does not exist", file=display, hint="check 'source:'")
    if path.is_file() and path.suffix != ".py":
        raise ConfigError(f"the source {source} is not a Python file", file=display)
    parts = [path.stem] if path.is_file() and path.name != "__init__.py" else []
    folder = path.parent if path.is_file() else path
    if path.is_dir() and not (path / "__init__.py").exists():
        raise ConfigError(f"the source {source} is a folder without __init__.py", file=display)
    while (folder / "__init__.py").exists():
        parts.insert(0, folder.name)
        folder = folder.parent
    if not parts:
        raise ConfigError(f"cannot tell the module of {source}", file=display)
    return SourceLocation(folder, parts[0], ".".join(parts), whole=path.is_dir())


def load_source(modules: SourceModules, location: SourceLocation, *, root: Path) -> griffe.Module:
    """The configured module of `location` and the modules of its package it imports, read statically; for
    a package, every module under its folder as well."""
    modules.add_search_path(location.search_path)
    module = modules.load_package_closure(location.module)
    if location.whole:
        load_tree(modules, module)
    return module


MAX_PACKAGE_MODULES = 5000
"""How many modules a source that names a whole package may have."""


def load_tree(modules: SourceModules, package: griffe.Module) -> None:
    """Read every module under the folder of `package` (a source that names a whole package): its classes
    and functions can then be named by dotted path, and its subclasses of a constructor are found wherever
    they are defined. Subfolders without `__init__.py` are not modules of it."""
    init = package.filepath[0] if isinstance(package.filepath, list) else package.filepath
    if init.name != "__init__.py":
        return
    folder = init.parent
    files = sorted(
        file
        for file in folder.rglob("*.py")
        if file.name != "__init__.py" and _in_package(file.parent, folder)
    )
    if len(files) > MAX_PACKAGE_MODULES:
        raise SourceError(
            f"the package {package.path} has {len(files):,} modules; docgen reads at most "
            f"{MAX_PACKAGE_MODULES:,} of one package",
            file=modules.shown(package),
            hint="point 'source:' at a subpackage or a module",
        )
    for file in files:
        modules.module(".".join((package.path, *file.relative_to(folder).with_suffix("").parts)))


def _in_package(folder: Path, top: Path) -> bool:
    """Whether every folder from `top` down to `folder` is a package (has an `__init__.py`)."""
    while folder != top:
        if not (folder / "__init__.py").exists():
            return False
        folder = folder.parent
    return True


class FunctionBodies(griffe.Extension):
    """A griffe extension that remembers the AST node of every function it visits, by dotted path, with the
    source text it was parsed from (so that the text's lines are the node's line numbers)."""

    def __init__(self) -> None:
        super().__init__()
        self.nodes: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        self.code: dict[str, str] = {}
        self.trees: dict[bytes, ast.Module] = {}
        """Each module's whole tree, by the bytes it was parsed from (for `SourceFiles.adopt`)."""
        self.modules: dict[str, ast.Module] = {}
        """Each module's whole tree, by its dotted path (for its top-level tables of functions)."""
        self.classes: dict[str, ast.ClassDef] = {}
        """Each class's node, by dotted path (its body's own assignments, which griffe's attributes lose
        when `__init__` assigns the same name)."""

    def on_module_node(self, *, node: Any, agent: Any, **kwargs: Any) -> None:
        code = getattr(agent, "code", None)
        if isinstance(node, ast.Module) and isinstance(code, str):
            # griffe reads files with universal newlines and without a BOM: the encoded text is the file's
            # bytes only when it has neither, and only then can a reader of the file find this tree.
            self.trees[code.encode("utf-8")] = node

    def on_module_instance(self, *, node: Any, mod: griffe.Module, agent: Any, **kwargs: Any) -> None:
        if isinstance(node, ast.Module):
            self.modules[mod.path] = node

    def on_class_instance(self, *, node: Any, cls: griffe.Class, **kwargs: Any) -> None:
        if isinstance(node, ast.ClassDef):
            self.classes[cls.path] = node

    def on_function_instance(self, *, node: Any, func: griffe.Function, agent: Any, **kwargs: Any) -> None:
        code = getattr(agent, "code", None)  # only griffe's visitor parses source
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and isinstance(code, str):
            self.nodes[func.path] = node
            self.code[func.path] = code


class ModuleFiles:
    """The file each module was read from, relative to the project root (a package: its `__init__.py`),
    worked out once per module in a run: extract asks once per function, and naming a file resolves it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._files: dict[str, str] = {}
        self._seen: dict[int, tuple[griffe.Module, str]] = {}
        """By id of the module object (asked once per call site): the module, kept alive, and its file."""
        self._inside: dict[str, bool] = {}
        self._resolved_root = root.resolve()

    def __call__(self, module: griffe.Module) -> str:
        seen = self._seen.get(id(module))
        if seen is not None and seen[0] is module:
            return seen[1]
        if module.path not in self._files:
            path = module.filepath[0] if isinstance(module.filepath, list) else module.filepath
            self._files[module.path] = relative_path(path, self.root)
        self._seen[id(module)] = (module, self._files[module.path])
        return self._files[module.path]

    def inside(self, module: griffe.Module) -> bool:
        """Whether `module` was read from a file of the project (not from an installed dependency); worked
        out once per module (resolving a path reads every folder on the way)."""
        if module.path not in self._inside:
            path = module.filepath[0] if isinstance(module.filepath, list) else module.filepath
            self._inside[module.path] = path.resolve().is_relative_to(self._resolved_root)
        return self._inside[module.path]
