"""Exceptions turned into error responses by an `except` handler: where each one is raised, and with what.

When a constructor call sits in the handler of `except SomeError as exc:`, the response is really decided
where `SomeError` (or a subclass of it) is raised, often in another module. Those raise sites are looked for
in the code the `try` body reaches: its own statements, the functions of the loaded source it calls
(transitively, as `docgen.extract.reach` resolves calls), and the functions of a dispatch table it looks a
callable up in (`handler = TABLE.get(name)` or `TABLE[name]`, a module-level dict of functions, `**OTHER`
tables included). When none is found there (the raise happens behind a callback docgen cannot follow), every
raise of the class anywhere in the loaded source is listed instead, and the entry says so.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping

import griffe

from docgen.core.models import RaiseSite
from docgen.core.trees import nodes_below
from docgen.extract.calls import Call, template, unparse
from docgen.extract.dispatch_tables import DispatchTables
from docgen.extract.fields import HandlerRaises
from docgen.extract.reach import Where
from docgen.extract.targets import (
    MAX_CLASS_BASES,
    CallTargets,
    Follow,
    base_classes,
    local_name,
    named,
    too_many_bases,
)
from docgen.extract.walk import CallWalk, Into

FileOf = Callable[[griffe.Module], str]
"""The project-relative file of a module (`source.ModuleFiles`)."""


_Body = tuple[griffe.Function, list[ast.stmt] | None]
"""What the search walks: a function, and the statements of it to walk (None: its whole body; a `try` body
is part of one)."""


_RAISE_OR_CALL = frozenset({ast.Raise, ast.Call})


class RaiseIndex:
    """Finds the raise sites behind the handlers that constructor calls sit in, for one loaded package."""

    def __init__(
        self, package: griffe.Module, targets: CallTargets, modules: Mapping[str, ast.Module]
    ) -> None:
        self.package = package
        self.targets = targets
        self.modules = modules
        self._classes: dict[str, griffe.Class] | None = None
        self._caught_by: dict[tuple[str, str], frozenset[str]] = {}
        self._handlers: dict[int, list[_Handler]] = {}
        self._everywhere: dict[frozenset[str], tuple[tuple[griffe.Function, ast.Raise], ...]] = {}
        self._reached: dict[tuple[int, frozenset[str]], tuple[tuple[griffe.Function, ast.Raise], ...]] = {}
        """By `try` statement (its node lives as long as the run's trees) and the classes caught."""

    def behind(self, where: Where, found_call: Call, file_of: FileOf) -> HandlerRaises | None:
        """The raise sites behind the handler the call sits in, or None when it sits in none of interest."""
        own = found_call.conditions[len(where.guards) :]  # the guards in its own function
        if not any(condition.startswith("except") for condition in own):
            return None
        found = self._enclosing_handler(where.node, found_call.call)
        if found is None:
            return None
        statement, handler = found
        key = (where.function.module.path, unparse(handler.type) if handler.type else "")
        if key not in self._caught_by:
            self._caught_by[key] = self._caught(handler, where.function.module, file_of)
        caught = self._caught_by[key]
        if not caught:
            return None
        reach_key = (id(statement), caught)  # several calls of one handler, or handlers of one `try`
        if reach_key not in self._reached:
            place = (file_of(where.function.module), statement.lineno)
            self._reached[reach_key] = tuple(self._reachable(statement.body, where, caught, place, file_of))
        reached = list(self._reached[reach_key])
        scope = "reachable"
        if not reached:
            scope, reached = "anywhere", list(self._anywhere(caught))
        sites = {(file_of(f.module), node.lineno): _site(f, node, file_of(f.module)) for f, node in reached}
        return HandlerRaises(scope, tuple(sites[key] for key in sorted(sites)))

    def _enclosing_handler(
        self, function: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call
    ) -> tuple[ast.Try | ast.TryStar, ast.ExceptHandler] | None:
        """The innermost `try` statement and handler whose body holds `call`."""
        if id(function) not in self._handlers:
            self._handlers[id(function)] = list(_handlers_of(function.body))
        best: _Handler | None = None
        for handler in self._handlers[id(function)]:
            if handler[0] <= call.lineno <= handler[1] and (best is None or handler[0] > best[0]):
                best = handler
        return (best[2], best[3]) if best is not None else None

    def _caught(self, handler: ast.ExceptHandler, module: griffe.Module, file_of: FileOf) -> frozenset[str]:
        """Paths of the classes of the loaded source the handler catches, with all their subclasses."""
        if handler.type is None:
            return frozenset()
        names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        follow = self.targets.follow
        roots = {cls.path for name in names if (cls := _class_named(name, module, follow)) is not None}
        if not roots:
            return frozenset()
        return frozenset(
            path for path, cls in self._all_classes().items() if _ancestors(cls, follow, file_of) & roots
        )

    def _all_classes(self) -> dict[str, griffe.Class]:
        if self._classes is None:
            self._classes = {cls.path: cls for cls in _classes_of(self.package)}
        return self._classes

    def _reachable(
        self,
        statements: list[ast.stmt],
        where: Where,
        caught: frozenset[str],
        place: tuple[str, int],
        file_of: FileOf,
    ) -> Iterator[tuple[griffe.Function, ast.Raise]]:
        """The raises of `caught` the `try` body at `place` (file, line) reaches: through its calls, and
        through the functions of the dispatch tables it looks a callable up in (walked even when one is the
        function holding the `try`, which the calls do not walk again)."""
        start = where.function
        tables = DispatchTables(self.modules, self.targets)
        used = list(tables.functions_used(statements, where.node, start.module, place))
        walk: CallWalk[_Body, tuple[griffe.Function, ast.Raise]] = CallWalk(
            lambda body: self._raises_in(body, caught),
            each="walk",
            hint="catch the exception nearer the code that raises it",
            name=lambda body: local_name(body[0]),
            file=lambda body: file_of(body[0].module),
        )
        walk.seen.add(start.path)
        yield from walk.walk((start, statements), start.path, again=True)
        for function in used:
            yield from walk.walk((function, None), function.path, again=True)

    def _raises_in(
        self, body: _Body, caught: frozenset[str]
    ) -> Iterator[tuple[griffe.Function, ast.Raise] | Into[_Body]]:
        """The raises of `caught` in `body`, and the functions of the loaded source it calls."""
        function, statements = body
        if statements is None:
            statements = self.targets.nodes[function.path].body
        follow = self.targets.follow
        for node in (inner for statement in statements for inner in nodes_below(statement, _RAISE_OR_CALL)):
            if isinstance(node, ast.Raise) and _raises_one_of(node, function.module, caught, follow):
                yield function, node
            elif isinstance(node, ast.Call):
                target = self.targets.target(node, function)
                if target is not None:
                    yield Into((target, None), target.path, node.lineno)

    def _anywhere(self, caught: frozenset[str]) -> Iterator[tuple[griffe.Function, ast.Raise]]:
        if caught not in self._everywhere:
            found, follow = [], self.targets.follow
            for function in _functions_of(self.package):
                node = self.targets.nodes.get(function.path)
                for inner in ast.walk(node) if node is not None else ():
                    if isinstance(inner, ast.Raise) and _raises_one_of(
                        inner, function.module, caught, follow
                    ):
                        found.append((function, inner))
            self._everywhere[caught] = tuple(found)
        return iter(self._everywhere[caught])


_Handler = tuple[int, int, ast.Try | ast.TryStar, ast.ExceptHandler]
"""The first and last line of a handler's body, its `try` statement, and the handler."""


def _handlers_of(statements: list[ast.stmt]) -> Iterator[_Handler]:
    """Every `except` handler among `statements` and the statements nested in them (closures included);
    expressions are not walked, as no handler sits in one."""
    for statement in statements:
        if isinstance(statement, ast.Try | ast.TryStar):
            for handler in statement.handlers:
                last = handler.body[-1].end_lineno or handler.lineno
                yield handler.body[0].lineno, last, statement, handler
                yield from _handlers_of(handler.body)
        if isinstance(statement, ast.Match):
            for case in statement.cases:
                yield from _handlers_of(case.body)
        for block in ("body", "orelse", "finalbody"):
            inner = getattr(statement, block, None)
            if isinstance(inner, list):
                yield from _handlers_of(inner)


def _class_named(node: ast.expr, module: griffe.Module, follow: Follow) -> griffe.Class | None:
    if not isinstance(node, ast.Name | ast.Attribute):
        return None
    found = named(unparse(node), module, follow)
    return found if isinstance(found, griffe.Class) else None


def _ancestors(cls: griffe.Class, follow: Follow, file_of: FileOf) -> set[str]:
    """`cls` and every base class of it that the loaded source defines."""
    found, todo = {cls.path}, [cls]
    while todo:
        if len(found) >= MAX_CLASS_BASES:
            raise too_many_bases(cls, file_of(cls.module))
        for base in base_classes(todo.pop(), follow):
            if base.path not in found:
                found.add(base.path)
                todo.append(base)
    return found


def _raises_one_of(node: ast.Raise, module: griffe.Module, caught: frozenset[str], follow: Follow) -> bool:
    exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
    if exc is None:
        return False
    cls = _class_named(exc, module, follow)
    return cls is not None and cls.path in caught


def _site(function: griffe.Function, node: ast.Raise, file: str) -> RaiseSite:
    exc = node.exc
    call = exc if isinstance(exc, ast.Call) else None
    name = unparse(call.func if call is not None else exc) if exc is not None else ""
    return RaiseSite(name, local_name(function), file, _message(call), line=node.lineno)


def _message(call: ast.Call | None) -> str:
    """The raise's message: its one string argument (an f-string as a template), else its arguments."""
    if call is None:
        return ""
    if len(call.args) == 1 and not call.keywords:
        [arg] = call.args
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            return arg.value
        if isinstance(arg, ast.JoinedStr):
            return template(arg)
        return "{" + unparse(arg) + "}"
    return ", ".join(unparse(arg) for arg in [*call.args, *call.keywords])


def _classes_of(module: griffe.Module) -> Iterator[griffe.Class]:
    for member in module.members.values():
        if member.is_alias:
            continue
        if isinstance(member, griffe.Class):
            yield member
            yield from _classes_of_class(member)
        elif isinstance(member, griffe.Module):
            yield from _classes_of(member)


def _classes_of_class(cls: griffe.Class) -> Iterator[griffe.Class]:
    for member in cls.members.values():
        if isinstance(member, griffe.Class) and not member.is_alias:
            yield member
            yield from _classes_of_class(member)


def _functions_of(obj: griffe.Module | griffe.Class) -> Iterator[griffe.Function]:
    for member in obj.members.values():
        if member.is_alias:
            continue
        if isinstance(member, griffe.Function):
            yield member
        elif isinstance(member, griffe.Module | griffe.Class):
            yield from _functions_of(member)
