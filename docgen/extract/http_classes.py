"""Classes named by dotted path wherever they are defined: the loaded source's, or an installed framework's.

A web framework states much of what a client receives in its own classes: Werkzeug's `NotFound` has
`code = 404` and a `description`, aiohttp's `HTTPNotFound` a `status_code`, DRF's `NotFound` a
`default_detail`. `raise NotFound()` says none of it, so the raised class's bases and class attributes are
read from the installed framework, statically: its files are read through the resolver's modules (never
imported), and only those a class leads to.
"""

from __future__ import annotations

import ast

import griffe

from docgen.core.errors import SourceError
from docgen.extract.program import Program
from docgen.extract.resolve import Resolver, Unresolvable
from docgen.extract.targets import MAX_CLASS_BASES, base_classes, final_target, too_many_bases

_UNFOLLOWED = (SourceError, Unresolvable, griffe.AliasResolutionError, griffe.CyclicAliasError)


class HttpClasses:
    """The ancestry and class attributes of classes, the loaded source's and installed ones, cached."""

    def __init__(self, program: Program, resolver: Resolver) -> None:
        self.program = program
        self.resolver = resolver
        self._classes: dict[str, griffe.Class | None] = {}
        self._ancestry: dict[str, list[str]] = {}
        self._bodies: dict[str, dict[str, ast.expr]] = {}

    def klass(self, path: str) -> griffe.Class | None:
        """The class at `path`: from the loaded source, else read from an installed package; None when it
        is not a class or cannot be read statically."""
        if path not in self._classes:
            self._classes[path] = self.program.klass(path) or self._installed(path)
        return self._classes[path]

    def ancestry(self, path: str) -> list[str]:
        """`path` and its base classes, nearest first (breadth first, as `Program.ancestry`), through the
        installed packages they come from; a class with more than MAX_CLASS_BASES is an error at it."""
        if path not in self._ancestry:
            self._ancestry[path] = self._walk(path)
        return self._ancestry[path]

    def attribute(self, ancestry: list[str], name: str) -> object | None:
        """The value of the class attribute `name` on the nearest class of `ancestry` that sets it in its
        body, or None when none does or its value cannot be read statically."""
        for path in ancestry:
            cls = self.klass(path)
            node = self._class_level(cls).get(name) if cls is not None else None
            if cls is not None and node is not None:
                try:
                    return self.resolver.evaluate(node, cls.module).value
                except _UNFOLLOWED:
                    return None
        return None

    def _class_level(self, cls: griffe.Class) -> dict[str, ast.expr]:
        """The values the class body itself assigns, by name. griffe's attribute keeps the last value
        assigned, `__init__`'s `self.description = description or self.description` included, so the
        class body's syntax is read instead."""
        if cls.path not in self._bodies:
            self._bodies[cls.path] = _assigned(self.program.trees.classes.get(cls.path))
        return self._bodies[cls.path]

    def _walk(self, path: str) -> list[str]:
        order: list[str] = []
        queue = [path]
        start = self.klass(path)
        while queue:
            current = queue.pop(0)
            if current in order:
                continue
            cls = self.klass(current)
            if len(order) >= MAX_CLASS_BASES and cls is not None:
                too_many = start or cls  # the raised class, where the error is located
                raise too_many_bases(too_many, self.resolver.shown(too_many.module))
            order.append(current)
            if cls is not None and cls.path not in order:  # `pkg.Name` re-exported from `pkg.errors.Name`
                order.append(cls.path)
            if cls is not None:
                queue.extend(base.path for base in base_classes(cls, self._follow))
        return order

    def _installed(self, path: str) -> griffe.Class | None:
        modules = self.resolver.modules
        module = modules.module_of(path) if modules is not None else None
        if module is None or module.path == path:
            return None
        obj: griffe.Object | griffe.Alias | None = module
        for part in path.removeprefix(f"{module.path}.").split("."):
            member = obj.members.get(part) if isinstance(obj, griffe.Object) else None
            obj = self._follow(member) if isinstance(member, griffe.Alias) else member
        return obj if isinstance(obj, griffe.Class) else None

    def _follow(self, alias: griffe.Alias) -> griffe.Object | None:
        try:
            target = self.resolver.target(alias, alias.name)
        except _UNFOLLOWED:
            return final_target(alias)
        return target if isinstance(target, griffe.Object) else None


def _assigned(node: ast.ClassDef | None) -> dict[str, ast.expr]:
    """`name = value` and `name: type = value` written directly in a class body, by name."""
    found: dict[str, ast.expr] = {}
    for statement in node.body if node is not None else []:
        if isinstance(statement, ast.Assign):
            targets, value = statement.targets, statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            targets, value = [statement.target], statement.value
        else:
            continue
        found.update((target.id, value) for target in targets if isinstance(target, ast.Name))
    return found
