"""Where FastAPI applications and routers are written, and how a name for one reaches another scope.

A scope is a module's body, one of its functions, or a method of one of its classes: real servers build
their application in a factory (`def create_app(): app = FastAPI(); ...`), in a class (`self.app =
self._init_app()`), or pass it to a helper that attaches routers to it (`self._configure_routes(app)`).
`bindings` says which parameter of a called function of the source receives a router, so that what the
callee attaches to its parameter is attached to the caller's router.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import griffe

from docgen.extract.calls import FunctionNode
from docgen.extract.conditions import Statement, unfolded
from docgen.extract.passed import passed
from docgen.extract.program import Program


@dataclass(frozen=True)
class Scope:
    """A body statements are read in: a module's (`node` None), a function's or a method's."""

    path: str
    """The module's dotted path, or the function's (`pkg.main.create_app`, `pkg.server.Server.build`)."""
    module: griffe.Module
    statements: list[Statement]
    node: FunctionNode | None = None
    within: str = ""
    """For a method, its class's name in the module."""


def scopes(program: Program) -> list[Scope]:
    """Each module's body, each of its top-level functions and each method of its top-level classes, with
    the statements under their `if`s brought up beside them."""
    found = []
    for module, tree in program.modules():
        found.append(Scope(module.path, module, unfolded(tree.body, None)))
        for statement in tree.body:
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                path = f"{module.path}.{statement.name}"
                found.append(Scope(path, module, unfolded(statement.body, None), statement))
            elif isinstance(statement, ast.ClassDef):
                found.extend(_methods(module, statement))
    return found


def _methods(module: griffe.Module, cls: ast.ClassDef) -> Iterator[Scope]:
    for statement in cls.body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            path = f"{module.path}.{cls.name}.{statement.name}"
            yield Scope(path, module, unfolded(statement.body, None), statement, cls.name)


def called(program: Program, call: ast.Call, scope: Scope) -> str | None:
    """The dotted path of the function of the source a call names: `self.helper(...)` in a method is its
    class's `helper`; otherwise the name as the module imports or defines it."""
    func = call.func
    if (
        scope.within
        and isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id == "self"
    ):
        return f"{scope.module.path}.{scope.within}.{func.attr}"
    return program.qualify(func, scope.module)


def bindings(
    program: Program, scope: Scope, router_of: Callable[[ast.expr], str | None]
) -> Iterator[tuple[str, str]]:
    """(`callee:parameter`, router key) for each argument naming a router in a call this scope makes to a
    function of the source: `self._configure_routes(app)` binds `Server._configure_routes:app`."""
    if scope.node is None:
        return
    yield from passed(program, scope.node, lambda call: called(program, call, scope), router_of)
