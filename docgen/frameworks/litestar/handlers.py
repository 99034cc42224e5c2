"""Litestar's exception handlers, read statically: `exception_handlers={X: handler}` on an application, a
router, a route handler decorator or a controller (its class attribute), the mapping written there, held
by a module-level name or returned by a function that builds it, or added by a plugin; and what each
handler answers (the `Response(content, status_code=...)` it returns, or the HTTP exception it raises in
turn), an attribute of the exception it answers with (`exc.message`) named for the raise to fill in.

Litestar looks a handler up from the route's layer outwards; docgen records every registration for the
whole application (the layer is not told apart). A handler registered for a status (`{404: handler}`)
applies to the HTTP exception classes of that status, and to an HTTP exception raised with that status.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

import griffe

from docgen.extract.calls import FunctionNode
from docgen.extract.http_classes import HttpClasses
from docgen.extract.http_values import detail_text, status_number
from docgen.extract.program import Program
from docgen.extract.routes import Framework, Handler
from docgen.frameworks.litestar.blocks import local_imports, qualified


def registered_handlers(program: Program, framework: Framework) -> dict[str, Handler]:
    """Exception class path -> its handler, from every module of the program; a handler registered for a
    status stands for every HTTP exception class of that status (see `_by_status`)."""
    return combined(program, framework, *handlers_read(program, framework))


def combined(
    program: Program, framework: Framework, found: dict[str, Handler], by_status: dict[int, Handler]
) -> dict[str, Handler]:
    """The handlers by class, each HTTP exception class of a status with a handler given that one."""
    return {**found, **_by_status(program, framework, by_status)} if by_status else found


def handlers_read(program: Program, framework: Framework) -> tuple[dict[str, Handler], dict[int, Handler]]:
    """The handlers registered for exception classes, and those registered for a status."""
    found: dict[str, Handler] = {}
    by_status: dict[int, Handler] = {}
    for module, tree in program.modules():
        local = local_imports(tree, module)
        for mapping in _mappings(tree):
            for key, value in zip(*_dict_of(program, mapping, module), strict=True):
                handler = program.function(qualified(program, value, module, local))
                if key is None or handler is None:
                    continue
                exception = qualified(program, key, module, local)
                status = status_number(key, module, program, framework.resolver, framework.constant_status)
                if exception is not None and status is None:
                    found[exception] = answer(program, framework, handler)
                elif status is not None:
                    by_status[status] = answer(program, framework, handler)
    return found, by_status


def _by_status(program: Program, framework: Framework, handlers: dict[int, Handler]) -> dict[str, Handler]:
    """Litestar answers an HTTP exception with the handler of its status before any of its classes: each
    HTTP exception class (Litestar's, and the loaded source's subclasses) whose class attribute gives a
    status with a handler gets that handler. One raised with the status as an argument
    (`HTTPException(status_code=404)`) is given it where it is raised (the framework's `status_handlers`)."""
    classes = HttpClasses(program, framework.resolver)
    loaded = [
        path for path, obj in program.objects.items() if isinstance(obj, griffe.Class) and obj.path == path
    ]
    found: dict[str, Handler] = {}
    for path in [*framework.http_exceptions, *loaded]:
        ancestry = classes.ancestry(path)
        if not any(base in framework.http_exceptions for base in ancestry):
            continue
        # HTTPException's own 500 is only its default: a class that sets no status of its own is raised
        # with one as often as not, so it is left to its class handlers.
        own = [base for base in ancestry if base.rpartition(".")[2] != "HTTPException"]
        status = classes.attribute(own, "status_code")
        if isinstance(status, int) and status in handlers:
            found[path] = handlers[status]
    return found


def _mappings(tree: ast.Module) -> Iterator[ast.expr]:
    """Every `exception_handlers=` argument of a call, every controller's `exception_handlers = ...`, and
    each entry a plugin adds (`app_config.exception_handlers[X] = handler`, as a mapping of one)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "exception_handlers":
            yield node.value
        elif (
            isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Subscript)
            and isinstance(node.targets[0].value, ast.Attribute)
            and node.targets[0].value.attr == "exception_handlers"
        ):
            yield ast.Dict(keys=[node.targets[0].slice], values=[node.value])
        elif isinstance(node, ast.ClassDef):
            for statement in node.body:
                if (
                    isinstance(statement, ast.Assign | ast.AnnAssign)
                    and statement.value is not None
                    and _target_name(statement) == "exception_handlers"
                ):
                    yield statement.value


def _target_name(statement: ast.Assign | ast.AnnAssign) -> str | None:
    target = statement.targets[0] if isinstance(statement, ast.Assign) else statement.target
    return target.id if isinstance(target, ast.Name) else None


def _dict_of(
    program: Program, node: ast.expr, module: griffe.Module
) -> tuple[list[ast.expr | None], list[ast.expr]]:
    """The keys and values of the mapping `node` gives: written there, a module-level name bound to one,
    or returned by a function of the loaded source (`exception_handlers=build_handlers()`)."""
    if isinstance(node, ast.Dict):
        return node.keys, node.values
    path = program.qualify(node.func if isinstance(node, ast.Call) else node, module)
    if isinstance(node, ast.Call):
        function = program.function(path)
        returned = _returned_dict(program.node(function)) if function is not None else None
        return (returned.keys, returned.values) if returned is not None else ([], [])
    owner, _, name = (path or "").rpartition(".")
    tree = program.trees.modules.get(owner)
    for statement in tree.body if tree is not None else ():
        if (
            isinstance(statement, ast.Assign | ast.AnnAssign)
            and _target_name(statement) == name
            and isinstance(statement.value, ast.Dict)
        ):
            return statement.value.keys, statement.value.values
    return [], []


def _returned_dict(node: FunctionNode) -> ast.Dict | None:
    """The dict literal a function returns, directly or through the one local it builds it in."""
    bound = {
        _target_name(s): s.value
        for s in node.body
        if isinstance(s, ast.Assign) and isinstance(s.value, ast.Dict)
    }
    for statement in node.body:
        if isinstance(statement, ast.Return) and isinstance(statement.value, ast.Dict):
            return statement.value
        if isinstance(statement, ast.Return) and isinstance(statement.value, ast.Name):
            value = bound.get(statement.value.id)
            return value if isinstance(value, ast.Dict) else None
    return None


def answer(program: Program, framework: Framework, handler: griffe.Function) -> Handler:
    """What `handler` answers: the status and body of the response it returns (or of the HTTP exception it
    raises); a status or detail taken from the exception itself is None."""
    node = program.node(handler)
    arguments = [*node.args.posonlyargs, *node.args.args]
    exception = arguments[1].arg if len(arguments) >= 2 else None
    for inner in ast.walk(node):
        call = (
            inner.value
            if isinstance(inner, ast.Return)
            else inner.exc
            if isinstance(inner, ast.Raise)
            else None
        )
        if not isinstance(call, ast.Call):
            continue
        status_node = _argument(call, "status_code", None)
        if status_node is None:
            continue
        raised = isinstance(inner, ast.Raise)
        content = _argument(call, "detail" if raised else "content", 0)
        key, value = (framework.body_key, content) if raised else _body_detail(content, framework.body_key)
        return _handler(program, framework, handler, exception, status_node, key, value)
    return Handler(handler, None, None, framework.body_key)


def _handler(
    program: Program,
    framework: Framework,
    handler: griffe.Function,
    exception: str | None,
    status_node: ast.expr,
    key: str,
    value: ast.expr | None,
) -> Handler:
    """The handler answering with `status_node` and `value` under `key`; what it takes from the exception
    (`exc.status_code`, `exc.message`, `str(exc)`) is None, with the attribute it reads."""
    module = handler.module
    status = (
        None
        if _on_exception(status_node, exception)
        else status_number(status_node, module, program, framework.resolver, framework.constant_status)
    )
    detail = (
        None
        if value is None or _on_exception(value, exception)
        else detail_text(value, module, framework.resolver, framework.default_detail(handler.path, status))
    )
    status_attribute = _attribute(status_node, exception)
    detail_attribute = _attribute(value, exception) if value is not None else None
    return Handler(handler, status, detail, key, status_attribute, detail_attribute)


def _body_detail(content: ast.expr | None, body_key: str) -> tuple[str, ast.expr | None]:
    """The key and value of a response body that hold the detail: the framework's own key when the body
    has it (Litestar's `{"status_code": ..., "detail": ...}`), else its first text value."""
    if not isinstance(content, ast.Dict):
        return body_key, content
    pairs = [
        (k.value, v) for k, v in zip(content.keys, content.values, strict=True) if isinstance(k, ast.Constant)
    ]
    for key, value in pairs:
        if key == body_key:
            return body_key, value
    for key, value in pairs:
        if isinstance(value, ast.JoinedStr) or (
            isinstance(value, ast.Constant) and isinstance(value.value, str)
        ):
            return str(key), value
    return (str(pairs[0][0]), pairs[0][1]) if pairs else (body_key, None)


def _on_exception(node: ast.expr, exception: str | None) -> bool:
    """Whether `node` is the handled exception or one of its attributes (`exc.status_code`, `exc.message`,
    `str(exc)`, `exc`): then the raise decides it."""
    if exception is None:
        return False
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "str" and node.args:
        node = node.args[0]
    if isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and node.id == exception


def _attribute(node: ast.expr, exception: str | None) -> str | None:
    """The attribute of the handled exception `node` reads (`exc.message` is `message`), or None."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == exception:
        return node.attr
    return None


def _argument(call: ast.Call, keyword: str, position: int | None) -> ast.expr | None:
    for item in call.keywords:
        if item.arg == keyword:
            return item.value
    return call.args[position] if position is not None and position < len(call.args) else None
