"""FastAPI's exception handlers, read statically: `@app.exception_handler(X)`,
`app.add_exception_handler(X, handler)` and `exception_handlers={X: handler}` given to the application
(Starlette's or FastAPI's), and what each handler answers (`JSONResponse(status_code=..., content={...})`,
or an `HTTPException` it raises in turn)."""

from __future__ import annotations

import ast

import griffe

from docgen.extract.calls import FunctionNode
from docgen.extract.http_values import detail_text, status_number
from docgen.extract.program import Program
from docgen.extract.routes import Framework, Handler


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
    if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call):
        return _constructor_handlers(program, module, statement.value)
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


def _constructor_handlers(
    program: Program, module: griffe.Module, call: ast.Call
) -> list[tuple[str | None, griffe.Function | None]]:
    """`Starlette(exception_handlers={NotFound: handler})` (or FastAPI's): each exception class given with
    its handler. A status given as a key (`{404: handler}`) answers the framework's own HTTP exception of that
    status, which a handler keyed by class cannot say: it is not read."""
    given = next((k.value for k in call.keywords if k.arg == "exception_handlers"), None)
    if not isinstance(given, ast.Dict):
        return []
    return [
        (program.qualify(key, module), program.function(program.qualify(value, module)))
        for key, value in zip(given.keys, given.values, strict=True)
        if isinstance(key, ast.Name | ast.Attribute)
    ]


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
        content = _local_value(content, node) if isinstance(content, ast.Name) else content
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
        nested, value = _body_detail(content)
        key = nested or key
    detail = (
        None
        if value is None or _on_exception(value, exception) or _attribute_of(value, exception)
        else detail_text(value, module, framework.resolver, framework.default_detail("", status))
    )
    status_attribute = _attribute_of(status_node, exception)
    detail_attribute = _attribute_of(value, exception) if value is not None else None
    return Handler(handler, status, detail, key, status_attribute, detail_attribute)


def _body_detail(content: ast.Dict) -> tuple[str | None, ast.expr]:
    """The key (dotted when nested) and value of the detail a handler's body holds: the first key's
    value, or in a nested object (`{"error": {"code": ..., "message": exc.message}}`) its `message` or
    `detail`, else its first value."""
    keys: list[str] = []
    node: ast.expr = content
    while isinstance(node, ast.Dict) and node.keys and len(keys) < _MAX_NESTING:
        named = {
            k.value: v for k, v in zip(node.keys, node.values, strict=True) if isinstance(k, ast.Constant)
        }
        chosen = next((name for name in ("message", "detail") if name in named), None) if keys else None
        first = node.keys[0]
        name = chosen or (str(first.value) if isinstance(first, ast.Constant) else "")
        if not name:
            break
        keys.append(str(name))
        node = named.get(name, node.values[0])
    return ".".join(keys) or None, node


_MAX_NESTING = 3
"""How deep a handler's body is read for its detail."""


def _attribute_of(node: ast.expr, exception: str | None) -> str | None:
    """The attribute of the handled exception `node` reads (`exc.message` -> `message`), or None; the
    HTTP exception's own `status_code` and `detail` are its raise's (`_on_exception`)."""
    if (
        exception is not None
        and isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == exception
    ):
        return node.attr
    return None


def _local_value(name: ast.Name, node: FunctionNode) -> ast.expr:
    """The dict a local name of the handler is bound to once (`content = {...}`, then
    `JSONResponse(content=content)`), else the name itself."""
    bound = [
        inner.value
        for inner in ast.walk(node)
        if isinstance(inner, ast.Assign | ast.AnnAssign)
        and any(isinstance(t, ast.Name) and t.id == name.id for t in _targets(inner))
    ]
    return bound[0] if len(bound) == 1 and isinstance(bound[0], ast.Dict) else name


def _targets(statement: ast.Assign | ast.AnnAssign) -> list[ast.expr]:
    return statement.targets if isinstance(statement, ast.Assign) else [statement.target]


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
