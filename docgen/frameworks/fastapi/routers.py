"""FastAPI's applications and routers as the source declares them, read from the syntax alone in two passes
over every module: first what each name stands for (`app = FastAPI(...)`, `router = APIRouter(prefix=...,
dependencies=[...])`, at module level or inside a function that returns it, such as `get_application()`),
then what is attached to each (`@router.get(...)`, `add_api_route`, `include_router(..., prefix=...)`,
`mount`). A statement under an `if` of the module or function (`if settings.ENVIRONMENT == "local":
api_router.include_router(private.router)`) is read with its condition, which its routes then carry. Paths
and prefixes are read by `docgen.extract.route_paths`, which keeps what they assume and cannot read.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass, field

import griffe

from docgen.extract.calls import FunctionNode
from docgen.extract.local_imports import load_local_imports, qualify_here
from docgen.extract.program import Code, Program
from docgen.extract.resolve import Resolver
from docgen.extract.route_paths import PathText, Unread, path_text
from docgen.extract.routes import METHODS
from docgen.frameworks.fastapi.dependencies import depends_target
from docgen.frameworks.fastapi.scopes import Scope, bindings, called, scopes

APPS = {"fastapi.FastAPI", "fastapi.applications.FastAPI"}
ROUTERS = {"fastapi.APIRouter", "fastapi.routing.APIRouter"}


Route = tuple[str, PathText, griffe.Function, list[Code], str, int, str | None]
"""(method, path, function, the route's own dependencies, file, line, condition)."""


@dataclass
class Router:
    """An application or router: its own prefix and dependencies, its routes and what it includes."""

    key: str
    is_app: bool
    prefix: PathText = field(default_factory=lambda: PathText(""))
    dependencies: list[Code] = field(default_factory=list)
    routes: list[Route] = field(default_factory=list)
    includes: list[Include] = field(default_factory=list)
    included: bool = False


@dataclass
class Include:
    """`parent.include_router(child, prefix=..., dependencies=[...])`, and where it is written."""

    child: str
    prefix: PathText
    dependencies: list[Code]
    file: str
    line: int
    condition: str | None


class RouterReader:
    """Reads every module of a program for FastAPI applications and routers and what is attached to them."""

    def __init__(self, program: Program, resolver: Resolver) -> None:
        self.program = program
        self.resolver = resolver
        self.routers: dict[str, Router] = {}
        self.returns: dict[str, str] = {}
        """Function path -> the router key it returns."""
        self.unfollowed: list[Unread] = []
        """Each `include_router` call whose router, or whose application, cannot be told statically."""

    def read(self) -> dict[str, Router]:
        found = scopes(self.program)
        functions = [(scope.node, scope.module) for scope in found if scope.node is not None]
        if load_local_imports(self.program, functions):  # what functions import in their bodies is read too
            found = scopes(self.program)
        for scope in found:
            self._creations(scope)
        for _ in found:  # a factory may return another's router: until nothing more is learnt
            if not any([self._returned(scope) for scope in found]):
                break
        for scope in found:
            self._aliases(scope)
        for _ in found:  # a helper may pass the router it was given on to another: until nothing is new
            if not any([self._bound(scope) for scope in found]):
                break
        for scope in found:
            for statement, condition in scope.statements:
                self._attachments(scope, statement, condition)
        return self.routers

    def _kind(self, path: str | None) -> str | None:
        """`app` or `router` for a class that makes one: FastAPI's own, or a class of the source that
        extends it (`class AirflowRouter(APIRouter)`); None for anything else."""
        if path is None:
            return None
        ancestry = self.program.ancestry(path) if self.program.klass(path) is not None else [path]
        if APPS.intersection(ancestry):
            return "app"
        return "router" if ROUTERS.intersection(ancestry) else None

    def _key(self, node: ast.expr, scope: Scope) -> str | None:
        """The router key an expression names: a local or parameter of the function `scope`, a module
        name, or a call of a function of the source that returns a router (`include_router(make())`)."""
        if isinstance(node, ast.Name) and f"{scope.path}:{node.id}" in self.routers:
            return f"{scope.path}:{node.id}"
        if isinstance(node, ast.Call):
            made = self.returns.get(called(self.program, node, scope) or "")
            return self.routers[made].key if made is not None else None
        path = self.program.qualify(node, scope.module)
        if path is None and scope.node is not None:  # a name the function imports in its own body
            path = qualify_here(self.program, node, scope.module, scope.node, anywhere=False)
        return self.routers[path].key if path in self.routers else None

    def _creations(self, scope: Scope) -> None:
        module = scope.module
        for statement, _ in scope.statements:
            if not (isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call)):
                continue
            target = statement.targets[0]
            kind = self._kind(self.program.qualify(statement.value.func, module))
            if not isinstance(target, ast.Name) or kind is None:
                continue
            key = f"{module.path}.{target.id}" if scope.node is None else f"{scope.path}:{target.id}"
            router = Router(key, is_app=kind == "app")
            router.prefix = self._text(_keyword(statement.value, "prefix"), module)
            router.dependencies = self._dependencies(_keyword(statement.value, "dependencies"), module)
            self.routers[key] = router
            if router.is_app and (lifespan := _keyword(statement.value, "lifespan")) is not None:
                self._lifespan(lifespan, module, key)

    def _returned(self, scope: Scope) -> bool:
        """Records the router the function `scope` returns; whether that is new."""
        for statement, _ in scope.statements:
            if isinstance(statement, ast.Return) and statement.value is not None and scope.node is not None:
                key = self._key(statement.value, scope)
                if key is not None and self.returns.get(scope.path) != key:
                    self.returns[scope.path] = key
                    return True
        return False

    def _bound(self, scope: Scope) -> bool:
        """Binds each parameter of a function of the source that a call in `scope` passes a router to;
        whether one is new."""
        new = False
        for parameter, key in bindings(self.program, scope, functools.partial(self._key, scope=scope)):
            if parameter not in self.routers:
                self.routers[parameter] = self.routers[key]
                new = True
        return new

    def _lifespan(self, given: ast.expr, module: griffe.Module, key: str) -> None:
        """`FastAPI(lifespan=lifespan)`: FastAPI calls the function with the application, so what it (and
        what it passes the application to) includes is included into that application."""
        function = self.program.function(self.program.qualify(given, module))
        arguments = self.program.node(function).args.args if function is not None else []
        if function is not None and arguments:
            self.routers.setdefault(f"{function.path}:{arguments[0].arg}", self.routers[key])

    def _aliases(self, scope: Scope) -> None:
        """`app = get_application()`, `router = make_router(...)` in a module or a function: the name
        stands for the router the function returns."""
        for statement, _ in scope.statements:
            if not isinstance(statement, ast.Assign) or not isinstance(statement.value, ast.Call):
                continue
            target = statement.targets[0]
            made = self.returns.get(called(self.program, statement.value, scope) or "")
            if isinstance(target, ast.Name) and made is not None:
                name = f"{scope.path}.{target.id}" if scope.node is None else f"{scope.path}:{target.id}"
                self.routers.setdefault(name, self.routers[made])

    def _attachments(self, scope: Scope, statement: ast.stmt, condition: str | None) -> None:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            for decorator in statement.decorator_list:
                self._decorator(scope, statement, decorator, condition)
        elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            self._call(scope, statement.value, condition)

    def _decorator(
        self, scope: Scope, node: FunctionNode, decorator: ast.expr, condition: str | None
    ) -> None:
        if not (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute)):
            return
        key = self._key(decorator.func.value, scope)
        methods = self._methods(decorator)
        if key is None or not methods or _left_out_of_schema(decorator):
            return
        module = scope.module
        if scope.node is None:
            function = self.program.function(f"{module.path}.{node.name}")
        else:  # a route a factory (or a method building the application) declares inside itself
            function = self.program.closure(module, scope.node, node, scope.within)
        if function is None:
            return
        path = self._text(decorator.args[0] if decorator.args else _keyword(decorator, "path"), module)
        own = self._dependencies(_keyword(decorator, "dependencies"), module)
        file = self.program.file(function)
        for method in methods:
            entry = (method, path, function, own, file, decorator.lineno, condition)
            self.routers[key].routes.append(entry)

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

    def _call(self, scope: Scope, call: ast.Call, condition: str | None) -> None:
        if not isinstance(call.func, ast.Attribute):
            return
        module = scope.module
        key = self._key(call.func.value, scope)
        if call.func.attr == "include_router" and call.args:
            self._include(scope, call, key, condition)
        elif key is None:
            return
        elif call.func.attr == "mount" and len(call.args) >= 2:
            # A mounted application publishes its own OpenAPI document: it is not followed, and it is a
            # root only when `app:` names it (a catalog of its own).
            mounted = self._key(call.args[1], scope)
            if mounted is not None:
                self.routers[mounted].included = True
        elif call.func.attr == "add_api_route" and len(call.args) >= 2:
            function = self.program.function(self.program.qualify(call.args[1], module))
            path = self._text(call.args[0], module)
            if function is not None:
                own = self._dependencies(_keyword(call, "dependencies"), module)
                for method in self._methods(call):
                    file = self.program.file(function)
                    self.routers[key].routes.append(
                        (method, path, function, own, file, call.lineno, condition)
                    )

    def _include(self, scope: Scope, call: ast.Call, key: str | None, condition: str | None) -> None:
        """`parent.include_router(child, ...)`; when either cannot be told statically (`self.x.router`),
        an `Unread` at the call, so that the routes it would add are never left out in silence."""
        module, file = scope.module, self.program.files(scope.module)
        child = self._key(call.args[0], scope)
        if key is None or child is None:
            assert isinstance(call.func, ast.Attribute)  # `_call` reads attribute calls only
            unknown = ast.unparse(call.args[0] if child is None else call.func.value)
            what = "the router" if child is None else "the application or router it includes into"
            reason = (
                f"{what}, `{unknown}`, is not one docgen can find: a module-level FastAPI() or APIRouter(), "
                "a function of the source that returns one, or a parameter a call of the source passes one to"
            )
            shown = f"include_router({ast.unparse(call.args[0])})"
            self.unfollowed.append(Unread(shown, reason, file, call.lineno))
            return
        prefix = self._text(_keyword(call, "prefix"), module)
        extra = self._dependencies(_keyword(call, "dependencies"), module)
        self.routers[child].included = True
        self.routers[key].includes.append(Include(child, prefix, extra, file, call.lineno, condition))

    def _text(self, node: ast.expr | None, module: griffe.Module) -> PathText:
        """A path or prefix as text (empty when it is not given), with what it assumes and cannot read."""
        if node is None:
            return PathText("")
        return path_text(node, module, self.resolver, self.program.files(module))

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
