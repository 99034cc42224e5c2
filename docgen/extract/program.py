"""The loaded source as a program to navigate: what a name in a module stands for, and the syntax of each
function and module, for the analyses that follow calls (routes and the errors they raise).

Names are resolved the way Python binds them at module level, from griffe's static model: an imported
name stands for its target's dotted path (inside the loaded package or not: a web framework's exception
class is named, never loaded or imported). Nothing here runs the server.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import griffe

from docgen.core.errors import SourceError
from docgen.core.records import record
from docgen.extract.calls import FunctionNode
from docgen.extract.imports import MAX_ALIAS_HOPS
from docgen.extract.modules import SourceModules
from docgen.extract.source import FunctionBodies, ModuleFiles
from docgen.extract.targets import MAX_CLASS_BASES, too_many_bases


class _TooManyHops(Exception):
    """A name followed through more imports than MAX_ALIAS_HOPS."""


@record
class Code:
    """The code of one function to follow: a function of the loaded source, or one defined inside it (the
    dependency a factory returns), with the module its names are resolved in."""

    path: str
    node: FunctionNode
    module: griffe.Module


class ModuleTrees(FunctionBodies):
    """FunctionBodies that also keeps each module's syntax tree by its dotted path."""

    def __init__(self) -> None:
        super().__init__()
        self.modules: dict[str, ast.Module] = {}

    def on_module_instance(self, *, node: Any, mod: griffe.Module, **kwargs: Any) -> None:
        if isinstance(node, ast.Module):
            self.modules[mod.path] = node


class Program:
    """The modules of a package: their objects by dotted path, their syntax, and name resolution."""

    def __init__(
        self,
        modules: Sequence[griffe.Module],
        trees: ModuleTrees,
        files: ModuleFiles,
        loader: Callable[[str], Sequence[griffe.Module]] | None = None,
    ) -> None:
        self.trees = trees
        self.files = files
        self.objects: dict[str, griffe.Object | griffe.Alias] = {}
        self._paths = {module.path for module in modules}
        self._loader = loader
        for module in modules:
            self._collect(module)

    def load(self, dotted: str) -> griffe.Module | None:
        """The module `dotted`, added to the program with the modules of its package it imports, when the
        application names it by a string rather than an import (Django's `include("shop.urls")`); None
        when it cannot be found (or the program was made without a loader)."""
        found = self.objects.get(dotted)
        if isinstance(found, griffe.Module) and dotted in self._paths:
            return found
        for module in self._loader(dotted) if self._loader is not None else ():
            if module.path not in self._paths:
                self._paths.add(module.path)
                self._collect(module)
        found = self.objects.get(dotted)
        return found if isinstance(found, griffe.Module) else None

    def _collect(self, obj: griffe.Object) -> None:
        self.objects[obj.path] = obj
        for member in obj.members.values():
            if isinstance(member, griffe.Alias):
                self.objects.setdefault(member.path, member)
            elif member.path not in self.objects and not isinstance(member, griffe.Module):
                self._collect(member)

    def modules(self) -> Iterator[tuple[griffe.Module, ast.Module]]:
        """Every module of the program with its syntax tree, in path order."""
        for path in sorted(self._paths & set(self.trees.modules)):
            module = self.objects.get(path)
            if isinstance(module, griffe.Module):
                yield module, self.trees.modules[path]

    def final_path(self, path: str, *, depth: int = 0) -> str:
        """`path` with every import on the way followed, as far as the loaded source goes; _TooManyHops past
        MAX_ALIAS_HOPS imports (a cycle of imports, or a chain of re-exports longer than docgen follows)."""
        if depth > MAX_ALIAS_HOPS:
            raise _TooManyHops
        obj = self.objects.get(path)
        if isinstance(obj, griffe.Alias):
            return self.final_path(obj.target_path, depth=depth + 1)
        head, _, tail = path.rpartition(".")
        if obj is None and head:
            base = self.final_path(head, depth=depth + 1)
            if base != head:
                return self.final_path(f"{base}.{tail}", depth=depth + 1)
        return path

    def qualify(self, node: ast.expr, module: griffe.Module) -> str | None:
        """The dotted path a name or attribute chain written in `module` stands for, or None (a local, a
        builtin, or not a name at all)."""
        try:
            return self._qualified(node, module)
        except _TooManyHops:
            raise SourceError(
                f"`{ast.unparse(node)}` is imported through more than {MAX_ALIAS_HOPS} names (a cycle of "
                f"imports, or re-exported from module to module); docgen follows at most {MAX_ALIAS_HOPS}",
                file=self.files(module),
                line=getattr(node, "lineno", None),
                hint="import the name from the module that defines it",
            ) from None

    def _qualified(self, node: ast.expr, module: griffe.Module) -> str | None:
        if isinstance(node, ast.Name):
            member = module.members.get(node.id)
            if member is None:
                return None
            return self.final_path(member.path)
        if isinstance(node, ast.Attribute):
            base = self._qualified(node.value, module)
            return self.final_path(f"{base}.{node.attr}") if base else None
        return None

    def function(self, path: str | None) -> griffe.Function | None:
        """The function of the loaded source at `path` (a class stands for its `__init__`)."""
        obj = self.objects.get(path) if path else None
        if isinstance(obj, griffe.Function) and obj.path in self.trees.nodes:
            return obj
        return None

    def closure(
        self, module: griffe.Module, outer: FunctionNode, node: FunctionNode, within: str = ""
    ) -> griffe.Function:
        """The function `node`, defined in the body of `module`'s top-level function `outer` (or of the
        method `outer` of its class `within`), which griffe does not model: made here once, named
        `outer.inner` (`Class.outer.inner`) in its module, so that a route an application factory declares
        inside itself is followed like any other function."""
        name = f"{within}.{outer.name}.{node.name}" if within else f"{outer.name}.{node.name}"
        path = f"{module.path}.{name}"
        known = self.objects.get(path)
        if isinstance(known, griffe.Function) and path in self.trees.nodes:
            return known
        made = griffe.Function(name, lineno=node.lineno, endlineno=node.end_lineno)
        made.parent = module
        self.objects[path] = made
        self.trees.nodes[path] = node
        return made

    def node(self, function: griffe.Function) -> FunctionNode:
        return self.trees.nodes[function.path]

    def code(self, function: griffe.Function) -> Code:
        return Code(function.path, self.node(function), function.module)

    def returned_function(self, function: griffe.Function) -> Code | None:
        """The function a factory defines inside itself and returns (`def factory(...): def inner(...): ...;
        return inner`), if it does."""
        node = self.node(function)
        inner = {s.name: s for s in node.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)}
        for statement in node.body:
            if isinstance(statement, ast.Return) and isinstance(statement.value, ast.Name):
                found = inner.get(statement.value.id)
                if found is not None:
                    return Code(f"{function.path}.{found.name}", found, function.module)
        return None

    def file(self, obj: griffe.Object) -> str:
        return self.files(obj.module)

    def klass(self, path: str | None) -> griffe.Class | None:
        obj = self.objects.get(path) if path else None
        return obj if isinstance(obj, griffe.Class) else None

    def ancestry(self, path: str) -> list[str]:
        """`path` and the paths of its base classes, nearest first (a breadth-first reading of the bases,
        which is the method resolution order for the single inheritance exception classes use)."""
        order: list[str] = []
        queue, start = [path], self.klass(path)
        while queue:
            current = queue.pop(0)
            if current in order:
                continue
            if len(order) >= MAX_CLASS_BASES and start is not None:  # only a class has bases to follow
                raise too_many_bases(start, self.files(start.module))
            order.append(current)
            klass = self.klass(current)
            if klass is not None:
                queue.extend(self._bases(klass))
        return order

    def _bases(self, klass: griffe.Class) -> list[str]:
        bases = []
        for base in klass.bases:
            try:
                node = ast.parse(str(base), mode="eval").body
            except SyntaxError:
                continue
            path = self.qualify(node, klass.module)
            if path:
                bases.append(path)
        return bases


MAX_MODULES = 5000
"""How many modules of one package a program reads at most; one more is an error at the import."""


def imported_modules(modules: SourceModules, start: griffe.Module, trees: ModuleTrees) -> list[griffe.Module]:
    """`start` and every module of its top package it imports, transitively, read from the import
    statements themselves (`from . import users` in a package names a submodule, which griffe's model of the
    package does not show as an import)."""
    package = start.path.split(".")[0]
    found: dict[str, griffe.Module] = {start.path: start}
    pending = [start]
    while pending:
        module = pending.pop()
        tree = trees.modules.get(module.path)
        for dotted, line in _import_targets(tree, module) if tree is not None else ():
            if dotted.split(".")[0] != package or dotted in found:
                continue
            loaded = modules.module(dotted)
            if loaded is not None and loaded.path not in found:
                if len(found) >= MAX_MODULES:
                    raise SourceError(
                        f"{start.path} leads to more than {MAX_MODULES:,} modules of {package} through its "
                        f"imports (here {loaded.path}); docgen reads at most {MAX_MODULES:,}",
                        file=modules.shown(module),
                        line=line,
                        hint="point 'source:' at a module that imports only the part of the package it uses",
                    )
                found[loaded.path] = loaded
                pending.append(loaded)
    return sorted(found.values(), key=lambda m: m.path)


def _import_targets(tree: ast.Module, module: griffe.Module) -> Iterator[tuple[str, int]]:
    """The dotted names a module's import statements may name as modules, with their lines: `import a.b`
    names `a.b`; `from a import b` names `a`, and `a.b` when `b` is a submodule."""
    is_package = isinstance(module.filepath, list) or str(module.filepath).endswith("__init__.py")
    own = module.path.split(".") if is_package else module.path.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = own[: len(own) - node.level + 1] if node.level <= len(own) else []
                base = ".".join([*parts, *([node.module] if node.module else [])])
            if base:
                yield base, node.lineno
                yield from (
                    (f"{base}.{alias.name}", node.lineno) for alias in node.names if alias.name != "*"
                )
