"""What Litestar's layers are once read: route handlers, and applications, routers and controllers with
what they add to the routes under them."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

import griffe

from docgen.extract.program import Code
from docgen.extract.route_paths import PathText

Made = tuple[ast.Call, str, griffe.Module]
"""A `Router(...)` or `Litestar(...)` call, the scope it is written in (a module or function path), its
module."""
Item = tuple[ast.expr, str, griffe.Module]
"""An entry of a layer's route handlers, with the scope and module it is written in."""
Scope = tuple[str, griffe.Module, list[ast.stmt]]
"""A body the reader reads: its scope (a module path, or a function's), the module, and its statements."""


@dataclass(frozen=True)
class Auth:
    """An authentication middleware: the code that authenticates, and the path patterns it skips."""

    code: Code
    exclude: tuple[str, ...]


@dataclass
class Route:
    """A route handler: the function, the methods and paths it declares, its own guards and dependencies."""

    function: griffe.Function
    methods: list[str]
    paths: list[PathText]
    guards: list[Code]
    dependencies: dict[str, Code]
    file: str
    line: int
    in_schema: bool | None = None
    """`include_in_schema=` of the decorator: None leaves it to the layers above."""
    opts_out_of_auth: bool = False


@dataclass
class Layer:
    """An application, router or controller: what it adds to every route under it, and what it holds."""

    key: str
    """Its identity: the call's position for an application or router, the class path for a controller."""
    path: PathText
    guards: list[Code]
    dependencies: dict[str, Code]
    file: str
    line: int
    items: list[Item] = field(default_factory=list)
    routes: list[Route] = field(default_factory=list)
    """A controller's own route handlers (its methods and those of the loaded classes it derives from)."""
    in_schema: bool | None = None
    auth: list[Auth] = field(default_factory=list)
