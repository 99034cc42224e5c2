"""Flask's operations, read statically: applications and blueprints, the rules routed on them, and the
prefixes their registrations put in front.

An application is `Flask(...)`, at module level or in a factory function (`create_app()`, whose local
application stands for what a module-level `app = create_app()` names). A blueprint is `Blueprint(...)` with
its own `url_prefix`. Rules come from `@x.route(rule, methods=[...])` (GET when no methods are listed: the
HEAD and OPTIONS Flask adds by itself are not operations of the application's own), `@x.get(...)` and its
siblings, and `x.add_url_rule(rule, endpoint, view_func, methods=...)`, whose view is a function or a class's
`as_view(...)` (`views`). `x.register_blueprint(bp, url_prefix=...)` puts a blueprint under its parent, the
registration's prefix winning over the blueprint's own as Flask has it, blueprints inside blueprints
included; a registration on an application docgen cannot name (a parameter of a plugin hook) makes the
blueprint a root under that registration's prefix. Rules routed through a helper of the application's own
(`register_view(bp, routes=[...], view_func=...)`) are read by `rule_helpers`. The functions `before_request`
and `url_value_preprocessor` register run before every route of their application or blueprint: they are the
operations' dependencies.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
from collections.abc import Mapping

import griffe

from docgen.core.errors import ConfigError, suggest
from docgen.extract.conditions import unfolded
from docgen.extract.local_imports import load_local_imports, qualify_here
from docgen.extract.passed import passed
from docgen.extract.program import FunctionNode, Program
from docgen.extract.resolve import Resolver
from docgen.extract.route_paths import Unread
from docgen.extract.routes import METHODS, Endpoint, Handler
from docgen.frameworks.flask.blueprints import BLUEPRINTS, Above, Owner, Registration, Route, walk
from docgen.frameworks.flask.paths import path_text
from docgen.frameworks.flask.rule_helpers import Routed, routed_through
from docgen.frameworks.flask.views import View, listed_methods, route_methods, view_of

APPS = {"flask.Flask", "flask.app.Flask"}
APIS = {"flask_restful.Api", "flask_restx.Api"}
RESTFUL_KEY = "message"
"""The key Flask-RESTful's `Api` answers a resource's HTTP errors under (`{"message": description}`)."""
BEFORE = ("before_request", "url_value_preprocessor")
"""What registers a function run before each route of an application or blueprint."""


def application_endpoints(
    program: Program,
    resolver: Resolver,
    app: str | None,
    scoped: Mapping[str, Mapping[str, Handler]],
    unfollowed: list[Unread],
) -> list[Endpoint]:
    """Every operation of the application `app` (a module-level name or a factory function; None: every
    application not registered in another, or with none, every blueprint nothing registers), in path then
    method order; each registration docgen cannot follow is added to `unfollowed`."""
    reader = _Reader(program, resolver)
    owners = reader.read()
    unfollowed.extend(reader.unfollowed)
    for key, handlers in scoped.items():  # a blueprint's own error handlers
        if key in owners:
            owners[key].handlers = tuple(handlers.items())
    free = [owner for owner in owners.values() if not owner.registered]
    roots = [owner for owner in free if owner.is_app] or free
    if app is not None:
        named = {key: owner for key, owner in owners.items() if owner.is_app and ":" not in key}
        named.update({factory: owners[key] for factory, key in reader.returns.items() if owners[key].is_app})
        if app not in named:
            hint = suggest(app, sorted(named)) or f"applications found: {', '.join(sorted(named)) or 'none'}"
            raise ConfigError(f"no Flask application '{app}' in the source", file="mkdocs.yml", hint=hint)
        roots = [named[app]]
    found: list[Endpoint] = []
    unique = {id(root): root for root in roots}.values()  # an application returned by a factory has two names
    for root in sorted(unique, key=lambda r: r.key):
        prefix = root.elsewhere if root.elsewhere is not None else root.prefix  # a blueprint's, as Flask
        found.extend(walk(owners, root, prefix, Above(), ()))
    order = {method: index for index, method in enumerate(METHODS)}
    found = [_with_unread(endpoint, reader.unread) for endpoint in found]
    return sorted(found, key=lambda e: (e.path, order.get(e.method, 99), e.file, e.line))


def _with_unread(endpoint: Endpoint, unread: Mapping[str, Unread]) -> Endpoint:
    """`endpoint` with the parts of its path that cannot be read statically (`{url_prefix}`, a parameter
    of the factory that registers its blueprint), each a located finding; the fragment leaves it out."""
    parts = tuple(part for text, part in unread.items() if text in endpoint.path)
    return dataclasses.replace(endpoint, unread=parts) if parts else endpoint


class _Reader:
    """Reads every module of a program for Flask applications and blueprints and what is attached to them."""

    def __init__(self, program: Program, resolver: Resolver) -> None:
        self.program = program
        self.resolver = resolver
        self.owners: dict[str, Owner] = {}
        self.returns: dict[str, str] = {}
        """Factory function path -> the key of the application or blueprint it returns."""
        self.unfollowed: list[Unread] = []
        """Each blueprint registered by an expression docgen cannot follow."""
        self.apis: dict[str, tuple[ast.expr | None, str]] = {}
        """Flask-RESTful (or RESTX) `Api` -> the application or blueprint it is made on, and its prefix."""
        self._outer: dict[str, FunctionNode] = {}
        self._modules: dict[str, griffe.Module] = {}
        """Factory function path -> its node, whose own functions are routed as closures."""
        self.unread: dict[str, Unread] = {}
        """The parts of rules and prefixes that cannot be read statically, by their text in braces."""
        self.condition: str | None = None
        """The condition of the `if`s the statement being read is written under, for its routes and
        registrations."""

    def read(self) -> dict[str, Owner]:
        scopes = list(self._scopes())
        if load_local_imports(
            self.program, [(node, self._modules[path]) for path, node in self._outer.items()]
        ):
            scopes = list(self._scopes())  # blueprints a factory imports in its body are read too
        for scope, module, statements in scopes:
            self._creations(scope, module, statements)
        for scope, module, statements in scopes:
            self._returned(scope, module, statements)
        for scope, module, statements in scopes:
            self._aliases(scope, module, statements)
        for _ in scopes:  # a helper may pass the blueprint it was given on to another: until nothing is new
            if not any([self._bound(scope, module) for scope, module, _ in scopes]):
                break
        for scope, module, statements in scopes:
            outer = self._outer.get(scope)
            for statement, condition in unfolded(statements, None):
                self.condition = condition
                self._attachments(scope, module, statement, outer)
        return self.owners

    def _scopes(self) -> list[tuple[str, griffe.Module, list[ast.stmt]]]:
        """(scope, module, statements): each module's body, and the body of each of its functions."""
        scopes = []
        for module, tree in self.program.modules():
            scopes.append((module.path, module, tree.body))
            for statement in tree.body:
                if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                    scopes.append((f"{module.path}.{statement.name}", module, statement.body))
                    self._outer[f"{module.path}.{statement.name}"] = statement
                    self._modules[f"{module.path}.{statement.name}"] = module
        return scopes

    def _key(self, node: ast.expr, scope: str, module: griffe.Module) -> str | None:
        """The owner an expression names: a local of the function `scope`, else a module-level name (one
        the function imports in its body too), or the call of a factory that returns one
        (`register_blueprint(backups.construct_blueprint(datastore))`)."""
        if isinstance(node, ast.Name) and f"{scope}:{node.id}" in self.owners:
            return f"{scope}:{node.id}"
        if isinstance(node, ast.Call):
            made = self.returns.get(self._qualified(node.func, scope, module) or "")
            return self.owners[made].key if made is not None else None
        path = self._qualified(node, scope, module)
        return self.owners[path].key if path in self.owners else None

    def _bound(self, scope: str, module: griffe.Module) -> bool:
        """Binds each parameter of a function of the source that a call in the function `scope` passes an
        application or blueprint to (`construct_main_feed_routes(rss_blueprint, datastore)`); whether one is
        new."""
        outer = self._outer.get(scope)
        if outer is None:
            return False
        new = False
        callee = functools.partial(self._callee, scope=scope, module=module)
        holder = functools.partial(self._key, scope=scope, module=module)
        for parameter, key in passed(self.program, outer, callee, holder):
            if parameter not in self.owners:
                self.owners[parameter] = self.owners[key]
                new = True
        return new

    def _callee(self, call: ast.Call, scope: str, module: griffe.Module) -> str | None:
        return self._qualified(call.func, scope, module)

    def _qualified(self, node: ast.expr, scope: str, module: griffe.Module) -> str | None:
        outer = self._outer.get(scope)
        if outer is None:
            return self.program.qualify(node, module)
        return qualify_here(self.program, node, module, outer, anywhere=False)

    def _creations(self, scope: str, module: griffe.Module, statements: list[ast.stmt]) -> None:
        for statement in statements:
            if not (isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call)):
                continue
            target, call = statement.targets[0], statement.value
            kind = self.program.qualify(call.func, module)
            if not isinstance(target, ast.Name) or kind not in APPS | BLUEPRINTS | APIS:
                continue
            key = f"{module.path}.{target.id}" if scope == module.path else f"{scope}:{target.id}"
            if kind in APIS:  # `Api(app_or_blueprint, prefix=...)`: its resources are routed on that
                prefix = self._path(_keyword(call, "prefix"), module) or ""
                self.apis[key] = (call.args[0] if call.args else _keyword(call, "app"), prefix)
                continue
            owner = Owner(key, is_app=kind in APPS)
            if kind in BLUEPRINTS:
                given = _keyword(call, "url_prefix") or (call.args[5] if len(call.args) > 5 else None)
                owner.prefix = self._path(given, module)
            self.owners[key] = owner

    def _returned(self, scope: str, module: griffe.Module, statements: list[ast.stmt]) -> None:
        for statement in statements:
            if isinstance(statement, ast.Return) and statement.value is not None and scope != module.path:
                key = self._key(statement.value, scope, module)
                if key is not None:
                    self.returns[scope] = key

    def _aliases(self, scope: str, module: griffe.Module, statements: list[ast.stmt]) -> None:
        """`app = create_app()`, or `views = construct_views_blueprint(...)` in a factory: the name stands
        for what the function called returns."""
        for statement in statements:
            if not isinstance(statement, ast.Assign) or not isinstance(statement.value, ast.Call):
                continue
            target = statement.targets[0]
            called = self._qualified(statement.value.func, scope, module)
            if isinstance(target, ast.Name) and called in self.returns:
                name = f"{module.path}.{target.id}" if scope == module.path else f"{scope}:{target.id}"
                self.owners[name] = self.owners[self.returns[called]]

    def _attachments(
        self, scope: str, module: griffe.Module, statement: ast.stmt, outer: FunctionNode | None
    ) -> None:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            for decorator in statement.decorator_list:
                self._decorator(scope, module, statement, decorator, outer)
        elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            self._call(scope, module, statement.value)

    def _decorator(
        self,
        scope: str,
        module: griffe.Module,
        node: FunctionNode,
        decorator: ast.expr,
        outer: FunctionNode | None,
    ) -> None:
        """`@x.route(...)`, `@x.get(...)` and the like, and `@x.before_request` (see BEFORE)."""
        called = decorator.func if isinstance(decorator, ast.Call) else decorator
        if not isinstance(called, ast.Attribute):
            return
        key = self._key(called.value, scope, module)
        if key is None:
            return
        function = (
            self.program.function(f"{module.path}.{node.name}")
            if outer is None
            else self.program.closure(module, outer, node)  # a route a factory declares inside itself
        )
        if function is None:
            return
        if called.attr in BEFORE and not isinstance(decorator, ast.Call):
            self.owners[key].before.append(self.program.code(function))
            return
        methods = route_methods(decorator, module, self.resolver) if isinstance(decorator, ast.Call) else []
        if methods and isinstance(decorator, ast.Call):
            rule = decorator.args[0] if decorator.args else _keyword(decorator, "rule")
            view = View.of_function(function)
            file = self.program.file(function)
            route = Route(
                methods, self._rule(rule, module), view, file, decorator.lineno, None, self.condition
            )
            self.owners[key].routes.append(route)

    def _call(self, scope: str, module: griffe.Module, call: ast.Call) -> None:
        for routed in routed_through(self.program, call, module):  # `register_view(bp, routes=[...], ...)`
            self._routed(scope, module, call, routed)
        if not isinstance(call.func, ast.Attribute):
            return
        if call.func.attr == "add_resource":
            self._resource(scope, module, call)
            return
        key = self._key(call.func.value, scope, module)
        if key is None:
            self._registered_elsewhere(scope, module, call)
            return
        file = self.program.files(module)
        if call.func.attr == "register_blueprint" and call.args:
            child = self._key(call.args[0], scope, module)
            if child is None:
                self._unfollowed(call.args[0], file, call.lineno)
            else:
                self.owners[child].registered = True
                prefix = self._path(_keyword(call, "url_prefix"), module)
                self.owners[key].registrations.append(
                    Registration(child, prefix, file, call.lineno, self.condition)
                )
        elif call.func.attr == "add_url_rule" and call.args:
            given = _keyword(call, "view_func") or (call.args[2] if len(call.args) > 2 else None)
            view = view_of(self.program, given, module) if given is not None else None
            if view is not None:
                listed = _keyword(call, "methods")
                methods = (
                    listed_methods(listed, module, self.resolver) if listed is not None else view.methods
                )
                route = Route(
                    methods, self._rule(call.args[0], module), view, file, call.lineno, None, self.condition
                )
                self.owners[key].routes.append(route)
        elif call.func.attr in BEFORE and call.args:
            function = self.program.function(self.program.qualify(call.args[0], module))
            if function is not None:
                self.owners[key].before.append(self.program.code(function))

    def _registered_elsewhere(self, scope: str, module: griffe.Module, call: ast.Call) -> None:
        """`app.register_blueprint(bp, url_prefix=...)` on an application docgen cannot name (a parameter of
        a plugin hook, say): the blueprint is an application's all the same, under that prefix."""
        if not (
            isinstance(call.func, ast.Attribute) and call.func.attr == "register_blueprint" and call.args
        ):
            return
        child = self._key(call.args[0], scope, module)
        if child is None:
            self._unfollowed(call.args[0], self.program.files(module), call.lineno)
        elif not self.owners[child].registered:
            self.owners[child].elsewhere = self._path(_keyword(call, "url_prefix"), module)
            self.owners[child].is_app = True  # a root of its own, under its registration's prefix

    def _unfollowed(self, given: ast.expr, file: str, line: int) -> None:
        """A blueprint registered by an expression docgen cannot follow (`self.plugin.blueprint`)."""
        reason = (
            f"the blueprint, `{ast.unparse(given)}`, is not one docgen can find: a module-level "
            "Blueprint(...), or one a function of the source returns"
        )
        self.unfollowed.append(Unread(f"register_blueprint({ast.unparse(given)})", reason, file, line))

    def _resource(self, scope: str, module: griffe.Module, call: ast.Call) -> None:
        """`api.add_resource(Resource, "/url", ...)`: a class-based view routed on the Api's application or
        blueprint under the Api's prefix, its errors answered as `{"message": ...}`."""
        assert isinstance(call.func, ast.Attribute)
        name = call.func.value
        api = f"{scope}:{name.id}" if isinstance(name, ast.Name) else None
        api = api if api in self.apis else self.program.qualify(name, module)
        made_on, prefix = self.apis.get(api or "", (None, ""))
        key = self._key(made_on, scope, module) if made_on is not None else None
        view = view_of(self.program, _as_view(call.args[0]), module) if call.args and key else None
        if key is None or view is None:
            return
        for url in call.args[1:]:
            rule = prefix + self._rule(url, module)
            file = self.program.files(module)
            route = Route(view.methods, rule, view, file, call.lineno, RESTFUL_KEY, self.condition)
            self.owners[key].routes.append(route)

    def _routed(self, scope: str, module: griffe.Module, call: ast.Call, routed: Routed) -> None:
        key = self._key(routed.owner, scope, module)
        view = view_of(self.program, routed.view, module) if routed.view is not None else None
        if key is None or view is None:
            return
        methods = (
            listed_methods(routed.methods, module, self.resolver)
            if routed.methods is not None
            else view.methods
        )
        for rule in routed.rules:
            file = self.program.files(module)
            route = Route(methods, self._rule(rule, module), view, file, call.lineno, None, self.condition)
            self.owners[key].routes.append(route)

    def _rule(self, node: ast.expr | None, module: griffe.Module) -> str:
        return self._path(node, module) or ""

    def _path(self, node: ast.expr | None, module: griffe.Module) -> str | None:
        return path_text(node, module, self.resolver, self.unread, self.program.files(module))


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((keyword.value for keyword in call.keywords if keyword.arg == name), None)


def _as_view(node: ast.expr) -> ast.expr:
    """A Resource class as `view_of` reads a class-based view: `Resource.as_view(...)`."""
    return ast.Call(func=ast.Attribute(value=node, attr="as_view", ctx=ast.Load()), args=[], keywords=[])
