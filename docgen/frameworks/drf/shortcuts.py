"""Django's `get_object_or_404(Model, ...)` (and REST framework's, and `get_list_or_404`) called in an
operation's own code: it raises `Http404("No Book matches the given query.")`, the model's class name filled
in, which REST framework's handler answers as 404 with that text. The call is in an installed package, so
the walk over the source does not enter it; it is read where it is called, in every function the walk of an
operation enters (its view, hooks, permission checks, serializer validators and the helpers they call),
except inside a `try` whose handler catches the `Http404`.
"""

from __future__ import annotations

import ast

from docgen.extract.program import Code, Program
from docgen.extract.routes import FrameworkError

SHORTCUTS = {
    "django.shortcuts.get_object_or_404",
    "django.shortcuts.get_list_or_404",
    "rest_framework.generics.get_object_or_404",
}
HTTP404 = {"django.http.Http404", "django.http.response.Http404"}
NOT_FOUND = "No {model} matches the given query."
"""Django's message, the model's class name filled in (`{model}` when the code does not name it)."""


def shortcut_errors(program: Program, codes: list[Code], body_key: str) -> list[FrameworkError]:
    """The 404 of each shortcut call in `codes`, where it is called."""
    found = []
    for code in codes:
        caught = _caught_calls(program, code)
        for node in ast.walk(code.node):
            if id(node) in caught:
                continue
            if isinstance(node, ast.Call) and program.qualify(node.func, code.module) in SHORTCUTS:
                model = _model(program, node, code)
                detail = NOT_FOUND.replace("{model}", model) if model else NOT_FOUND
                file = program.files(code.module)
                found.append(FrameworkError(404, detail, "Http404", code.path, file, node.lineno))
    return found


def _caught_calls(program: Program, code: Code) -> set[int]:
    """The ids of the calls in the body of a `try` whose handler catches `Http404` (by name, or through
    `Exception`, `BaseException` or a bare `except`): the client never gets the shortcut's 404 from them."""
    caught: set[int] = set()
    for node in ast.walk(code.node):
        if isinstance(node, ast.Try | ast.TryStar) and any(
            _catches_404(program, handler, code) for handler in node.handlers
        ):
            caught.update(id(inner) for statement in node.body for inner in ast.walk(statement))
    return caught


def _catches_404(program: Program, handler: ast.ExceptHandler, code: Code) -> bool:
    if handler.type is None:
        return True
    names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    if any(isinstance(name, ast.Name) and name.id in {"Exception", "BaseException"} for name in names):
        return True
    return any(program.qualify(name, code.module) in HTTP404 for name in names)


def _model(program: Program, call: ast.Call, code: Code) -> str | None:
    """The model the first argument names: `Book`, `models.Book`, or `Book.objects.filter(...)`'s `Book`,
    when it is a class of the source (a queryset held in a variable is not followed)."""
    node = call.args[0] if call.args else None
    while isinstance(node, ast.Call | ast.Attribute):
        path = program.qualify(node, code.module) if isinstance(node, ast.Attribute) else None
        if path is not None and program.klass(path) is not None:
            return path.rsplit(".", 1)[-1]
        node = node.func if isinstance(node, ast.Call) else node.value
    path = program.qualify(node, code.module) if isinstance(node, ast.Name) else None
    return path.rsplit(".", 1)[-1] if path is not None and program.klass(path) is not None else None
