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
from dataclasses import dataclass, field

import griffe

from docgen.extract.calls import unparse
from docgen.extract.program import Code, FunctionNode, Program
from docgen.extract.resolve import Resolver
from docgen.extract.route_paths import PathText, path_text
from docgen.extract.routes import METHODS
from docgen.frameworks.fastapi.dependencies import depends_target

APPS = {"fastapi.FastAPI", "fastapi.applications.FastAPI"}
ROUTERS = {"fastapi.APIRouter", "fastapi.routing.APIRouter"}


Route = tuple[str, PathText, griffe.Function, list[Code], str, int, str | None]
"""(method, path, function, the route's own dependencies, file, line, condition)."""
Statement = tuple[ast.stmt, str | None]
"""A statement of a scope, and the condition of the `if` it is written under (None: always run)."""


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

    def read(self) -> dict[str, Router]:
        scopes = list(self._scopes())
        for scope, module, statements in scopes:
            self._creations(scope, module, [statement for statement, _ in statements])
        for scope, module, statements in scopes:
            self._returned(scope, module, [statement for statement, _ in statements])
        for _, module, statements in scopes:
            self._aliases(module, [statement for statement, _ in statements])
        for scope, module, statements in scopes:
            for statement, condition in statements:
                self._attachments(scope, module, statement, condition)
        return self.routers

    def _scopes(self) -> list[tuple[str, griffe.Module, list[Statement]]]:
        """(scope, module, statements): each module's body, and the body of each of its functions, with
        the statements under their `if`s."""
        scopes = []
        for module, tree in self.program.modules():
            scopes.append((module.path, module, unfolded(tree.body, None)))
            for statement in tree.body:
                if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                    body = unfolded(statement.body, None)
                    scopes.append((f"{module.path}.{statement.name}", module, body))
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
            router = Router(key, is_app=kind in APPS)
            router.prefix = self._text(_keyword(statement.value, "prefix"), module)
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

    def _attachments(
        self, scope: str, module: griffe.Module, statement: ast.stmt, condition: str | None
    ) -> None:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            for decorator in statement.decorator_list:
                self._decorator(scope, module, statement, decorator, condition)
        elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            self._call(scope, module, statement.value, condition)

    def _decorator(
        self,
        scope: str,
        module: griffe.Module,
        node: FunctionNode,
        decorator: ast.expr,
        condition: str | None,
    ) -> None:
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

    def _call(self, scope: str, module: griffe.Module, call: ast.Call, condition: str | None) -> None:
        if not isinstance(call.func, ast.Attribute):
            return
        key = self._key(call.func.value, scope, module)
        if key is None:
            return
        if call.func.attr == "include_router" and call.args:
            prefix = self._text(_keyword(call, "prefix"), module)
            extra = self._dependencies(_keyword(call, "dependencies"), module)
            child = self._key(call.args[0], scope, module)
            if child is not None:
                self.routers[child].included = True
                file = self.program.files(module)
                include = Include(child, prefix, extra, file, call.lineno, condition)
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
                    file = self.program.file(function)
                    self.routers[key].routes.append(
                        (method, path, function, own, file, call.lineno, condition)
                    )

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


def unfolded(statements: list[ast.stmt], condition: str | None) -> list[Statement]:
    """`statements` with those under an `if` brought up beside them, each with the condition it runs under
    (`a` for the body of `if a:`, `not (a)` for its `else`, joined with `and` when nested)."""
    found: list[Statement] = []
    for statement in statements:
        if isinstance(statement, ast.If):
            test = unparse(statement.test)
            found.extend(unfolded(statement.body, conditions(condition, test)))
            found.extend(unfolded(statement.orelse, conditions(condition, f"not ({test})")))
        else:
            found.append((statement, condition))
    return found


def conditions(*conditions: str | None) -> str | None:
    """The conditions of the `if`s on the way to a route, as one (`a and b`), or None for none."""
    written = [condition for condition in conditions if condition]
    return " and ".join(dict.fromkeys(written)) or None
