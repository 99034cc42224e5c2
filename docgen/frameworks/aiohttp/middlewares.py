"""aiohttp's middlewares read as exception handlers: a middleware registered with an application
(`web.Application(middlewares=[...])`, `app.middlewares.append(...)`) that catches an exception around
`await handler(request)` and answers with a response (`return web.json_response(body, status=401)`) or
another HTTP exception (`raise web.HTTPUnauthorized(text=...)`) decides the status and body of every raise
of that exception, which alone would be a plain 500.

A status or detail the answer takes from the caught exception itself (`status=exc.status`, `exc.text`,
`str(exc)`) stays the raise's own (None in the `Handler`). A middleware catching aiohttp's `HTTPException`
is registered for its `HTTPError` subclasses only: redirects and successes raised as exceptions pass through
it unchanged and are not errors. `except Exception` is not read as a handler of every exception (that would
make every raise of the program an error); an answer docgen cannot read registers nothing, so the raise
keeps the values it states.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

import griffe

from docgen.extract.http_classes import HttpClasses
from docgen.extract.program import Code, Program
from docgen.extract.responses import CallReader, argument
from docgen.extract.routes import Framework, Handler
from docgen.frameworks.aiohttp.reading import middleware_code, middleware_items

HTTP_EXCEPTION = "aiohttp.web_exceptions.HTTPException"
HTTP_ERROR = "aiohttp.web_exceptions.HTTPError"
_OWN_ATTRIBUTES = {"status", "status_code", "text", "reason", "body", "message", "args"}


def middleware_handlers(program: Program, framework: Framework) -> dict[str, Handler]:
    """Exception class path -> what the first registered middleware that catches it answers."""
    classes = HttpClasses(program, framework.resolver)
    reader = CallReader(program, framework, classes)
    found: dict[str, Handler] = {}
    for function, code in _registered(program):
        for caught, answer in _catches(code):
            for path in _caught_paths(program, classes, caught, code.module):
                handler = _answer(program, framework, reader, function, code, answer, caught.name)
                if handler is not None:
                    found.setdefault(path, handler)
    return found


def _registered(program: Program) -> Iterator[tuple[griffe.Function, Code]]:
    """Each middleware the program registers with an application, as the function that runs per request
    (a factory's returned middleware), each once."""
    seen: set[str] = set()
    for module, tree in program.modules():
        for node in ast.walk(tree):
            for item in middleware_items(program, module, node):
                found = middleware_code(program, module, item)
                if found is not None and found[0].path not in seen:
                    seen.add(found[0].path)
                    yield found


def _catches(code: Code) -> Iterator[tuple[ast.ExceptHandler, ast.Return | ast.Raise]]:
    """Each `except` clause of the middleware with the first `return` or `raise` of its body."""
    for node in ast.walk(code.node):
        if not isinstance(node, ast.Try | ast.TryStar):
            continue
        for handler in node.handlers:
            answers = (n for s in handler.body for n in ast.walk(s) if isinstance(n, ast.Return | ast.Raise))
            answer = next(answers, None)
            if handler.type is not None and answer is not None:
                yield handler, answer


def _caught_paths(
    program: Program, classes: HttpClasses, handler: ast.ExceptHandler, module: griffe.Module
) -> list[str]:
    """The dotted paths of the classes an `except` clause names, as the raise finder spells ancestries
    (aiohttp's re-exports followed to the defining module)."""
    assert handler.type is not None
    names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    found = []
    for name in names:
        path = program.qualify(name, module)
        cls = classes.klass(path) if path is not None else None
        path = cls.path if cls is not None else path
        if path is not None:
            found.append(HTTP_ERROR if path == HTTP_EXCEPTION else path)
    return found


def _answer(
    program: Program,
    framework: Framework,
    reader: CallReader,
    function: griffe.Function,
    code: Code,
    answer: ast.Return | ast.Raise,
    name: str | None,
) -> Handler | None:
    """What the clause answers: the status, detail and body key of the response it returns or the HTTP
    exception it raises; None when it is neither."""
    call = answer.value if isinstance(answer, ast.Return) else answer.exc
    if not isinstance(call, ast.Call):
        return None
    path = program.qualify(call.func, code.module)
    if path is None:
        return None
    ancestry = reader.classes.ancestry(path)
    arguments = framework.responses.get(path)
    if arguments is None and isinstance(answer, ast.Raise):
        arguments = next(
            (framework.http_exceptions[p] for p in ancestry if p in framework.http_exceptions), None
        )
    if arguments is None:
        return None
    stated = reader.stated(call, code.module, path, ancestry, arguments)
    status_node = argument(call, arguments.status)
    status = None if status_node is not None and _on_exception(status_node, name) else stated.status
    detail_node = argument(call, arguments.detail)
    own_detail = detail_node is not None and _on_exception(_first_value(detail_node), name)
    detail = None if own_detail else stated.detail
    return Handler(function, status, detail, stated.body_key or framework.body_key)


def _first_value(node: ast.expr) -> ast.expr:
    """The value a body gives its detail: a dict's first value, else the node itself."""
    if isinstance(node, ast.Dict) and node.values:
        return node.values[0]
    return node


def _on_exception(node: ast.expr, name: str | None) -> bool:
    """Whether `node` is the caught exception's own status or text (`exc.status`, `exc.text`, `str(exc)`):
    then the raise decides the value (an f-string around them is a template of the middleware's own)."""
    if name is None:
        return False
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "str" and node.args:
        node = node.args[0]
    if isinstance(node, ast.Attribute) and node.attr in _OWN_ATTRIBUTES:
        node = node.value
    return isinstance(node, ast.Name) and node.id == name
