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
from collections.abc import Mapping

import griffe

from docgen.core.errors import ConfigError, suggest
from docgen.extract.calls import FunctionNode
from docgen.extract.conditions import unfolded
from docgen.extract.program import Program
from docgen.extract.resolve import Resolver
from docgen.extract.route_paths import Unread
from docgen.extract.routes import METHODS, Endpoint, Handler
from docgen.frameworks.flask.blueprints import Above, Owner, Registration, Route, walk
from docgen.frameworks.flask.owners import Owners
from docgen.frameworks.flask.rule_helpers import Routed, routed_through
from docgen.frameworks.flask.views import View, listed_methods, route_methods, view_of

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


class _Reader(Owners):
    """Reads what is attached to a program's Flask applications and blueprints: rules, registrations, the
    functions run before them."""

    def read(self) -> dict[str, Owner]:
        for scope, module, statements in self.named():
            outer = self._outer.get(scope)
            for statement, condition in unfolded(statements, None):
                self.condition = condition
                self._attachments(scope, module, statement, outer)
        return self.owners

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


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((keyword.value for keyword in call.keywords if keyword.arg == name), None)


def _as_view(node: ast.expr) -> ast.expr:
    """A Resource class as `view_of` reads a class-based view: `Resource.as_view(...)`."""
    return ast.Call(func=ast.Attribute(value=node, attr="as_view", ctx=ast.Load()), args=[], keywords=[])
