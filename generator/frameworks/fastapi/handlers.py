"""FastAPI's exception handlers, read statically: `@app.exception_handler(X)` and
`app.add_exception_handler(X, handler)`, and what each handler answers (`JSONResponse(status_code=...,
content={...})`, or an `HTTPException` it raises in turn)."""

from __future__ import annotations

import ast

import griffe

from generator.extract.http_values import detail_text, status_number
from generator.extract.program import FunctionNode, Program
from generator.extract.routes import Framework, Handler


def registered_handlers(program: Program, framework: Framework) -> dict[str, Handler]:
    """Exception class path -> its handler, from every module of the program."""
    found: dict[str, Handler] = {}
    for module, tree in program.modules():
        for statement in _statements(tree):
            for exception, handler in _registrations(program, module, statement):
                if exception is not None and handler is not None:
                    found[exception] = _answer(program, framework, handler)
    return found


def _statements(tree: ast.Module) -> list[ast.stmt]:
    """A module's statements and those of its functions' bodies (an app built in a function)."""
    found = list(tree.body)
    for statement in tree.body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            found.extend(statement.body)
    return found


def _registrations(
    program: Program, module: griffe.Module, statement: ast.stmt
) -> list[tuple[str | None, griffe.Function | None]]:
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
        function = program.function(f"{module.path}.{statement.name}")
        return [
            (program.qualify(decorator.args[0], module), function)
            for decorator in statement.decorator_list
            if isinstance(decorator, ast.Call)
            and isinstance(decorator.func, ast.Attribute)
            and decorator.func.attr == "exception_handler"
            and decorator.args
        ]
    call = statement.value if isinstance(statement, ast.Expr) else None
    if (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "add_exception_handler"
        and len(call.args) == 2
    ):
        handler = program.function(program.qualify(call.args[1], module))
        return [(program.qualify(call.args[0], module), handler)]
    return []


def _answer(program: Program, framework: Framework, handler: griffe.Function) -> Handler:
    """What `handler` answers: the status and body of the response it returns (or the HTTP exception it
    raises); a status or detail taken from the exception itself is None."""
    node = program.node(handler)
    exception = _exception_parameter(node)
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
        status_node = _argument(call, "status_code", 1 if isinstance(inner, ast.Return) else 0)
        if status_node is None:
            continue
        content = (
            _argument(call, "content", 0) if isinstance(inner, ast.Return) else _argument(call, "detail", 1)
        )
        return _handler(
            program, framework, handler, exception, status_node, content, raised=isinstance(inner, ast.Raise)
        )
    return Handler(handler, None, None, framework.body_key)


def _handler(
    program: Program,
    framework: Framework,
    handler: griffe.Function,
    exception: str | None,
    status_node: ast.expr,
    content: ast.expr | None,
    *,
    raised: bool,
) -> Handler:
    module = handler.module
    status = (
        None
        if _on_exception(status_node, exception)
        else status_number(status_node, module, program, framework.resolver, framework.constant_status)
    )
    key, value = framework.body_key, content
    if not raised and isinstance(content, ast.Dict) and content.keys:
        first = content.keys[0]
        key = str(first.value) if isinstance(first, ast.Constant) else key
        value = content.values[0]
    detail = (
        None
        if value is None or _on_exception(value, exception)
        else detail_text(value, module, framework.resolver, framework.default_detail("", status))
    )
    return Handler(handler, status, detail, key)


def _exception_parameter(node: FunctionNode) -> str | None:
    arguments = [*node.args.posonlyargs, *node.args.args]
    return arguments[1].arg if len(arguments) >= 2 else None


def _on_exception(node: ast.expr, exception: str | None) -> bool:
    """Whether `node` is the handled exception's own status or detail (`exc.status_code`, `exc.detail`,
    `str(exc)`, `exc`): then the raise decides it."""
    if exception is None:
        return False
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "str" and node.args:
        node = node.args[0]
    if isinstance(node, ast.Attribute) and node.attr in ("status_code", "detail"):
        node = node.value
    return isinstance(node, ast.Name) and node.id == exception


def _argument(call: ast.Call, keyword: str, position: int) -> ast.expr | None:
    for item in call.keywords:
        if item.arg == keyword:
            return item.value
    return call.args[position] if position < len(call.args) else None
