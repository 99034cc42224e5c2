"""Flask's error handlers, read statically: `@x.errorhandler(E)`, `@bp.app_errorhandler(E)` and
`x.register_error_handler(E, handler)`, where `E` is an exception class or a status (a status stands for the
Werkzeug class `abort` raises for it, as Flask registers it), and what each handler answers.

A handler's answer is read from what it returns: `jsonify(error=...), 404`, `{"error": e.description},
e.code`, `make_response(...)` or `Response(..., status=...)`. A status or detail taken from the exception
itself is None, the raise deciding it: `e.code`, `e.description`, the exception returned as it is (which
Werkzeug renders as its page), or a template rendered with the exception (`render_template("error.html",
error=e)`, taken to show its description as Werkzeug's page does; the template is not read). A handler
registered on a blueprint with `errorhandler` answers only for that blueprint's routes (and those of the
blueprints inside it), before the application's, as in Flask.
"""

from __future__ import annotations

import ast

import griffe

from docgen.extract.calls import FunctionNode
from docgen.extract.http_classes import HttpClasses
from docgen.extract.http_values import status_number
from docgen.extract.program import Program
from docgen.extract.responses import CallReader
from docgen.extract.routes import Framework, Handler
from docgen.frameworks.flask.blueprints import BLUEPRINTS

REGISTERING = ("errorhandler", "app_errorhandler")
CALLING = ("register_error_handler",)
RENDERERS = {"flask.render_template", "flask.templating.render_template"}


def registered_handlers(
    program: Program, framework: Framework, by_status: dict[int, str]
) -> dict[str | None, dict[str, Handler]]:
    """Blueprint path (None: the application) -> exception class path -> its handler, from every module of
    the program and the factories in them. `errorhandler` and `register_error_handler` on a blueprint answer
    for that blueprint's routes only; `app_errorhandler` and those on an application, for every route."""
    reader = _Answers(program, framework)
    found: dict[str | None, dict[str, Handler]] = {None: {}}
    for module, tree in program.modules():
        for statement, outer in _statements(tree):
            registered = _registrations(program, framework, module, statement, outer, by_status)
            for scope, exception, handler in registered:
                found.setdefault(scope, {})[exception] = reader.answer(handler, reader.is_own(exception))
    return found


def _blueprint(program: Program, module: griffe.Module, receiver: ast.expr, method: str) -> str | None:
    """The module-level blueprint a handler is registered on for its own routes only, or None (an
    application, `app_errorhandler`, or a receiver docgen cannot name)."""
    path = program.qualify(receiver, module) if method != "app_errorhandler" else None
    held = program.objects.get(path or "")
    if not isinstance(held, griffe.Attribute) or held.value is None:
        return None
    try:
        made = ast.parse(str(held.value), mode="eval").body
    except SyntaxError:
        return None
    is_blueprint = isinstance(made, ast.Call) and program.qualify(made.func, held.module) in BLUEPRINTS
    return path if is_blueprint else None


def _statements(tree: ast.Module) -> list[tuple[ast.stmt, FunctionNode | None]]:
    """A module's statements, and those of its functions' bodies (an application built in a factory) with
    the function they are in."""
    found: list[tuple[ast.stmt, FunctionNode | None]] = [(statement, None) for statement in tree.body]
    for outer in tree.body:
        if isinstance(outer, ast.FunctionDef | ast.AsyncFunctionDef):
            found.extend((statement, outer) for statement in outer.body)
    return found


def _registrations(
    program: Program,
    framework: Framework,
    module: griffe.Module,
    statement: ast.stmt,
    outer: FunctionNode | None,
    by_status: dict[int, str],
) -> list[tuple[str | None, str, griffe.Function]]:
    """(blueprint or None, exception class, handler) of each registration `statement` makes."""
    registered: list[tuple[ast.Attribute, ast.expr, griffe.Function | None]] = []
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
        targets = [
            (decorator.func, decorator.args[0])
            for decorator in statement.decorator_list
            if isinstance(decorator, ast.Call)
            and isinstance(decorator.func, ast.Attribute)
            and decorator.func.attr in REGISTERING
            and decorator.args
        ]
        if targets:
            function = (
                program.function(f"{module.path}.{statement.name}")
                if outer is None
                else program.closure(module, outer, statement)
            )
            registered = [(method, target, function) for method, target in targets]
    call = statement.value if isinstance(statement, ast.Expr) else None
    if (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr in CALLING
        and len(call.args) == 2
    ):
        registered = [(call.func, call.args[0], program.function(program.qualify(call.args[1], module)))]
    found = []
    for method, target, handler in registered:
        exception = _exception(program, framework, module, target, by_status)
        if exception is not None and handler is not None:
            found.append((_blueprint(program, module, method.value, method.attr), exception, handler))
    return found


def _exception(
    program: Program, framework: Framework, module: griffe.Module, node: ast.expr, by_status: dict[int, str]
) -> str | None:
    """The class a registration names: the class itself, or for a status the Werkzeug class of it."""
    if isinstance(node, ast.Name | ast.Attribute):
        path = program.qualify(node, module)
        if path is not None and HttpClasses(program, framework.resolver).klass(path) is not None:
            return path
    status = status_number(node, module, program, framework.resolver, framework.constant_status)
    return by_status.get(status) if status is not None else None


class _Answers:
    """Reads what a handler answers."""

    def __init__(self, program: Program, framework: Framework) -> None:
        self.program = program
        self.framework = framework
        self.classes = HttpClasses(program, framework.resolver)
        self.calls = CallReader(program, framework, self.classes)

    def is_own(self, exception: str) -> bool:
        """Whether `exception` is the application's own (no Werkzeug HTTP exception): its `str(e)` is then
        the message it was raised with, which the raise gives (a Werkzeug one's is `404 Not Found: ...`)."""
        return not set(self.classes.ancestry(exception)) & set(self.framework.http_exceptions)

    def answer(self, handler: griffe.Function, own: bool = False) -> Handler:
        node = self.program.node(handler)
        exception = _exception_parameter(node)
        for inner in ast.walk(node):
            if isinstance(inner, ast.Return) and inner.value is not None:
                return self._returned(handler, node, inner.value, (exception, own))
        return Handler(handler, None, None, self.framework.body_key)

    def _returned(
        self, handler: griffe.Function, node: FunctionNode, value: ast.expr, caught: tuple[str | None, bool]
    ) -> Handler:
        exception, own = caught
        module = handler.module
        pair = value.elts if isinstance(value, ast.Tuple) and len(value.elts) in (2, 3) else None
        body, status_node = (pair[0], pair[1]) if pair is not None else (value, None)
        status = None
        if status_node is not None and not _mentions(status_node, exception):
            resolver, named = self.framework.resolver, self.framework.constant_status
            status = status_number(status_node, module, self.program, resolver, named)
        if isinstance(body, ast.Call) and status_node is None:
            stated = self.calls.returned(body, module)
            if stated is not None:
                return Handler(
                    handler, stated.status, stated.detail, stated.body_key or self.framework.body_key
                )
        if isinstance(body, ast.Name) and exception is not None:
            body = _written_into(node, body.id, exception) or _bound_once(node, body)
        if _is_exception(body, exception) or self._renders(body, module, exception):
            return Handler(handler, status, None, self.framework.body_key)
        if own and _is_text_of(_dict_of(body), exception, node):
            return Handler(handler, status, None, self.framework.body_key)  # `str(e), 400`: the raise's text
        body = _dict_of(body)
        own_key = _description_key(body, (exception, own), node)
        if own_key is not None:
            return Handler(handler, status, None, own_key)
        key, detail = self.calls.body(body, module, "")
        return Handler(handler, status, detail, key or self.framework.body_key)

    def _renders(self, body: ast.expr, module: griffe.Module, exception: str | None) -> bool:
        """`render_template("error.html", error=e)`: a page of the application's own that is given the
        exception, taken to show its description (as Werkzeug's page does); its template is not read."""
        if not isinstance(body, ast.Call) or self.program.qualify(body.func, module) not in RENDERERS:
            return False
        given = [*body.args, *(keyword.value for keyword in body.keywords)]
        return any(isinstance(value, ast.Name) and value.id == exception for value in given)


def _dict_of(body: ast.expr) -> ast.expr:
    """The body a response builder wraps: `make_response(x)` is `x`; anything else as it is."""
    if isinstance(body, ast.Call) and len(body.args) == 1 and isinstance(body.args[0], ast.Call):
        return body.args[0]
    return body


def _description_key(body: ast.expr, caught: tuple[str | None, bool], node: FunctionNode) -> str | None:
    """The key under which a body (a dict, or `jsonify(...)` of keywords or of a dict) carries the
    exception's own description (`{"code": e.code, "description": e.description}` is `description`), or,
    for an exception of the application's own, its text (`jsonify(error=str(e))`)."""
    exception, own = caught
    if isinstance(body, ast.Call) and len(body.args) == 1 and isinstance(body.args[0], ast.Dict):
        body = body.args[0]
    if isinstance(body, ast.Dict):
        pairs = [
            (k.value, v) for k, v in zip(body.keys, body.values, strict=True) if isinstance(k, ast.Constant)
        ]
    elif isinstance(body, ast.Call):
        pairs = [(k.arg, k.value) for k in body.keywords if k.arg is not None]
    else:
        return None
    return next(
        (
            str(key)
            for key, value in pairs
            if _is_description(value, exception) or (own and _is_text_of(value, exception, node))
        ),
        None,
    )


def _bound_once(node: FunctionNode, name: ast.Name) -> ast.expr:
    """The value a local name of the handler is bound to once (`message = str(error)`), else the name."""
    bound = [
        inner.value
        for inner in ast.walk(node)
        if isinstance(inner, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == name.id for t in inner.targets)
    ]
    return bound[0] if len(bound) == 1 else name


def _is_text_of(value: ast.expr, exception: str | None, node: FunctionNode) -> bool:
    """`str(e)`, `f"{e}"` or `e.args[0]`, directly or through a local bound once: the exception's text."""
    if isinstance(value, ast.Name) and value.id != exception:
        value = _bound_once(node, value)
    if isinstance(value, ast.JoinedStr) and len(value.values) == 1:
        inner = value.values[0]
        plain = (
            isinstance(inner, ast.FormattedValue)
            and inner.format_spec is None
            and inner.conversion in (-1, 115)
        )
        value = inner.value if plain and isinstance(inner, ast.FormattedValue) else value
    elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "str":
        value = value.args[0] if len(value.args) == 1 else value
    elif (
        isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Constant) and value.slice.value == 0
    ):
        args = value.value
        value = args.value if isinstance(args, ast.Attribute) and args.attr == "args" else value
    return isinstance(value, ast.Name) and value.id == exception


def _written_into(node: FunctionNode, name: str, exception: str) -> ast.expr | None:
    """For `name = e.get_response()`, what the handler writes into it: the dict of `name.data =
    json.dumps({...})` (Flask's documented JSON handler), else the exception itself (its own page)."""
    made = any(
        isinstance(inner, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == name for t in inner.targets)
        and _is_exception(inner.value, exception)
        for inner in ast.walk(node)
    )
    if not made:
        return None
    for inner in ast.walk(node):
        if (
            isinstance(inner, ast.Assign)
            and any(_is_data_of(t, name) for t in inner.targets)
            and isinstance(inner.value, ast.Call)
            and inner.value.args
        ):
            return inner.value.args[0]
    return ast.Name(id=exception)


def _is_data_of(target: ast.expr, name: str) -> bool:
    return (
        isinstance(target, ast.Attribute)
        and target.attr == "data"
        and isinstance(target.value, ast.Name)
        and target.value.id == name
    )


def _is_description(node: ast.expr, exception: str | None) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "description"
        and isinstance(node.value, ast.Name)
        and node.value.id == exception
    )


def _is_exception(node: ast.expr, exception: str | None) -> bool:
    """`return e` or `return e.get_response()`: Werkzeug's own page for the exception."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get_response"
    ):
        node = node.func.value
    return isinstance(node, ast.Name) and node.id == exception


def _mentions(node: ast.expr, name: str | None) -> bool:
    return name is not None and any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def _exception_parameter(node: FunctionNode) -> str | None:
    arguments = [*node.args.posonlyargs, *node.args.args]
    return arguments[0].arg if arguments else None
