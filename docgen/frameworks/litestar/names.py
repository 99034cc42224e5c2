"""What Litestar's names mean when a module writes them: its application, router and controller classes,
its route handler decorators and the methods each answers, `Provide`, and how it joins the paths of the
layers a route is declared under."""

from __future__ import annotations

import ast

import griffe

from docgen.extract.resolve import Resolver
from docgen.extract.route_paths import PathText
from docgen.extract.route_paths import path_text as read_path
from docgen.extract.routes import METHODS

_METHOD_DECORATORS = {"get", "post", "put", "patch", "delete", "head"}
_ANY_METHOD_DECORATORS = {"route", "HTTPRouteHandler"}


def litestar_name(path: str | None, *names: str) -> bool:
    """Whether `path` is one of Litestar's `names`, under whichever module re-exports it (`litestar.Router`,
    `litestar.router.Router`, `litestar.handlers.http_handlers.decorators.get`)."""
    return path is not None and path.startswith("litestar.") and path.rsplit(".", 1)[1] in names


def handler_methods(path: str | None, decorator: ast.Call) -> list[str] | None:
    """The HTTP methods (lower case, as OpenAPI names them) a route handler decorator answers, or None when
    `path` is not one. `@route(http_method=...)` takes a method or a list of them, as text or `HttpMethod`."""
    if litestar_name(path, *_METHOD_DECORATORS):
        return [str(path).rsplit(".", 1)[1]]
    if not litestar_name(path, *_ANY_METHOD_DECORATORS):
        return None
    listed = keyword(decorator, "http_method")
    items = listed.elts if isinstance(listed, ast.List | ast.Tuple) else [listed] if listed else []
    methods = []
    for item in items:
        name = (
            item.value
            if isinstance(item, ast.Constant)
            else item.attr
            if isinstance(item, ast.Attribute)
            else ""
        )
        if str(name).lower() in METHODS:
            methods.append(str(name).lower())
    return methods


def join(*parts: str) -> str:
    """Paths joined as Litestar joins a route's layers: one slash between parts, none at the end, `/` for
    the root (`/api` + `/books/` + `/` is `/api/books`)."""
    inner = [part.strip("/") for part in parts if part.strip("/")]
    return "/" + "/".join(inner)


def join_read(*parts: PathText) -> PathText:
    """`join` of paths read from the source, with the values they assume and the parts they cannot read."""
    return PathText(
        join(*(part.text for part in parts)),
        tuple(assumed for part in parts for assumed in part.assumed),
        tuple(unread for part in parts for unread in part.unread),
    )


def path_text(node: ast.expr | None, module: griffe.Module, resolver: Resolver, file: str) -> PathText:
    """A path as the source states it (see `docgen.extract.route_paths`): what cannot be read statically is
    kept in it as the expression in braces, and recorded with where it is written (`file`)."""
    if node is None:
        return PathText("")
    return read_path(node, module, resolver, file)


def handler_paths(
    decorator: ast.Call, module: griffe.Module, resolver: Resolver, file: str
) -> list[PathText]:
    """The paths a route handler decorator declares: its first argument or `path=`, a text or a list of
    them; none means the path of the layer it is under."""
    node = decorator.args[0] if decorator.args else keyword(decorator, "path")
    if isinstance(node, ast.List | ast.Tuple):
        return [path_text(item, module, resolver, file) for item in node.elts]
    return [path_text(node, module, resolver, file)] if node is not None else [PathText("")]


def keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((item.value for item in call.keywords if item.arg == name), None)


def in_schema(node: ast.expr | None) -> bool | None:
    """`include_in_schema=` as written (False: Litestar leaves the routes out of its OpenAPI document);
    None when not given, or not a literal: the layer above decides, and at the top the routes are in."""
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, bool) else None
