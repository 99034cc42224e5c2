"""Starlette applications, which declare their routes as data rather than decorators: `Starlette(routes=[
Route("/x", endpoint, methods=[...]), Mount("/api", routes=[...]), Mount("/sub", app=other)])` and
`Router(routes=[...])`, the list written in place or held by a module-level name (with what the module
then `append`s, `extend`s or adds to it, under an `if` with its condition). An endpoint is a function
(one operation per method) or an `HTTPEndpoint` class (one operation per method it defines). A mounted
Starlette application or router is followed under its prefix; a mounted FastAPI application publishes its
own document and is left to a catalog of its own, as `routes` does. Read from the syntax alone.
"""

from __future__ import annotations

import ast

import griffe

from docgen.extract.conditions import conditions, unfolded
from docgen.extract.program import Program
from docgen.extract.resolve import Resolver
from docgen.extract.route_paths import PathText, Unread, joined, path_text
from docgen.extract.routes import METHODS, Endpoint, schema_path

APPS = {"starlette.applications.Starlette", "starlette.Starlette"}
ROUTERS = {"starlette.routing.Router"}
ROUTE = {"starlette.routing.Route"}
MOUNT = {"starlette.routing.Mount"}
HTTP_ENDPOINT = "starlette.endpoints.HTTPEndpoint"
MAX_MOUNT_DEPTH = 16
"""How deep mounts inside mounts are followed; a deeper one is left where it stops."""

_Made = tuple[griffe.Module, ast.Call, bool]
"""Where an application or router is made: its module, the call, and whether it is an application."""
_Item = tuple[ast.expr, griffe.Module, str | None]
"""An item of a routes list, the module its names are read in, and the condition it is added under."""


def starlette_endpoints(
    program: Program, resolver: Resolver, app: str | None, unfollowed: list[Unread]
) -> list[Endpoint] | None:
    """Every operation of the Starlette application `app` (None: of each one not mounted in another), or
    None when there is no such application (the source is a FastAPI one); what a routes list holds that
    cannot be followed is added to `unfollowed`."""
    made = _made(program)
    reader = _Reader(program, resolver, made, unfollowed)
    if app is not None:
        return reader.operations(app) if app in made and made[app][2] else None
    roots = [key for key, (_, _, is_app) in sorted(made.items()) if is_app]
    if not roots:
        return None
    found = {key: reader.operations(key) for key in roots}
    return [endpoint for key in roots if key not in reader.mounted for endpoint in found[key]]


def _made(program: Program) -> dict[str, _Made]:
    """Dotted path of each module-level name made by `Starlette(...)` or `Router(...)` -> where."""
    made: dict[str, _Made] = {}
    for module, tree in program.modules():
        for statement in tree.body:
            if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call):
                kind = program.qualify(statement.value.func, module)
                for target in statement.targets:
                    if isinstance(target, ast.Name) and kind in APPS | ROUTERS:
                        made[f"{module.path}.{target.id}"] = (module, statement.value, kind in APPS)
    return made


class _Reader:
    """Follows an application's routes lists into their routes and mounts."""

    def __init__(
        self, program: Program, resolver: Resolver, made: dict[str, _Made], unfollowed: list[Unread]
    ) -> None:
        self.program = program
        self.resolver = resolver
        self.made = made
        self.mounted: set[str] = set()
        self.unfollowed = unfollowed

    def operations(self, key: str) -> list[Endpoint]:
        module, call, _ = self.made[key]
        found = self._routes(_keyword(call, "routes", 0), module, PathText(""), None, MAX_MOUNT_DEPTH)
        order = {method: index for index, method in enumerate(METHODS)}
        return sorted(found, key=lambda e: (e.path, order.get(e.method, 99), e.file, e.line))

    def _routes(
        self,
        node: ast.expr | None,
        module: griffe.Module,
        prefix: PathText,
        condition: str | None,
        depth: int,
    ) -> list[Endpoint]:
        found: list[Endpoint] = []
        for item, scope, added in self._items(node, module, None):
            if not isinstance(item, ast.Call):
                self._unfollowed(item, scope, "a Route(...) or Mount(...) written there")
            if not isinstance(item, ast.Call) or depth <= 0:
                continue
            under = conditions(condition, added)
            kind = self.program.qualify(item.func, scope)
            path = _keyword(item, "path", 0)
            here = joined(prefix, self._path(path, scope)) if path is not None else prefix
            if kind in ROUTE and not _left_out(item):
                found.extend(self._route(item, scope, here, under))
            elif kind in MOUNT:
                found.extend(self._routes(_keyword(item, "routes", 2), scope, here, under, depth - 1))
                given = _keyword(item, "app", 1)
                mounted = self.program.qualify(given or ast.Constant(None), scope)
                if (
                    isinstance(given, ast.Name | ast.Attribute)
                    and self.program.objects.get(mounted or "") is None
                ):
                    self._unfollowed(given, scope, "an application or Router(...) of the source")
                if mounted in self.made:
                    self.mounted.add(mounted)
                    inner_module, inner, _ = self.made[mounted]
                    inner_routes = _keyword(inner, "routes", 0)
                    found.extend(self._routes(inner_routes, inner_module, here, under, depth - 1))
        return found

    def _path(self, node: ast.expr, module: griffe.Module) -> PathText:
        return path_text(node, module, self.resolver, self.program.files(module))

    def _items(self, node: ast.expr | None, module: griffe.Module, condition: str | None) -> list[_Item]:
        """The items of a routes list: written in place (`[*more, Route(...)]` included) or held by a
        module-level name."""
        if isinstance(node, ast.List | ast.Tuple):
            found: list[_Item] = []
            for item in node.elts:
                if isinstance(item, ast.Starred):
                    found.extend(self._items(item.value, module, condition))
                else:
                    found.append((item, module, condition))
            return found
        if isinstance(node, ast.Name | ast.Attribute):
            path = self.program.qualify(node, module)
            owner, _, name = (path or "").rpartition(".")
            holder = self.program.objects.get(owner)
            tree = self.program.trees.modules.get(owner)
            if tree is not None and isinstance(holder, griffe.Module):
                return self._held(name, tree, holder, condition)
            self._unfollowed(node, module, "a list of routes held by a module-level name")
        return []

    def _unfollowed(self, node: ast.expr, module: griffe.Module, expected: str) -> None:
        shown, file = ast.unparse(node), self.program.files(module)
        reason = f"`{shown}` is not {expected} that docgen can find"
        unread = Unread(f"routes: {shown}", reason, file, node.lineno)
        if unread not in self.unfollowed:
            self.unfollowed.append(unread)

    def _held(self, name: str, tree: ast.Module, module: griffe.Module, condition: str | None) -> list[_Item]:
        """The items of the module-level list `name`: its assignment, then what the module adds to it
        (`name.append(x)`, `name.extend([...])`, `name += [...]`), each under the `if` it is written in."""
        found: list[_Item] = []
        for statement, under in unfolded(tree.body, condition):
            added = _added(statement, name)
            if added is not None:
                found.extend(self._items(added, module, under))
        return found

    def _route(
        self, call: ast.Call, module: griffe.Module, path: PathText, condition: str | None
    ) -> list[Endpoint]:
        target = _keyword(call, "endpoint", 1)
        dotted = self.program.qualify(target, module) if target is not None else None
        function = self.program.function(dotted)
        if function is not None:
            pairs = [(method, function) for method in _methods(call)]
        elif dotted is not None and HTTP_ENDPOINT in self.program.ancestry(dotted):
            pairs = [(m, f) for m in METHODS if (f := self.program.function(f"{dotted}.{m}")) is not None]
        else:
            return []
        shown = schema_path(path.text)
        file = self.program.files(module)
        return [
            Endpoint(method, shown, handler, (), file, call.lineno, path.assumed, path.unread, condition)
            for method, handler in pairs
        ]


def _added(statement: ast.stmt, name: str) -> ast.expr | None:
    """The routes a module-level statement gives the list `name`: `name = [...]`, `name += [...]`,
    `name.extend([...])` (the list), `name.append(x)` (as a list of one), else None."""
    if isinstance(statement, ast.Assign):
        named = any(isinstance(target, ast.Name) and target.id == name for target in statement.targets)
        return statement.value if named else None
    if isinstance(statement, ast.AugAssign) and isinstance(statement.target, ast.Name):
        return statement.value if statement.target.id == name else None
    call = statement.value if isinstance(statement, ast.Expr) else None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and len(call.args) == 1):
        return None
    if not (isinstance(call.func.value, ast.Name) and call.func.value.id == name):
        return None
    if call.func.attr == "append":
        return ast.List(elts=[call.args[0]], ctx=ast.Load())
    return call.args[0] if call.func.attr == "extend" else None


def _methods(call: ast.Call) -> list[str]:
    listed = next((k.value for k in call.keywords if k.arg == "methods"), None)
    if not isinstance(listed, ast.List | ast.Tuple):
        return ["get"]
    spelled = [str(m.value).lower() for m in listed.elts if isinstance(m, ast.Constant)]
    return [method for method in spelled if method in METHODS and method != "head"]


def _left_out(call: ast.Call) -> bool:
    value = next((k.value for k in call.keywords if k.arg == "include_in_schema"), None)
    return isinstance(value, ast.Constant) and value.value is False


def _keyword(call: ast.Call, name: str, position: int) -> ast.expr | None:
    value = next((k.value for k in call.keywords if k.arg == name), None)
    if value is not None:
        return value
    return call.args[position] if position < len(call.args) else None
