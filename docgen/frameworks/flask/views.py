"""What answers a Flask rule: a view function, or a class-based view routed through `Cls.as_view(name)`.

A `MethodView` subclass answers each HTTP method it (or a class it inherits from) defines a method for, one
operation each, unless it lists `methods` itself; a plain `View` answers the methods it lists (GET when it
lists none) with its `dispatch_request`. The decorators a class lists in `decorators` wrap every one of its
operations, so their wrappers run before each, as a function's own decorators do.
"""

from __future__ import annotations

import ast

import griffe

from docgen.core.errors import SourceError
from docgen.core.records import record
from docgen.extract.decorators import wrapper_of
from docgen.extract.program import Code, Program
from docgen.extract.resolve import Resolver, Unresolvable
from docgen.extract.routes import METHODS

METHOD_VIEWS = {
    "flask.views.MethodView",
    "flask.MethodView",
    "flask_restful.Resource",
    "flask_restx.Resource",
}
SHORTCUTS = ("get", "post", "put", "delete", "patch")


@record
class View:
    """The functions that answer a rule, by method, and the wrappers around them all."""

    methods: list[str]
    """The methods the view answers when the rule does not list them."""
    functions: dict[str, griffe.Function]
    """Method -> the function that answers it; a function view answers every method with itself."""
    decorators: tuple[Code, ...]

    @classmethod
    def of_function(cls, function: griffe.Function) -> View:
        """A view function: it answers every method its rule routes."""
        return cls(["get"], {"*": function}, ())

    def function(self, method: str) -> griffe.Function | None:
        return self.functions.get(method) or self.functions.get("*")


def view_of(program: Program, node: ast.expr, module: griffe.Module) -> View | None:
    """The view `node` (a `view_func=` argument) names: `Cls.as_view(...)`, a function of the loaded source,
    or a module-level name bound to either; None for anything else."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "as_view"
        and (klass := program.klass(program.qualify(node.func.value, module))) is not None
    ):
        return _class_view(program, klass)
    path = program.qualify(node, module)
    function = program.function(path)
    if function is not None:
        return View.of_function(function)
    held = program.objects.get(path or "")  # `loan_view = LoanView.as_view("loan")` at module level
    if isinstance(held, griffe.Attribute) and held.value is not None:
        try:
            value = ast.parse(str(held.value), mode="eval").body
        except SyntaxError:
            return None
        return view_of(program, value, held.module) if isinstance(value, ast.Call) else None
    return None


def _class_view(program: Program, klass: griffe.Class) -> View:
    ancestry = program.ancestry(klass.path)
    defined = {}
    for method in METHODS:
        found = next(
            (f for path in ancestry if (f := program.function(f"{path}.{method}")) is not None), None
        )
        if found is not None:
            defined[method] = found
    listed = _class_list(program, ancestry, "methods")
    is_method_view = any(path in METHOD_VIEWS for path in ancestry)
    if listed is not None:
        methods = [m for m in METHODS if m in {str(v).lower() for v in listed if isinstance(v, str)}]
    else:
        methods = sorted(defined, key=METHODS.index) if is_method_view else ["get"]
    dispatch = next(
        (f for path in ancestry if (f := program.function(f"{path}.dispatch_request")) is not None), None
    )
    functions = {m: defined[m] for m in methods if m in defined and is_method_view}
    if dispatch is not None:
        functions.setdefault("*", dispatch)
    return View(methods, functions, _class_decorators(program, ancestry))


def _class_list(program: Program, ancestry: list[str], name: str) -> list[object] | None:
    """The items of the list or tuple literal the nearest class of `ancestry` assigns to `name`."""
    for path in ancestry:
        node = _class_attribute(program, path, name)
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            return [item.value if isinstance(item, ast.Constant) else item for item in node.elts]
    return None


def _class_attribute(program: Program, path: str, name: str) -> ast.expr | None:
    """The value the body of the class `path` assigns to `name` itself, or None."""
    node = program.trees.classes.get(path)
    for statement in node.body if node is not None else []:
        if isinstance(statement, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in statement.targets
        ):
            return statement.value
        target = statement.target if isinstance(statement, ast.AnnAssign) else None
        if isinstance(target, ast.Name) and target.id == name and isinstance(statement, ast.AnnAssign):
            return statement.value
    return None


def _class_decorators(program: Program, ancestry: list[str]) -> tuple[Code, ...]:
    """The wrappers of the decorators a class-based view lists in `decorators`: `as_view` applies them in
    the order listed, so the last one listed is outermost and runs first."""
    for path in ancestry:
        node = _class_attribute(program, path, "decorators") or _class_attribute(
            program, path, "method_decorators"
        )
        klass = program.klass(path)
        if isinstance(node, ast.List | ast.Tuple) and klass is not None:
            wrappers = [wrapper_of(program, item, klass.module) for item in reversed(node.elts)]
            return tuple(wrapper for wrapper in wrappers if wrapper is not None)
    return ()


def route_methods(decorator: ast.Call, module: griffe.Module, resolver: Resolver) -> list[str]:
    """The methods a route decorator routes: its shortcut's, or those `methods=` lists (GET by default)."""
    name = decorator.func.attr if isinstance(decorator.func, ast.Attribute) else ""
    if name in SHORTCUTS:
        return [name]
    if name != "route":
        return []
    listed = _keyword(decorator, "methods")
    return listed_methods(listed, module, resolver) if listed is not None else ["get"]


def listed_methods(node: ast.expr, module: griffe.Module, resolver: Resolver) -> list[str]:
    """The methods `methods=` names, lower case, as Flask documents them (known ones only): a list, tuple or
    set of texts or constants, or a constant holding a tuple of them; GET for what cannot be read."""
    items = list(node.elts) if isinstance(node, ast.List | ast.Tuple | ast.Set) else [node]
    spelled: list[str] = []
    for item in items:
        try:
            value = resolver.evaluate(item, module).value
        except (Unresolvable, SourceError):
            continue
        spelled.extend(str(v).lower() for v in (value if isinstance(value, tuple) else (value,)))
    if not spelled:
        return ["get"]
    return [method for method in METHODS if method in spelled]


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((keyword.value for keyword in call.keywords if keyword.arg == name), None)
