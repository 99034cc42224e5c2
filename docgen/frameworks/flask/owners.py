"""Which applications and blueprints a Flask program makes, and what stands for each: a module-level name, a
local of a factory, a factory's call (`register_blueprint(backups.construct_blueprint(datastore))`), a name a
function imports in its body, or a helper's parameter the blueprint is passed to
(`construct_feed_routes(rss_blueprint, datastore)`)."""

from __future__ import annotations

import ast
import functools

import griffe

from docgen.extract.calls import FunctionNode
from docgen.extract.local_imports import load_local_imports, qualify_here
from docgen.extract.passed import passed
from docgen.extract.program import Program
from docgen.extract.resolve import Resolver
from docgen.extract.route_paths import Unread
from docgen.frameworks.flask.blueprints import BLUEPRINTS, Owner
from docgen.frameworks.flask.paths import path_text

APPS = {"flask.Flask", "flask.app.Flask"}
APIS = {"flask_restful.Api", "flask_restx.Api"}


class Owners:
    """The applications and blueprints of a program, and every name, parameter and factory call that stands
    for one; `docgen.frameworks.flask.routes` reads what is attached to them."""

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
        """Function path -> its node, whose own functions are routed as closures."""
        self._modules: dict[str, griffe.Module] = {}
        """Function path -> its module."""
        self.unread: dict[str, Unread] = {}
        """The parts of rules and prefixes that cannot be read statically, by their text in braces."""
        self.condition: str | None = None
        """The condition of the `if`s the statement being read is written under, for its routes and
        registrations."""

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

    def named(self) -> list[tuple[str, griffe.Module, list[ast.stmt]]]:
        """Each scope, once every application and blueprint, and what stands for one, is known."""
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
        return scopes

    def _rule(self, node: ast.expr | None, module: griffe.Module) -> str:
        return self._path(node, module) or ""

    def _path(self, node: ast.expr | None, module: griffe.Module) -> str | None:
        return path_text(node, module, self.resolver, self.unread, self.program.files(module))


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((keyword.value for keyword in call.keywords if keyword.arg == name), None)
