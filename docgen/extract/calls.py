"""Find the calls of the error constructor in a function body, with the conditions under which each runs."""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Collection, Iterator
from typing import Any

from docgen.core.records import record
from docgen.core.trees import nodes_below

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef
"""A function as the syntax tree holds it, plain or async."""


@record
class Call:
    """One constructor call, the statement holding it, and its guarding conditions as source text."""

    call: ast.Call
    statement: ast.stmt
    conditions: tuple[str, ...]
    scope: tuple[str, ...] = ()
    """The nested functions (closures) of the scanned function the call sits in, outermost first."""


def unparse(node: ast.AST) -> str:
    """`ast.unparse`, except that an integer too long for Python to print in decimal (a hexadecimal literal of
    thousands of digits) comes out as `...` instead of raising ValueError."""
    try:
        return ast.unparse(node)
    except ValueError:
        return "..."


def template(node: ast.JoinedStr) -> str:
    """An f-string as a message template: its text, and a `placeholder` for each `{expression}`."""
    parts: list[str] = []
    for value in node.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value))
        elif isinstance(value, ast.FormattedValue):
            parts.append(placeholder(value.value))
    return "".join(parts)


def placeholder(node: ast.expr | str) -> str:
    """A value known only at run time, as a template's placeholder: `{exc}` for `str(exc)`, `{name}` for a
    name, else the expression as written in braces."""
    if isinstance(node, str):
        return "{" + node + "}"
    if isinstance(node, ast.Call) and callee_name(node) in {"str", "repr", "format"} and len(node.args) == 1:
        return placeholder(node.args[0])
    return "{" + unparse(node) + "}"


def callee_name(call: ast.Call) -> str:
    """The name a call is made by: `f` for `f(...)` and for `module.f(...)`."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


class CallFinder:
    """Walks statements for calls of `names` (by the name they are called by), keeping the guards of each."""

    def __init__(self, names: Collection[str]) -> None:
        self.names = names

    def calls(self, statements: list[ast.stmt], guards: tuple[str, ...] = ()) -> Iterator[Call]:
        """Constructor calls in `statements`, in source order, each with the conditions it runs under."""
        for statement in statements:
            yield from self._calls_in(statement, guards)

    def _calls_in(self, statement: ast.stmt, guards: tuple[str, ...]) -> Iterator[Call]:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            # A closure (or a class) defined inside the scanned function: its calls belong to it too.
            yield from self._direct(statement, [*statement.decorator_list], guards)
            for found in self.calls(statement.body, guards):
                yield dataclasses.replace(found, scope=(statement.name, *found.scope))
        elif isinstance(statement, ast.If | ast.While):
            test = unparse(statement.test)
            yield from self._direct(statement, [statement.test], guards)
            yield from self.calls(statement.body, (*guards, test))
            yield from self.calls(statement.orelse, (*guards, f"not ({test})"))
        elif isinstance(statement, ast.For | ast.AsyncFor):
            loop = f"for {unparse(statement.target)} in {unparse(statement.iter)}"
            yield from self._direct(statement, [statement.iter], guards)
            yield from self.calls(statement.body, (*guards, loop))
            yield from self.calls(statement.orelse, guards)
        elif isinstance(statement, ast.With | ast.AsyncWith):
            yield from self._direct(statement, [item.context_expr for item in statement.items], guards)
            yield from self.calls(statement.body, guards)
        elif isinstance(statement, ast.Try | ast.TryStar):
            yield from self._try(statement, guards)
        elif isinstance(statement, ast.Match):
            yield from self._match(statement, guards)
        else:
            yield from self._direct(statement, [statement], guards)

    def _try(self, statement: ast.Try | ast.TryStar, guards: tuple[str, ...]) -> Iterator[Call]:
        yield from self.calls(statement.body, guards)
        for handler in statement.handlers:
            caught = f"except {unparse(handler.type)}" if handler.type else "except"
            yield from self.calls(handler.body, (*guards, caught))
        yield from self.calls(statement.orelse, guards)
        yield from self.calls(statement.finalbody, guards)

    def _match(self, statement: ast.Match, guards: tuple[str, ...]) -> Iterator[Call]:
        subject = unparse(statement.subject)
        for case in statement.cases:
            pattern = f"{subject} matches {unparse(case.pattern)}"
            extra = (f"{unparse(case.guard)}",) if case.guard else ()
            yield from self.calls(case.body, (*guards, pattern, *extra))

    def _direct(self, statement: ast.stmt, roots: list[Any], guards: tuple[str, ...]) -> Iterator[Call]:
        for root in roots:
            for node in calls_below(root):
                if callee_name(node) in self.names:
                    yield Call(node, statement, guards)


_CALL = frozenset({ast.Call})


def calls_below(root: ast.AST) -> list[ast.Call]:
    """Every call in `root`'s tree, `root` included, in the order `ast.walk` meets them."""
    return nodes_below(root, _CALL)  # type: ignore[return-value]
