"""aiohttp's operations: applications, route tables, sub-applications and class-based views.

Read from the syntax alone, as `frameworks/fastapi/routes.py` reads FastAPI: first what each name stands
for (`app = web.Application(...)`, `routes = web.RouteTableDef()`, at module level or inside a factory
that returns the application, and `router = app.router`), then what is attached to each: `@routes.get(path)`
on functions and `@routes.view(path)` on views, `app.add_routes(routes)` or a list of `web.get(path,
handler)`, `app.router.add_get(path, handler)` and its siblings, `add_view`, `add_subapp(prefix, sub)`.
A function called with an application (`setup_routes(app)`) is read with its parameter standing for it.
The operations are then the routes reachable from each application that is no other's sub-application
(a module of route handlers without its application is read from its route tables).
A view class answers one operation per HTTP method it defines. `web.static` serves files and is left out,
as are the HEAD routes `add_get` adds by itself.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Mapping

import griffe

from docgen.core.errors import ConfigError, suggest
from docgen.extract.program import Code, Program
from docgen.extract.resolve import Resolver
from docgen.extract.route_paths import Unread
from docgen.extract.routes import METHODS, Endpoint
from docgen.frameworks.aiohttp.paths import openapi_path, subapp_prefix
from docgen.frameworks.aiohttp.reading import App, Reading, decorator_wrappers, flat, guards


def application_endpoints(
    program: Program, resolver: Resolver, app: str | None, unfollowed: list[Unread]
) -> list[Endpoint]:
    """Every operation of the application `app` (None: of every application that is no other's
    sub-application, or, in a source without an application, of every route table none adds), in path then
    method order; what cannot be followed is added to `unfollowed`."""
    reading = Reading(program, resolver)
    attach = _Attach(reading)
    apps = attach.read()
    unfollowed.extend(attach.unfollowed)
    added = {key for found in apps.values() for key in found.tables}
    roots = [found for found in apps.values() if found.is_app and not found.mounted]
    roots = roots or [found for found in apps.values() if not found.is_app and found.key not in added]
    if app is not None:
        named = sorted(key for key, found in apps.items() if found.is_app and ":" not in key)
        named += sorted(reading.returns)
        if app not in named:
            hint = suggest(app, named) or f"applications found: {', '.join(named) or 'none'}"
            raise ConfigError(f"no aiohttp application '{app}' in the source", file="mkdocs.yml", hint=hint)
        roots = [apps[reading.returns.get(app, app)]]
    found: list[Endpoint] = []
    for root in sorted({id(r): r for r in roots}.values(), key=lambda r: r.key):
        found.extend(_walk(apps, root, "", (), ()))
    order = {method: index for index, method in enumerate(METHODS)}
    found.sort(key=lambda e: (e.path, order.get(e.method, 99), e.file, e.line))
    # `add_get("", index)` beside `add_get("/", index)`: one operation in OpenAPI form, listed once
    unique = {(e.method, e.path, e.function.path): e for e in reversed(found)}
    return [
        _with_unread(e, reading.paths.unread)
        for e in found
        if unique[(e.method, e.path, e.function.path)] is e
    ]


def _with_unread(endpoint: Endpoint, unread: Mapping[str, Unread]) -> Endpoint:
    """`endpoint` with the parts of its path that cannot be read statically, each a located finding."""
    parts = tuple(part for text, part in unread.items() if text in endpoint.path)
    return dataclasses.replace(endpoint, unread=parts) if parts else endpoint


def _walk(
    apps: dict[str, App], app: App, prefix: str, outer: tuple[Code, ...], seen: tuple[int, ...]
) -> list[Endpoint]:
    """The operations of `app`, its tables and its sub-applications, under `prefix`, each running the
    guarding middlewares of the applications above it (`outer`) and of its own first (each app once on a
    chain, so that an application mounted in itself ends)."""
    if id(app) in seen:
        return []
    before = (*outer, *guards(app))
    routes = [*app.routes, *(route for key in app.tables if key in apps for route in apps[key].routes)]
    found = [
        Endpoint(method, openapi_path(prefix + path), function, (*before, *wrappers), file, line)
        for method, path, function, wrappers, file, line in routes
    ]
    for sub_prefix, key in app.subapps:
        if key in apps:
            inner = prefix + subapp_prefix(sub_prefix)
            found.extend(_walk(apps, apps[key], inner, before, (*seen, id(app))))
    return found


class _Attach:
    """What is attached to each application and route table, read after `Reading` found them."""

    def __init__(self, reading: Reading) -> None:
        self.reading = reading
        self.program = reading.program
        self.apps = reading.apps
        self._entered: set[str] = set()
        self._resources: dict[str, tuple[str, ast.expr]] = {}
        """Key of a name bound to `app.router.add_resource(path)` -> the application's key and the path."""
        self._unfound: list[tuple[str | None, Unread]] = []
        """(the scope read unbound, or None, and what) for each `add_routes`/`add_subapp` whose table or
        application cannot be found."""
        self._unbound: str | None = None
        """The scope being read without an application bound to its parameters (None: a setup function read
        for the application a call gives it)."""

    def read(self) -> dict[str, App]:
        for scope, module, statements in self.reading.scopes:
            if scope in self._entered:  # a setup function already read for the application it was given
                continue
            self._unbound = scope
            for statement in statements:
                self._statement(scope, module, statement)
        return self.apps

    def _statement(self, scope: str, module: griffe.Module, statement: ast.stmt) -> None:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            for decorator in statement.decorator_list if scope == module.path else ():
                self._decorator(module, statement, decorator)
        elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            self._call(scope, module, statement.value)
        elif isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Name):
            resource = self._resource(statement.value, scope, module)
            if resource is not None:  # `resource = app.router.add_resource(path)`
                self._resources[self.reading.local(scope, module, statement.targets[0].id)] = resource

    def _resource(self, node: ast.expr, scope: str, module: griffe.Module) -> tuple[str, ast.expr] | None:
        """The application and path of a resource: `app.router.add_resource(path)`, or a name bound to one."""
        if isinstance(node, ast.Name):
            return self._resources.get(self.reading.local(scope, module, node.id))
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args):
            return None
        key = self.reading.key(node.func.value, scope, module) if node.func.attr == "add_resource" else None
        return (key, node.args[0]) if key is not None else None

    def _decorator(self, module: griffe.Module, node: ast.stmt, decorator: ast.expr) -> None:
        """`@routes.get(path)` (and `post`, ..., `route(method, path)`) on a function, `@routes.view(path)`
        on a class."""
        if not (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute)):
            return
        key = self.reading.key(decorator.func.value, module.path, module)
        name, args = decorator.func.attr, decorator.args
        if key is None or not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            return
        handler, scope = ast.Name(id=node.name), module.path
        if name == "route" and len(args) >= 2:
            self._add(key, scope, module, self._methods(args[0], module), args[1], handler, decorator.lineno)
        elif name in METHODS and args:
            self._add(key, scope, module, [name], args[0], handler, decorator.lineno)
        elif name == "view" and args:
            self._add(key, scope, module, None, args[0], handler, decorator.lineno)

    def _call(self, scope: str, module: griffe.Module, call: ast.Call) -> None:
        func = call.func
        if not isinstance(func, ast.Attribute):
            self._setup_call(scope, module, call)
            return
        if isinstance(func.value, ast.Attribute) and func.value.attr == "middlewares":
            owner = self.reading.key(func.value.value, scope, module)  # `app.middlewares.append(auth)`
            if owner is not None:
                self.reading.add_middlewares(owner, module, call)
            return
        resource = self._resource(func.value, scope, module)
        if resource is not None and func.attr == "add_route" and len(call.args) >= 2:
            owner, path = resource  # `resource.add_route(method, handler)`
            self._add(
                owner, scope, module, self._methods(call.args[0], module), path, call.args[1], call.lineno
            )
            return
        key = self.reading.key(func.value, scope, module)
        name, args = func.attr, call.args
        if key is None:
            if name in ("add_routes", "add_subapp") and args:
                self._unfollowed(call, module, func.value, "the application it adds to")
            self._setup_call(scope, module, call)
            return
        if name == "add_routes" and args:
            self._add_routes(key, scope, module, args[0], call)
        elif name == "add_subapp" and len(args) == 2:
            self._add_subapp(key, scope, module, call)
        elif name.removeprefix("add_") in METHODS and len(args) >= 2:
            self._add(key, scope, module, [name.removeprefix("add_")], args[0], args[1], call.lineno)
        elif name == "add_view" and len(args) >= 2:
            self._add(key, scope, module, None, args[0], args[1], call.lineno)
        elif name == "add_route" and len(args) >= 3:
            self._add(key, scope, module, self._methods(args[0], module), args[1], args[2], call.lineno)

    def _add_subapp(self, key: str, scope: str, module: griffe.Module, call: ast.Call) -> None:
        """`app.add_subapp(prefix, sub)`: the sub-application's routes under the prefix."""
        child = self.reading.key(call.args[1], scope, module)
        prefix = self.reading.path(call.args[0], scope, module)
        if child is None:
            self._unfollowed(call, module, call.args[1], "the sub-application")
        elif prefix is not None:
            self.apps[child].mounted = True
            self.apps[key].subapps.append((prefix, child))

    def _unfollowed(self, call: ast.Call, module: griffe.Module, unknown: ast.expr, what: str) -> None:
        """An `add_routes` or `add_subapp` whose application, table or sub-application cannot be found."""
        assert isinstance(call.func, ast.Attribute)  # read from `x.add_routes(...)`/`x.add_subapp(...)`
        reason = (
            f"{what}, `{ast.unparse(unknown)}`, is not one docgen can find: a web.Application() or "
            "RouteTableDef() of the source, by a module-level name, one a function returns or one it is given"
        )
        shown = f"{call.func.attr}({', '.join(ast.unparse(a) for a in call.args)})"
        self._unfound.append((self._unbound, Unread(shown, reason, self.program.files(module), call.lineno)))

    @property
    def unfollowed(self) -> list[Unread]:
        """Each `add_routes`/`add_subapp` whose table or application cannot be found, but those read in a
        setup function before a call of the source gave it its application (it is read again, bound)."""
        return [unread for scope, unread in self._unfound if scope is None or scope not in self._entered]

    def _add_routes(
        self, key: str, scope: str, module: griffe.Module, routes: ast.expr, call: ast.Call
    ) -> None:
        """`add_routes(table)`, or a list of `web.get(path, handler)`, `web.route(method, path, handler)`,
        `web.view(path, View)`."""
        table = self.reading.key(routes, scope, module)
        if table is not None:
            self.apps[key].tables.append(table)
            return
        routes = self._local_list(routes, scope)  # `ROUTES = [web.get(...), ...]`, then `add_routes(ROUTES)`
        if not isinstance(routes, ast.List | ast.Tuple):
            self._unfollowed(call, module, routes, "the route table")
            return
        for item in routes.elts if isinstance(routes, ast.List | ast.Tuple) else ():
            path = self.program.qualify(item.func, module) if isinstance(item, ast.Call) else None
            if not isinstance(item, ast.Call) or path is None or not path.startswith("aiohttp."):
                continue
            name, args, line = path.rsplit(".", 1)[-1], item.args, item.lineno
            if name == "route" and len(args) >= 3:
                self._add(key, scope, module, self._methods(args[0], module), args[1], args[2], line)
            elif name in METHODS and len(args) >= 2:
                self._add(key, scope, module, [name], args[0], args[1], line)
            elif name == "view" and len(args) >= 2:
                self._add(key, scope, module, None, args[0], args[1], line)

    def _local_list(self, routes: ast.expr, scope: str) -> ast.expr:
        """The list a local name of `scope` is bound to once, else `routes` as it is."""
        if not isinstance(routes, ast.Name):
            return routes
        statements = next((found for name, _, found in self.reading.scopes if name == scope), [])
        bound = [
            s.value
            for s in statements
            if isinstance(s, ast.Assign)
            and [t.id for t in s.targets if isinstance(t, ast.Name)] == [routes.id]
        ]
        return bound[0] if len(bound) == 1 and isinstance(bound[0], ast.List | ast.Tuple) else routes

    def _setup_call(self, scope: str, module: griffe.Module, call: ast.Call) -> None:
        """`setup_routes(app)`: the called function's body is read with its parameter standing for `app`."""
        function = self.program.function(self.program.qualify(call.func, module)) or self._own_method(
            call, scope
        )
        if function is None or function.path in self._entered:
            return
        parameters = [parameter.name for parameter in function.parameters]
        if isinstance(call.func, ast.Attribute) and parameters[:1] == ["self"]:
            parameters = parameters[1:]  # `self.register_routes(self.app)`: a method of the server class
        bound = False
        for position, argument in enumerate(call.args[: len(parameters)]):
            key = self.reading.key(argument, scope, module)
            if key is not None:
                self.apps[f"{function.path}:{parameters[position]}"] = self.apps[key]
                bound = True
        if bound:
            self._entered.add(function.path)
            unbound, self._unbound = self._unbound, None
            for statement in flat(self.program.node(function).body):
                self._statement(function.path, function.module, statement)
            self._unbound = unbound

    def _own_method(self, call: ast.Call, scope: str) -> griffe.Function | None:
        """The method `self.name(...)` calls in a method of a class: its own or inherited (a mixin's)."""
        func = call.func
        owner = self.reading.owners.get(scope)
        if owner is None or not (
            isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self"
        ):
            return None
        for path in self.program.ancestry(owner):
            found = self.program.function(f"{path}.{func.attr}")
            if found is not None:
                return found
        return None

    def _add(
        self,
        key: str,
        scope: str,
        module: griffe.Module,
        methods: list[str] | None,
        path_node: ast.expr,
        handler: ast.expr,
        line: int,
    ) -> None:
        """Routes for `handler` on `path_node`: a function (or a method of an object made in the source)
        answers `methods`; a view class (`methods` None, or `*`) answers each HTTP method it defines."""
        path = self.reading.path(path_node, scope, module)
        target = self.program.qualify(handler, module)
        function = self.program.function(target) or self.reading.bound_method(handler, scope, module)
        if function is not None:
            wrappers = decorator_wrappers(self.program, function)
            file = self.program.file(function)
            for method in methods or ():
                self.apps[key].routes.append((method, path, function, wrappers, file, line))
            return
        for method, view_method in self.reading.view_methods(target) if target is not None else ():
            if methods is None or method in methods:
                wrappers = decorator_wrappers(self.program, view_method)
                file = self.program.file(view_method)
                self.apps[key].routes.append((method, path, view_method, wrappers, file, line))

    def _methods(self, method: ast.expr, module: griffe.Module) -> list[str] | None:
        """The methods `route(method, ...)` names, written as text or as a constant (`hdrs.METH_GET`): `*`
        (None) is every method a view defines; a method docgen does not document is none."""
        spelled = self.reading.text(method, module).lower()
        return None if spelled == "*" else [spelled] if spelled in METHODS else []
