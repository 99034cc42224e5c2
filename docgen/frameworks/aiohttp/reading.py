"""What the names of an aiohttp program stand for: its applications and route tables, the factories that
return an application, the methods a view class answers, and the wrappers a handler's decorators put
around it. `routes` reads what is attached to them."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

import griffe

from docgen.extract.calls import FunctionNode
from docgen.extract.http_values import detail_text
from docgen.extract.program import Code, Program
from docgen.extract.resolve import Resolver
from docgen.extract.routes import METHODS
from docgen.frameworks.aiohttp.path_values import PathValues

APPS = {"aiohttp.web.Application", "aiohttp.web_app.Application"}
TABLES = {"aiohttp.web.RouteTableDef", "aiohttp.web_routedef.RouteTableDef"}

Route = tuple[str, str, griffe.Function, tuple[Code, ...], str, int]
"""(method, path, function, the decorators' wrappers it runs first, file, line)."""


@dataclass
class App:
    """An application or a route table: its routes, the tables it adds and the sub-applications it mounts."""

    key: str
    is_app: bool
    routes: list[Route] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)
    subapps: list[tuple[str, str]] = field(default_factory=list)
    """(prefix as written, key of the sub-application)."""
    middlewares: list[tuple[griffe.Function, Code]] = field(default_factory=list)
    mounted: bool = False


class Reading:
    """The applications and route tables of a program, by key: `module.name` for a module-level name,
    `function:name` for a local of a factory (or a parameter a setup function is called with)."""

    def __init__(self, program: Program, resolver: Resolver) -> None:
        self.program = program
        self.resolver = resolver
        self.apps: dict[str, App] = {}
        self.returns: dict[str, str] = {}
        """Factory path -> the key of the application it returns."""
        self.instances: dict[str, str] = {}
        """Key of a name bound to an instance of a class of the source (`handler = Handler()`) -> the
        class's path, for routes to its methods (`add_get("/", handler.index)`)."""
        self.owners: dict[str, str] = {}
        """Scope of a method -> the path of its class, whose `self.app` the method may set up."""
        self.scopes: list[tuple[str, griffe.Module, list[ast.stmt]]] = []
        self.paths = PathValues(program, resolver)
        for module, tree in program.modules():
            self.scopes.append((module.path, module, flat(tree.body)))
            for statement in tree.body:
                if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                    self.scopes.append((f"{module.path}.{statement.name}", module, flat(statement.body)))
                elif isinstance(statement, ast.ClassDef):
                    self._methods(module, statement)
        for scope, module, statements in self.scopes:
            self._creations(scope, module, statements)
        for scope, module, statements in self.scopes:
            self._returned(scope, module, statements)
        for scope, module, statements in self.scopes:
            self._aliases(scope, module, statements)

    def _methods(self, module: griffe.Module, node: ast.ClassDef) -> None:
        """The methods of a module-level class as scopes (a server class that builds `self.app`)."""
        owner = f"{module.path}.{node.name}"
        for statement in node.body:
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                scope = f"{owner}.{statement.name}"
                self.owners[scope] = owner
                self.scopes.append((scope, module, flat(statement.body)))

    def local(self, scope: str, module: griffe.Module, name: str) -> str:
        """The key of `name` bound in `scope`: `module.name` at module level, `Class:self.name` for an
        attribute a method sets on `self`, `function:name` for a local."""
        if name.startswith("self.") and scope in self.owners:
            return f"{self.owners[scope]}:{name}"
        return f"{module.path}.{name}" if scope == module.path else f"{scope}:{name}"

    def key(self, node: ast.expr, scope: str, module: griffe.Module) -> str | None:
        """The key of the application or table `node` names (`app.router` names `app`), or None."""
        if isinstance(node, ast.Attribute) and node.attr == "router":
            node = node.value
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            held = self.local(scope, module, f"self.{node.attr}")
            return held if held in self.apps else None
        if isinstance(node, ast.Name) and f"{scope}:{node.id}" in self.apps:
            return f"{scope}:{node.id}"
        path = self.program.qualify(node, module)
        return self.apps[path].key if path in self.apps else None

    def path(self, node: ast.expr, scope: str, module: griffe.Module) -> str:
        """A path or prefix written in `scope`, its locals read (`PathValues`)."""
        statements = next((found for name, _, found in self.scopes if name == scope), [])
        return self.paths.text(node, module, scope, statements)

    def text(self, node: ast.expr, module: griffe.Module) -> str:
        """A path or prefix as text: its value, an f-string as a template, else the expression in braces."""
        return detail_text(node, module, self.resolver, "")

    def bound_method(self, handler: ast.expr, scope: str, module: griffe.Module) -> griffe.Function | None:
        """The method `handler` names on an object bound to an instance of a class of the source, in the
        function `scope` or at module level (`handler.index` after `handler = Handler()`), or on `self` in a
        method (`self.index`), or None."""
        if not (isinstance(handler, ast.Attribute) and isinstance(handler.value, ast.Name)):
            return None
        if handler.value.id == "self" and scope in self.owners:  # `add_get("/", self.index)`
            held: str | None = self.owners[scope]
        else:
            held = self.instances.get(f"{scope}:{handler.value.id}")
        held = held or self.instances.get(self.program.qualify(handler.value, module) or "")
        for ancestor in self.program.ancestry(held) if held is not None else ():
            method = self.program.function(f"{ancestor}.{handler.attr}")
            if method is not None:
                return method
        return None

    def view_methods(self, path: str) -> list[tuple[str, griffe.Function]]:
        """The HTTP methods a view class of the loaded source answers, each with the method that answers it
        (its own, else the nearest base's that the loaded source defines)."""
        if self.program.klass(path) is None:
            return []
        found: dict[str, griffe.Function] = {}
        for ancestor in self.program.ancestry(path):
            for method in METHODS:
                function = self.program.function(f"{ancestor}.{method}")
                if function is not None:
                    found.setdefault(method, function)
        return [(method, found[method]) for method in METHODS if method in found]

    def _creations(self, scope: str, module: griffe.Module, statements: list[ast.stmt]) -> None:
        for statement in statements:
            target, value = _assignment(statement)
            if not isinstance(value, ast.Call) or target is None:
                continue
            made = self.program.qualify(value.func, module)
            if made is not None and self.program.klass(made) is not None:
                self.instances[self.local(scope, module, target)] = made
            if made in APPS | TABLES:
                key = self.local(scope, module, target)
                self.apps[key] = App(key, is_app=made in APPS)
                self.add_middlewares(key, module, value)

    def add_middlewares(self, key: str, module: griffe.Module, call: ast.Call) -> None:
        """The middlewares `call` registers with the application `key`, in order."""
        for item in middleware_items(self.program, module, call):
            found = middleware_code(self.program, module, item)
            if found is not None:
                self.apps[key].middlewares.append(found)

    def _returned(self, scope: str, module: griffe.Module, statements: list[ast.stmt]) -> None:
        for statement in statements:
            if isinstance(statement, ast.Return) and statement.value is not None and scope != module.path:
                key = self.key(statement.value, scope, module)
                if key is not None:
                    self.returns[scope] = key

    def _aliases(self, scope: str, module: griffe.Module, statements: list[ast.stmt]) -> None:
        """`router = app.router` names the application; `app = create_app()` (awaited or not) names the
        application the factory returns."""
        for statement in statements:
            target, value = _assignment(statement)
            if isinstance(value, ast.Await):
                value = value.value
            if target is None or value is None:
                continue
            called = self.program.qualify(value.func, module) if isinstance(value, ast.Call) else None
            named = self.key(value, scope, module) if isinstance(value, ast.Attribute) else None
            found = self.returns.get(called or "") or named
            if found is not None:
                self.apps[self.local(scope, module, target)] = self.apps[found]


def flat(statements: list[ast.stmt]) -> list[ast.stmt]:
    """`statements` and those nested in their `if`, `with`, `try` and loop blocks (an application set up
    under `if __name__ == "__main__":` or inside `with` is still set up), not those of nested functions."""
    found: list[ast.stmt] = []
    for statement in statements:
        found.append(statement)
        if isinstance(
            statement, ast.If | ast.With | ast.AsyncWith | ast.Try | ast.TryStar | ast.For | ast.While
        ):
            for block in ("body", "orelse", "finalbody"):
                found.extend(flat(getattr(statement, block, [])))
            for handler in getattr(statement, "handlers", []):
                found.extend(flat(handler.body))
    return found


def _assignment(statement: ast.stmt) -> tuple[str | None, ast.expr | None]:
    """The name and value of `name = value`, `name: T = value` or `self.name = value` (named `self.name`);
    (None, None) for anything else."""
    value: ast.expr | None
    if isinstance(statement, ast.Assign):
        target, value = statement.targets[0], statement.value
    elif isinstance(statement, ast.AnnAssign):
        target, value = statement.target, statement.value
    else:
        return None, None
    if isinstance(target, ast.Name):
        return target.id, value
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
        return f"self.{target.attr}", value
    return None, None


def decorator_wrappers(program: Program, function: griffe.Function) -> tuple[Code, ...]:
    """The wrappers the decorators of `function` defined in the loaded source put around it, outermost
    first: `@require_token` runs the function `require_token` returns, `@require_role("admin")` the one
    the decorator its factory returns returns. Each runs before the handler, so what it raises is the
    operation's."""
    node = program.node(function)
    found: list[Code] = []
    for decorator in node.decorator_list:
        factory = decorator.func if isinstance(decorator, ast.Call) else decorator
        called = program.function(program.qualify(factory, function.module))
        if called is None:
            continue
        code = program.code(called)
        if isinstance(decorator, ast.Call):  # a factory: the decorator it returns is the one applied
            inner = _returned_inner(code)
            code = inner if inner is not None else code
        wrapper = _returned_inner(code)
        if wrapper is not None:
            found.append(wrapper)
    return tuple(found)


def _returned_inner(code: Code) -> Code | None:
    """The function `code` defines in its own body and returns by name, if it does."""
    inner: dict[str, FunctionNode] = {
        s.name: s for s in code.node.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    for statement in code.node.body:
        if isinstance(statement, ast.Return) and isinstance(statement.value, ast.Name):
            found = inner.get(statement.value.id)
            if found is not None:
                return Code(f"{code.path}.{found.name}", found, code.module)
    return None


def middleware_items(program: Program, module: griffe.Module, node: ast.AST) -> list[ast.expr]:
    """The middlewares `node` registers: the items of `web.Application(middlewares=[...])`, or the argument
    of `app.middlewares.append(m)` / `.extend([...])` / `.insert(i, m)`."""
    if not isinstance(node, ast.Call):
        return []
    listed: ast.expr | None = None
    if program.qualify(node.func, module) in APPS:
        listed = next((k.value for k in node.keywords if k.arg == "middlewares"), None)
    elif (
        isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Attribute)
        and node.func.value.attr == "middlewares"
        and node.func.attr in ("append", "extend", "insert")
    ):
        listed = node.args[-1] if node.args else None
    if isinstance(listed, ast.List | ast.Tuple):
        return list(listed.elts)
    return [listed] if isinstance(listed, ast.Name | ast.Attribute | ast.Call) else []


def middleware_code(
    program: Program, module: griffe.Module, item: ast.expr
) -> tuple[griffe.Function, Code] | None:
    """The middleware a registered item runs per request: the function named (`auth`), or the one a factory
    defines and returns (`error_middleware(...)`, or an old-style `factory(app, handler)`), with the
    function of the loaded source that holds it; None when it is not one of the source's functions."""
    factory = item.func if isinstance(item, ast.Call) else item
    function = program.function(program.qualify(factory, module))
    if function is None and isinstance(factory, ast.Name):
        function = _imported_function(program, module, factory.id)
    if function is None:
        return None
    inner = program.returned_function(function)
    return function, inner if inner is not None else program.code(function)


def guards(app: App) -> tuple[Code, ...]:
    """The middlewares of `app` that answer on their own rather than for an exception (no `try` in them,
    such as a token check returning a 401 before it calls the handler): each runs before every operation
    of the application, as a dependency does."""
    return tuple(
        code
        for _, code in app.middlewares
        if not any(isinstance(n, ast.Try | ast.TryStar) for n in ast.walk(code.node))
    )


def _imported_function(program: Program, module: griffe.Module, name: str) -> griffe.Function | None:
    """The function the last `from ... import name` of a module binds. griffe gives a package's `__init__`
    the submodule where the package has a submodule of the same name (`from .middleware import auth`
    beside `maubot/management/api/auth.py`), while Python binds the imported function, as this does."""
    tree = program.trees.modules.get(module.path)
    found: griffe.Function | None = None
    for statement in tree.body if tree is not None else []:
        if not isinstance(statement, ast.ImportFrom):
            continue
        for alias in statement.names:
            if (alias.asname or alias.name) == name:
                parts = module.path.split(".") if module.is_init_module else module.path.split(".")[:-1]
                base = ".".join(parts[: len(parts) - statement.level + 1]) if statement.level else ""
                source = ".".join(part for part in (base, statement.module or "") if part)
                found = program.function(f"{source}.{alias.name}") or found
    return found
