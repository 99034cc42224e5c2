"""Load modules one file at a time, statically, and only those extraction reaches.

The scanned package is not loaded whole: the configured module comes first, then every module of the same
package it imports, transitively. Modules outside the package (an installed dependency such as a web
framework, a sibling package) are read only when a name being resolved leads there, and then only the files
on the way (`framework/__init__.py`, then `framework/exceptions.py`, ...), found on the search paths
without importing anything.

Each file is visited on its own, so that a file griffe cannot read (a syntax error, syntax of a newer Python,
a crash inside griffe) spoils only itself: it is recorded as broken, named in a warning, and becomes an error
only when something a catalog needs is defined there.
"""

from __future__ import annotations

import stat
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import griffe

from docgen.core.errors import SourceError
from docgen.core.limits import MAX_FILE_BYTES
from docgen.core.reader import read_text
from docgen.core.settings import relative_path
from docgen.extract.imports import (
    MAX_ALIAS_HOPS,
    ImportedModules,
    StarSearch,
    import_cycle,
    not_installed,
    too_many_hops,
    undefined,
)
from docgen.extract.unreadable import BrokenModule, unparsable


class SourceModules:
    """Every module read in one run, by dotted path, in one griffe collection so that griffe's own alias
    resolution sees them all."""

    def __init__(
        self,
        root: Path,
        extensions: Sequence[griffe.Extension],
        search_paths: Sequence[Path] = (),
        stop_at: Iterable[str] = (),
    ) -> None:
        self.root = root
        self.imports = ImportedModules()
        self.extensions = griffe.load_extensions(self.imports, *extensions)
        self.stop_at = frozenset(stop_at)
        """Dotted names `target` does not follow: the standard-library enums docgen reads by importing."""
        self.search_paths = [*search_paths, *(Path(p) for p in sys.path if p and Path(p).is_dir())]
        self.collection = griffe.ModulesCollection()
        self.lines = griffe.LinesCollection()
        self.broken: dict[str, BrokenModule] = {}
        self._missing: set[str] = set()
        self.visited = 0
        self._read_order: list[str] = []
        self._loaded: dict[str, griffe.Module] = {}
        self._module_of: dict[str, griffe.Module | None] = {}
        """How many files were read: resolving a name reads more only while this grows."""

    def add_search_path(self, folder: Path) -> None:
        """Search `folder` before the environment's paths (the folder holding a configured source)."""
        if folder in self.search_paths:
            self.search_paths.remove(folder)
        self.search_paths.insert(0, folder)

    def loaded(self) -> list[str]:
        """The dotted path of every module read so far, in the order they were read."""
        return list(self._read_order)

    def classes(self) -> Iterator[griffe.Class]:
        """Every class defined at the top of a module read so far, in reading order."""
        for dotted in self._read_order:
            module = self._loaded.get(dotted)
            if module is not None:
                yield from (m for m in module.members.values() if isinstance(m, griffe.Class))

    def warnings(self) -> list[str]:
        """A line for each module that was reached but could not be read."""
        return [broken.warning for broken in self.broken.values()]

    def load_package_closure(self, dotted: str) -> griffe.Module:
        """The module `dotted`, and the modules of its top package that it imports directly. Anything further
        is read when a name being resolved leads there (`target`), so a large package costs only what the
        catalogs reach."""
        module = self.module(dotted)
        if module is None:
            broken = self.broken.get(dotted)
            if broken is not None:
                raise broken.error("the configured source")
            raise SourceError(f"cannot find the module {dotted}", hint="check the 'source:' path")
        package = dotted.split(".", maxsplit=1)[0]
        for target in list(self.imports.of(module)):
            if target.split(".")[0] == package:
                self.module_of(target)
        return module

    def inside(self, package: str) -> list[griffe.Module]:
        """Every module read so far that is `package` or lies under it, in reading order."""
        prefix = f"{package}."
        found = (self._loaded.get(dotted) for dotted in self._read_order)
        return [m for m in found if m is not None and (m.path == package or m.path.startswith(prefix))]

    def module(self, dotted: str) -> griffe.Module | None:
        """The module `dotted`, loading it (and its parent packages) when needed; None if it is not on the
        search paths or did not load."""
        parts = dotted.split(".")
        current = self._top(parts[0])
        for part in parts[1:]:
            if current is None:
                return None
            member = current.members.get(part)
            current = member if isinstance(member, griffe.Module) else self._submodule(current, part)
        return current

    def module_of(self, path: str) -> griffe.Module | None:
        """The deepest module that `path` (a module, or a name inside one) leads through."""
        if path in self._module_of:
            return self._module_of[path]
        found = None
        parts = path.split(".")
        for end in range(len(parts), 0, -1):
            dotted = ".".join(parts[:end])
            known = self._loaded.get(dotted)
            if known is not None or self._exists(parts[:end]):
                found = known or self.module(dotted)
                break
        self._module_of[path] = found
        return found

    def target(self, alias: griffe.Alias, what: str) -> griffe.Object | griffe.Alias:
        """What `alias` finally stands for, reading the modules on the way to it."""
        found: griffe.Object | griffe.Alias = alias
        for _ in range(MAX_ALIAS_HOPS):
            if not isinstance(found, griffe.Alias) or found.target_path in self.stop_at:
                return found
            found = self.step(found, what)
        raise too_many_hops(alias, what, self.shown)

    def step(self, alias: griffe.Alias, what: str) -> griffe.Object | griffe.Alias:
        """The object `alias` names directly (maybe another alias), reading its module when needed."""
        for _ in range(MAX_ALIAS_HOPS):
            try:
                return alias.target
            except griffe.CyclicAliasError as err:
                raise import_cycle(alias, err.chain, what, self.shown) from None
            except griffe.AliasResolutionError as err:
                missing = err.alias  # the alias on the way that could not be followed
                if self._load_for(missing.target_path) is None:
                    return self._unreachable(missing, what)
        raise too_many_hops(alias, what, self.shown)

    def shown(self, module: griffe.Module) -> str:
        """The file of `module` as messages show it."""
        return relative_path(_filepath(module), self.root, follow_links=False)

    def _unreachable(self, alias: griffe.Alias, what: str) -> griffe.Object | griffe.Alias:
        """What `alias` names through its module's star imports, or the located error for its import."""
        path = alias.target_path
        for name, broken in self.broken.items():
            if path == name or path.startswith(name + "."):
                raise broken.error(what)
        module = self.module_of(path)
        if module is None or module.path != path.rpartition(".")[0]:
            raise not_installed(alias, what, self.shown)
        search = StarSearch(module, path.rpartition(".")[2], self.module)
        if search.found is None:
            itself = self.imports.from_itself(module, search.name)
            raise undefined(alias, search, what, self.shown, itself)
        return search.found

    def _load_for(self, path: str) -> griffe.Module | None:
        """Read the module that defines `path`, if one more can be read; None when nothing new loaded."""
        before = self.visited
        module = self.module_of(path)
        return module if module is not None and self.visited > before else None

    def installed(self, package: str) -> bool:
        """Whether a top-level package (`fastapi`) can be found where docgen reads modules: the configured
        `python_path:` and the environment's import path. Nothing is read or imported."""
        return self._exists([package])

    def _exists(self, parts: Sequence[str]) -> bool:
        return any(_file_for(folder, parts) is not None for folder in self.search_paths)

    def _top(self, name: str) -> griffe.Module | None:
        member = self.collection.members.get(name)
        if isinstance(member, griffe.Module):
            return member
        if name in self._missing or name in self.broken:
            return None
        for folder in self.search_paths:
            file = _file_for(folder, [name])
            if file is not None:
                module = self._visit(name, file, None)
                if module is not None:
                    self.collection.set_member(name, module)
                return module
        self._missing.add(name)
        return None

    def _submodule(self, parent: griffe.Module, name: str) -> griffe.Module | None:
        dotted = f"{parent.path}.{name}"
        folder = _package_folder(parent)
        if dotted in self._missing or dotted in self.broken or folder is None:
            return None
        file = _file_for(folder, [name])
        if file is None and (folder / name).is_dir() and not (folder / name).is_symlink():
            return self._namespace(name, folder / name, parent)
        if file is None:
            self._missing.add(dotted)
            return None
        module = self._visit(name, file, parent)
        if module is not None:
            parent.set_member(name, module)
        return module

    def _namespace(self, name: str, folder: Path, parent: griffe.Module) -> griffe.Module:
        """A folder without `__init__.py` inside a package: a namespace package, whose modules Python
        imports all the same (`from app.api.router import api_router` with no `app/api/__init__.py`)."""
        module = griffe.Module(name, filepath=[folder], parent=parent)
        parent.set_member(name, module)
        self._loaded[module.path] = module
        return module

    def _visit(self, name: str, file: Path, parent: griffe.Module | None) -> griffe.Module | None:
        dotted = f"{parent.path}.{name}" if parent is not None else name
        shown = relative_path(file, self.root, follow_links=False)
        self.visited += 1
        self._read_order.append(dotted)
        try:
            code = self._read(file, shown)
        except SourceError as err:
            self.broken[dotted] = BrokenModule(dotted, shown, err.line, err.message, err.hint)
            return None
        try:
            module = griffe.visit(
                name,
                filepath=file,
                code=code,
                extensions=self.extensions,
                parent=parent,
                docstring_parser=griffe.Parser.google,
                lines_collection=self.lines,
                modules_collection=self.collection,
            )
        except (SyntaxError, ValueError, RecursionError, MemoryError) as err:
            self.broken[dotted] = unparsable(dotted, shown, code, err)
        except Exception as err:
            reason = f"griffe could not read it ({type(err).__name__}: {err})"
            self.broken[dotted] = BrokenModule(dotted, shown, None, reason)
        else:
            self._loaded[dotted] = module
            return module
        return None

    def _read(self, file: Path, shown: str) -> str:
        """The text of one module file, refused unless docgen would read it itself: a regular file within
        the size limit, and, for a file of the project, not a link leading out of it (whose docstrings would
        end up in the catalog)."""
        inside = file.absolute().is_relative_to(self.root.absolute())
        if inside and not file.resolve().is_relative_to(self.root.resolve()):
            raise SourceError("a link to a file outside the project", file=shown, hint=_INSIDE_HINT)
        try:
            info = file.stat()
        except OSError as err:
            raise SourceError(f"cannot read the file: {err.strerror}", file=shown) from err
        if not stat.S_ISREG(info.st_mode):
            raise SourceError("not a regular file (a folder, a device or a pipe)", file=shown)
        if info.st_size > MAX_FILE_BYTES:
            limit = f"over docgen's limit of {MAX_FILE_BYTES:,} bytes for one file"
            raise SourceError(f"the file is {info.st_size:,} bytes, {limit}", file=shown)
        text = read_text(file, shown, error=SourceError)
        return text.removeprefix("\ufeff")


_INSIDE_HINT = "docgen reads source inside the project"


def _file_for(folder: Path, parts: Sequence[str]) -> Path | None:
    """The file of module `parts` under `folder`: a package's `__init__.py`, or a `.py` file."""
    base = folder.joinpath(*parts)
    for candidate in (base / "__init__.py", base.with_suffix(".py")):
        if candidate.exists() or candidate.is_symlink():  # not only regular files: reading one says why
            return candidate
    return None


def _package_folder(module: griffe.Module) -> Path | None:
    """The folder a package's submodules are in (a namespace package's own), or None for a plain module."""
    if isinstance(module.filepath, list):
        return module.filepath[0] if module.filepath else None
    return _filepath(module).parent if _filepath(module).name == "__init__.py" else None


def _filepath(module: griffe.Module) -> Path:
    filepath = module.filepath
    return filepath[0] if isinstance(filepath, list) else filepath
