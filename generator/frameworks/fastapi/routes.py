"""FastAPI's operations: applications, routers, their prefixes and dependencies.

Read from the syntax alone, in two passes over every module: first what each name stands for (`app =
FastAPI(...)`, `router = APIRouter(prefix=..., dependencies=[...])`, at module level or inside a function
that returns it, such as `get_application()`), then what is attached to each (`@router.get(...)`,
`add_api_route`, `include_router(..., prefix=...)`, exception handlers). The operations are then the
routes reachable from each application through the routers it includes (an application mounted in another
publishes its own document and is documented only when `app:` names it); a package without an
application (a library of routers) is read from its routers that nothing includes.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

import griffe

from generator.core.errors import ConfigError, SourceError, suggest
from generator.core.limits import MAX_ROUTER_DEPTH
from generator.extract.calls import unparse
from generator.extract.http_values import detail_text
from generator.extract.program import Code, FunctionNode, Program
from generator.extract.resolve import Resolver, Unresolvable
from generator.extract.routes import METHODS, Endpoint, join_paths, schema_path
from generator.frameworks.fastapi.dependencies import depends_target

APPS = {"fastapi.FastAPI", "fastapi.applications.FastAPI"}
ROUTERS = {"fastapi.APIRouter", "fastapi.routing.APIRouter"}


_Route = tuple[str, str, griffe.Function, list[Code], str, int]
"""(method, path, function, the route's own dependencies, file, line)."""


@dataclass
class _Router:
    """An application or router: its own prefix and dependencies, its routes and what it includes."""

    key: str
    is_app: bool
    prefix: str = ""
    dependencies: list[Code] = field(default_factory=list)
    routes: list[_Route] = field(default_factory=list)
    includes: list[_Include] = field(default_factory=list)
    included: bool = False


@dataclass
class _Include:
    """`parent.include_router(child, prefix=..., dependencies=[...])`, and where it is written."""

    child: str
    prefix: str
    dependencies: list[Code]
    file: str
    line: int


def application_endpoints(program: Program, resolver: Resolver, app: str | None) -> list[Endpoint]:
    """Every operation of the application `app` (None: of every application not mounted in another, or,
    with no application, of every router nothing includes), in path then method order."""
    routers = _Reader(program, resolver).read()
    free = [router for router in routers.values() if not router.included]
    roots = [router for router in free if router.is_app] or free
    if app is not None:
        apps = sorted(key for key, router in routers.items() if router.is_app and ":" not in key)
        if app not in apps:
            hint = suggest(app, apps) or f"applications found: {', '.join(apps) or 'none'}"
            raise ConfigError(f"no FastAPI application '{app}' in the source", file="mkdocs.yml", hint=hint)
        roots = [routers[app]]
    found: list[Endpoint] = []
    unique = {id(root): root for root in roots}.values()  # a router returned by a factory has two names
    for root in sorted(unique, key=lambda r: r.key):
        found.extend(_walk(routers, root, "", [], ()))
    order = {method: index for index, method in enumerate(METHODS)}
    return sorted(found, key=lambda e: (e.path, order.get(e.method, 99), e.file, e.line))


def _walk(
    routers: dict[str, _Router],
    router: _Router,
    prefix: str,
    dependencies: list[Code],
    chain: tuple[_Include, ...],
) -> list[Endpoint]:
    """The operations of `router` and of the routers it includes, `chain` being the includes that led here."""
    prefix = join_paths(prefix, router.prefix) if router.prefix else prefix
    dependencies = [*dependencies, *router.dependencies]
    found = [
        Endpoint(method, schema_path(join_paths(prefix, path)), function, (*dependencies, *own), file, line)
        for method, path, function, own, file, line in router.routes
    ]
    for include in router.includes:
        if include.child in routers:
            _check_nesting(routers, (*chain, include))
            child_prefix, extra = join_paths(prefix, include.prefix), [*dependencies, *include.dependencies]
            found.extend(_walk(routers, routers[include.child], child_prefix, extra, (*chain, include)))
    return found


def _check_nesting(routers: dict[str, _Router], chain: tuple[_Include, ...]) -> None:
    """Refuse a router that includes itself, or routers nested deeper than docgen follows, at the include."""
    last = chain[-1]
    if any(routers[include.child] is routers[last.child] for include in chain[:-1]):
        names = " -> ".join(include.child for include in chain)
        raise SourceError(
            f"the router '{last.child}' includes itself ({names})",
            file=last.file,
            line=last.line,
            hint="remove one include_router call of the cycle, so that each router's routes are known",
        )
    if len(chain) > MAX_ROUTER_DEPTH:
        raise SourceError(
            f"routers are nested more than {MAX_ROUTER_DEPTH} deep: this include_router of '{last.child}' "
            f"is call {len(chain)} of a chain that starts at {chain[0].file}:{chain[0].line}; docgen follows "
            f"at most {MAX_ROUTER_DEPTH}",
            file=last.file,
            line=last.line,
            hint="include the inner routers from a router nearer the application, so that no chain of "
            f"include_router calls is longer than {MAX_ROUTER_DEPTH}",
        )


class _Reader:
    """Reads every module of a program for FastAPI applications and routers and what is attached to them."""

    def __init__(self, program: Program, resolver: Resolver) -> None:
        self.program = program
        self.resolver = resolver
        self.routers: dict[str, _Router] = {}
        self.returns: dict[str, str] = {}
        """Function path -> the router key it returns."""

    def read(self) -> dict[str, _Router]:
        scopes = list(self._scopes())
        for scope, module, statements in scopes:
            self._creations(scope, module, statements)
        for scope, module, statements in scopes:
            self._returned(scope, module, statements)
        for _, module, statements in scopes:
            self._aliases(module, statements)
        for scope, module, statements in scopes:
            for statement in statements:
                self._attachments(scope, module, statement)
        return self.routers

    def _scopes(self) -> list[tuple[str, griffe.Module, list[ast.stmt]]]:
        """(scope, module, statements): each module's body, and the body of each of its functions."""
        scopes = []
        for module, tree in self.program.modules():
            scopes.append((module.path, module, tree.body))
            for statement in tree.body:
                if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                    scopes.append((f"{module.path}.{statement.name}", module, statement.body))
        return scopes

    def _key(self, node: ast.expr, scope: str, module: griffe.Module) -> str | None:
        """The router key an expression names: a local of the function `scope`, else a module name."""
        if isinstance(node, ast.Name) and f"{scope}:{node.id}" in self.routers:
            return f"{scope}:{node.id}"
        path = self.program.qualify(node, module)
        return self.routers[path].key if path in self.routers else None

    def _creations(self, scope: str, module: griffe.Module, statements: list[ast.stmt]) -> None:
        for statement in statements:
            if not (isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call)):
                continue
            target = statement.targets[0]
            kind = self.program.qualify(statement.value.func, module)
            if not isinstance(target, ast.Name) or kind not in APPS | ROUTERS:
                continue
            key = f"{module.path}.{target.id}" if scope == module.path else f"{scope}:{target.id}"
            router = _Router(key, is_app=kind in APPS)
            router.prefix = self._text(_keyword(statement.value, "prefix"), module) or ""
            router.dependencies = self._dependencies(_keyword(statement.value, "dependencies"), module)
            self.routers[key] = router

    def _returned(self, scope: str, module: griffe.Module, statements: list[ast.stmt]) -> None:
        for statement in statements:
            if isinstance(statement, ast.Return) and statement.value is not None and scope != module.path:
                key = self._key(statement.value, scope, module)
                if key is not None:
                    self.returns[scope] = key

    def _aliases(self, module: griffe.Module, statements: list[ast.stmt]) -> None:
        """`app = get_application()`: the module name stands for the application the function returns."""
        for statement in statements:
            if not isinstance(statement, ast.Assign) or not isinstance(statement.value, ast.Call):
                continue
            target = statement.targets[0]
            called = self.program.qualify(statement.value.func, module)
            if isinstance(target, ast.Name) and called in self.returns:
                self.routers[f"{module.path}.{target.id}"] = self.routers[self.returns[called]]

    def _attachments(self, scope: str, module: griffe.Module, statement: ast.stmt) -> None:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            for decorator in statement.decorator_list:
                self._decorator(scope, module, statement, decorator)
        elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            self._call(scope, module, statement.value)

    def _decorator(self, scope: str, module: griffe.Module, node: FunctionNode, decorator: ast.expr) -> None:
        if not (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute)):
            return
        key = self._key(decorator.func.value, scope, module)
        function = self.program.function(f"{module.path}.{node.name}") if scope == module.path else None
        methods = self._methods(decorator)
        if key is None or function is None or not methods:
            return
        path = self._text(decorator.args[0] if decorator.args else _keyword(decorator, "path"), module)
        own = self._dependencies(_keyword(decorator, "dependencies"), module)
        if _left_out_of_schema(decorator):
            return
        file = self.program.file(function)
        for method in methods:
            self.routers[key].routes.append((method, path or "", function, own, file, decorator.lineno))

    def _methods(self, decorator: ast.Call) -> list[str]:
        name = decorator.func.attr if isinstance(decorator.func, ast.Attribute) else ""
        if name in METHODS:
            return [name]
        if name in ("api_route", "add_api_route"):
            listed = _keyword(decorator, "methods")
            if isinstance(listed, ast.List | ast.Tuple):
                spelled = [str(m.value).lower() for m in listed.elts if isinstance(m, ast.Constant)]
                return [method for method in spelled if method in METHODS]
            return ["get"]
        return []

    def _call(self, scope: str, module: griffe.Module, call: ast.Call) -> None:
        if not isinstance(call.func, ast.Attribute):
            return
        key = self._key(call.func.value, scope, module)
        if key is None:
            return
        if call.func.attr == "include_router" and call.args:
            prefix = self._text(_keyword(call, "prefix"), module) or ""
            extra = self._dependencies(_keyword(call, "dependencies"), module)
            child = self._key(call.args[0], scope, module)
            if child is not None:
                self.routers[child].included = True
                include = _Include(child, prefix, extra, self.program.files(module), call.lineno)
                self.routers[key].includes.append(include)
        elif call.func.attr == "mount" and len(call.args) >= 2:
            # A mounted application publishes its own OpenAPI document: it is not followed, and it is a
            # root only when `app:` names it (a catalog of its own).
            mounted = self._key(call.args[1], scope, module)
            if mounted is not None:
                self.routers[mounted].included = True
        elif call.func.attr == "add_api_route" and len(call.args) >= 2:
            function = self.program.function(self.program.qualify(call.args[1], module))
            path = self._text(call.args[0], module)
            if function is not None:
                own = self._dependencies(_keyword(call, "dependencies"), module)
                for method in self._methods(call):
                    entry = (method, path or "", function, own, self.program.file(function), call.lineno)
                    self.routers[key].routes.append(entry)

    def _text(self, node: ast.expr | None, module: griffe.Module) -> str | None:
        """A path or prefix as text: its value, an f-string as a template, else the expression in braces."""
        if node is None:
            return None
        if isinstance(node, ast.JoinedStr):
            return detail_text(node, module, self.resolver, "")
        try:
            value = self.resolver.evaluate(node, module).value
        except (Unresolvable, SourceError):  # SourceError: it leads to a module that cannot be read
            return "{" + unparse(node) + "}"
        return value if isinstance(value, str) else str(value)

    def _dependencies(self, node: ast.expr | None, module: griffe.Module) -> list[Code]:
        if not isinstance(node, ast.List | ast.Tuple):
            return []
        found = []
        for item in node.elts:
            dependency = depends_target(self.program, item, module) if isinstance(item, ast.Call) else None
            if dependency is not None:
                found.append(dependency)
        return found


def _left_out_of_schema(call: ast.Call) -> bool:
    """`include_in_schema=False`: the application leaves the route out of its OpenAPI document."""
    value = _keyword(call, "include_in_schema")
    return isinstance(value, ast.Constant) and value.value is False


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((keyword.value for keyword in call.keywords if keyword.arg == name), None)
