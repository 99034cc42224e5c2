"""REST framework's exception handler, read statically: the one the settings name
(`REST_FRAMEWORK["EXCEPTION_HANDLER"]`), or the framework's own.

REST framework's own handler answers its `APIException`s with their status and detail, and turns Django's
`Http404` into 404 and Django's `PermissionDenied` into 403 (the raise's text, else `NotFound`'s and
`PermissionDenied`'s default detail). A configured handler is read for the exceptions it answers itself,
`if isinstance(exc, DomainError): return Response({...}, status=...)`; when it hands the rest to REST
framework's (`exception_handler(exc, context)`), Django's two exceptions keep their answer.
"""

from __future__ import annotations

import ast

import griffe

from docgen.extract.program import Program
from docgen.extract.resolve import Resolver
from docgen.extract.responses import CallReader
from docgen.extract.routes import Handler
from docgen.frameworks.drf.settings import DEFAULT_HANDLER, DjangoSettings

DJANGO_ANSWERED = {
    "django.http.Http404": 404,
    "django.http.response.Http404": 404,
    "django.core.exceptions.PermissionDenied": 403,
}
"""Django's exceptions REST framework's handler answers, with the status it gives each."""


def exception_handlers(
    program: Program, resolver: Resolver, settings: DjangoSettings, calls: CallReader, body_key: str
) -> dict[str, Handler]:
    """Exception class path -> the handler's answer, for what REST framework answers as an HTTP error."""
    found: dict[str, Handler] = {}
    configured = [path for path in settings.exception_handler.value if path != DEFAULT_HANDLER]
    function = _function(program, configured[0]) if configured else None
    delegates = function is None or _delegates(program, function)
    default = _installed(resolver, DEFAULT_HANDLER) if delegates else None
    if default is not None:
        found.update(
            (path, Handler(default, status, None, body_key)) for path, status in DJANGO_ANSWERED.items()
        )
    if function is not None:
        found.update(_answered(program, function, calls, body_key))
    return found


def coerced(resolver: Resolver, found: dict[str, Handler], body_key: str) -> dict[str, Handler]:
    """`NotAuthenticated` and `AuthenticationFailed` answered with 403: REST framework's view does so before
    any handler runs when the first authentication class names no scheme (session authentication, its
    default), unless the configured handler answers them itself."""
    view = _installed(resolver, "rest_framework.views.APIView.handle_exception")
    if view is None:
        return {}
    return {
        f"rest_framework.exceptions.{name}": Handler(view, 403, None, body_key)
        for name in ("NotAuthenticated", "AuthenticationFailed")
        if f"rest_framework.exceptions.{name}" not in found
    }


def _function(program: Program, path: str) -> griffe.Function | None:
    module, _, _name = path.rpartition(".")
    if module:
        program.load(module)
    return program.function(path)


def _delegates(program: Program, function: griffe.Function) -> bool:
    """Whether the handler calls REST framework's own for what it does not answer itself."""
    node = program.node(function)
    return any(
        isinstance(inner, ast.Call) and program.qualify(inner.func, function.module) == DEFAULT_HANDLER
        for inner in ast.walk(node)
    )


def _answered(
    program: Program, function: griffe.Function, calls: CallReader, body_key: str
) -> dict[str, Handler]:
    """`if isinstance(exc, X): ... return Response(body, status=...)` -> X's answer."""
    found: dict[str, Handler] = {}
    for inner in ast.walk(program.node(function)):
        if not isinstance(inner, ast.If):
            continue
        classes = _isinstance_classes(program, inner.test, function.module)
        returned = next(
            (s.value for s in ast.walk(ast.Module(inner.body, [])) if isinstance(s, ast.Return) and s.value),
            None,
        )
        stated = calls.returned(returned, function.module) if returned is not None else None
        if stated is None:
            continue
        for path in classes:
            found[path] = Handler(function, stated.status, stated.detail, stated.body_key or body_key)
    return found


def _isinstance_classes(program: Program, test: ast.expr, module: griffe.Module) -> list[str]:
    if not (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance"):
        return []
    if len(test.args) != 2:
        return []
    named = test.args[1].elts if isinstance(test.args[1], ast.Tuple) else [test.args[1]]
    return [path for node in named if (path := program.qualify(node, module)) is not None]


def _installed(resolver: Resolver, path: str) -> griffe.Function | None:
    """A function or method of an installed package (REST framework's handler), read without importing."""
    module_path, _, rest = path.partition(".")
    module = None
    for part in rest.split("."):  # the longest prefix of `path` that is a module
        found = resolver.modules.module(module_path) if resolver.modules is not None else None
        if found is None:
            break
        module, module_path = found, f"{module_path}.{part}"
    obj: griffe.Object | griffe.Alias | None = module
    for name in path.removeprefix(f"{module.path}.").split(".") if module is not None else ():
        obj = obj.members.get(name) if isinstance(obj, griffe.Object) else None
    return obj if isinstance(obj, griffe.Function) else None
