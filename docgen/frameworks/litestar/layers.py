"""Litestar's layers read from the syntax: applications (`Litestar(...)`), routers (`Router(...)`),
controllers (subclasses of `Controller`) and route handlers (functions or methods under `@get(...)`,
`@route(..., http_method=[...])`), with what each layer adds to the routes under it: a path, guards,
dependencies by name.

An application or router is a call; a name stands for it when it is bound to that call in a module or in
the function that builds it (`def create_app(): v1 = Router(...); return Litestar(...)`), and a module-level
name bound to such a function's result (`app = create_app()`) stands for what the function returns. What a
layer holds (`route_handlers=[...]` or a name bound to such a list, `layer.register(...)`) is resolved only
when the routes are walked, so that a layer is read once however many times it is included. A plugin's
`on_app_init` is read like any function: what it adds to `app_config.dependencies` counts for every route.
"""

from __future__ import annotations

import ast

import griffe

from docgen.extract.program import Code, Program
from docgen.extract.resolve import Resolver
from docgen.frameworks.litestar.blocks import class_body, flat, local_imports, qualified
from docgen.frameworks.litestar.middleware import authentication, opts_out
from docgen.frameworks.litestar.names import (
    handler_methods,
    handler_paths,
    in_schema,
    keyword,
    litestar_name,
    path_text,
)
from docgen.frameworks.litestar.records import Item, Layer, Made, Route, Scope


class LayerReader:
    """Every application, router, controller and route handler of a program, as written."""

    def __init__(self, program: Program, resolver: Resolver) -> None:
        self.program = program
        self.resolver = resolver
        self.bound: dict[str, Made] = {}
        """`module.name`, or `function:name` for a local, -> the call it is bound to."""
        self.returns: dict[str, Made] = {}
        self.routes: dict[str, Route] = {}
        self.registered: dict[int, list[Item]] = {}
        self.made: list[Made] = []
        self.literals: dict[str, Item] = {}
        """A name bound to a list, tuple or dict written out (`ROUTES = [...]`), keyed as `bound` is."""
        self.local: dict[str, dict[str, str]] = {}
        """Module path -> the names its functions import in their bodies."""
        self.wired: dict[str, Code] = {}
        """Dependencies a plugin adds to the application it configures (`app_config.dependencies[...]`)."""
        scopes = list(self._scopes())
        for scope, module, statements in scopes:
            self._creations(scope, module, statements)
        for scope, module, statements in scopes:
            self._later(scope, module, statements)

    def _scopes(self) -> list[Scope]:
        """Each module's body and the body of each of its functions and methods (a plugin's `on_app_init`),
        the statements of their `if`, `try`, `with` and loops included; route handlers on the way."""
        modules = self.program.modules()
        return [scope for module, tree in modules for scope in self._module_scopes(module, tree)]

    def _module_scopes(self, module: griffe.Module, tree: ast.Module) -> list[Scope]:
        scopes: list[Scope] = []
        self.local[module.path] = local_imports(tree, module)
        scopes.append((module.path, module, flat(tree.body)))
        for statement in tree.body:
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                scopes.append((f"{module.path}.{statement.name}", module, flat(statement.body)))
                self._route(f"{module.path}.{statement.name}", statement)
            elif isinstance(statement, ast.ClassDef):
                for inner in statement.body:
                    if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef):
                        path = f"{module.path}.{statement.name}.{inner.name}"
                        scopes.append((path, module, flat(inner.body)))
                        self._route(path, inner)
        return scopes

    def read_module_of(self, path: str) -> bool:
        """Read the module defining `path` into the program, and its layers and routes into this reader,
        when a route list names something of a package the source does not otherwise load (a library's
        controller, `from litestar_flags.admin.controllers import FlagsController`); whether any was added."""
        if path in self.program.objects or path.partition(".")[0] == "litestar":
            return False
        before = {module.path for module, _ in self.program.modules()}
        self.program.load(path.rpartition(".")[0])
        added = [(m, tree) for m, tree in self.program.modules() if m.path not in before]
        scopes = [scope for module, tree in added for scope in self._module_scopes(module, tree)]
        for scope, module, statements in scopes:
            self._creations(scope, module, statements)
        for scope, module, statements in scopes:
            self._later(scope, module, statements)
        return bool(added)

    def _route(self, path: str, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        function = self.program.function(path)
        if function is None:
            return
        for decorator in node.decorator_list:
            if not isinstance(decorator, ast.Call):
                continue
            methods = handler_methods(self.program.qualify(decorator.func, function.module), decorator)
            if methods is None:
                continue
            module = function.module
            self.routes[path] = Route(
                function,
                methods,
                handler_paths(decorator, module, self.resolver, self.program.files(module)),
                self.guards(keyword(decorator, "guards"), module.path, module),
                self.dependencies(keyword(decorator, "dependencies"), module.path, module),
                self.program.file(function),
                decorator.lineno,
                in_schema(keyword(decorator, "include_in_schema")),
                opts_out(decorator),
            )

    def _creations(self, scope: str, module: griffe.Module, statements: list[ast.stmt]) -> None:
        """`name = Router(...)` or `Litestar(...)`, `return Router(...)` or `return name`, and a name bound to
        a list, tuple or dict written out (`ROUTES = [...]`, `route_handlers: list[Any] = [...]`)."""
        for statement in statements:
            value = statement.value if isinstance(statement, ast.Assign | ast.Return) else None
            target = statement.targets[0] if isinstance(statement, ast.Assign) else None
            if isinstance(statement, ast.AnnAssign):  # `route_handlers: list[Any] = [...]`
                target, value = statement.target, statement.value
            if isinstance(target, ast.Name) and isinstance(value, ast.List | ast.Tuple | ast.Dict):
                name = target.id
                key = f"{scope}.{name}" if scope == module.path else f"{scope}:{name}"
                self.literals[key] = (value, scope, module)
            if isinstance(value, ast.Call) and self.is_layer_call(value, module):
                made = (value, scope, module)
                self.made.append(made)
                if isinstance(statement, ast.Return):
                    self.returns[scope] = made
                elif isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Name):
                    name = statement.targets[0].id
                    self.bound[f"{scope}.{name}" if scope == module.path else f"{scope}:{name}"] = made
            elif isinstance(statement, ast.Return) and isinstance(value, ast.Name):
                local = self.bound.get(f"{scope}:{value.id}")
                if local is not None:
                    self.returns[scope] = local

    def _later(self, scope: str, module: griffe.Module, statements: list[ast.stmt]) -> None:
        """`app = create_app()` (a module name for what a factory returns), `layer.register(handler)`, and a
        plugin's `app_config.dependencies["name"] = Provide(f)`."""
        for statement in statements:
            target = statement.targets[0] if isinstance(statement, ast.Assign) else None
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Attribute):
                name = target.slice.value if isinstance(target.slice, ast.Constant) else None
                code = self.provider(statement.value, module) if isinstance(statement, ast.Assign) else None
                if target.value.attr == "dependencies" and isinstance(name, str) and code is not None:
                    self.wired[name] = code
            call = statement.value if isinstance(statement, ast.Assign | ast.Expr) else None
            if not isinstance(call, ast.Call):
                continue
            if isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Name):
                returned = self.returns.get(self.program.qualify(call.func, module) or "")
                if returned is not None and scope == module.path:
                    self.bound[f"{scope}.{statement.targets[0].id}"] = returned
            elif isinstance(call.func, ast.Attribute) and call.func.attr == "register" and call.args:
                made = self.made_by(call.func.value, scope, module)
                if made is not None:
                    self.registered.setdefault(id(made[0]), []).append((call.args[0], scope, module))

    def is_layer_call(self, call: ast.Call, module: griffe.Module) -> bool:
        return litestar_name(self.path_of(call.func, module), "Router", "Litestar")

    def is_app(self, made: Made) -> bool:
        return litestar_name(self.path_of(made[0].func, made[2]), "Litestar")

    def made_by(self, node: ast.expr, scope: str, module: griffe.Module) -> Made | None:
        """The application or router `node` stands for: written right there, a local of the function
        `scope`, a module name, or a call of a function that returns one."""
        if isinstance(node, ast.Call):
            if self.is_layer_call(node, module):
                return node, scope, module
            return self.returns.get(self.program.qualify(node.func, module) or "")
        if isinstance(node, ast.Name) and f"{scope}:{node.id}" in self.bound:
            return self.bound[f"{scope}:{node.id}"]
        return self.bound.get(self.program.qualify(node, module) or "")

    def layer(self, made: Made) -> Layer:
        """What an application or router adds and holds (a router's path is its first argument)."""
        call, scope, module = made
        is_router = not self.is_app(made)
        path_node = call.args[0] if is_router and call.args else keyword(call, "path")
        return Layer(
            key=f"{self.program.files(module)}:{call.lineno}:{call.col_offset}",
            path=path_text(path_node, module, self.resolver, self.program.files(module)),
            guards=self.guards(keyword(call, "guards"), scope, module),
            dependencies=self.dependencies(keyword(call, "dependencies"), scope, module),
            file=self.program.files(module),
            line=call.lineno,
            items=[
                *self.items(keyword(call, "route_handlers"), scope, module),
                *self.registered.get(id(call), []),
            ],
            in_schema=in_schema(keyword(call, "include_in_schema")),
            auth=authentication(self.program, self.items(keyword(call, "middleware"), scope, module)),
        )

    def controller(self, path: str) -> Layer | None:
        """The layer a `Controller` subclass is: its class attributes, and its route handler methods."""
        klass = self.program.klass(path)
        ancestry = self.program.ancestry(path)
        if klass is None or not any(litestar_name(base, "Controller") for base in ancestry):
            return None
        attributes: dict[str, ast.expr] = {}
        for statement in class_body(self.program, klass):
            if isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Name):
                attributes[statement.targets[0].id] = statement.value
            elif (
                isinstance(statement, ast.AnnAssign)
                and isinstance(statement.target, ast.Name)
                and statement.value is not None
            ):
                attributes[statement.target.id] = statement.value
        routes: dict[str, Route] = {}
        for base in ancestry:  # nearest first: a method a subclass redefines is its own
            for name, route in self._methods(base).items():
                routes.setdefault(name, route)
        module = klass.module
        return Layer(
            key=path,
            path=path_text(attributes.get("path"), module, self.resolver, self.program.files(module)),
            guards=self.guards(attributes.get("guards"), module.path, module),
            dependencies=self.dependencies(attributes.get("dependencies"), module.path, module),
            file=self.program.file(klass),
            line=klass.lineno or 1,
            routes=list(routes.values()),
            in_schema=in_schema(attributes.get("include_in_schema")),
            auth=authentication(self.program, self.items(attributes.get("middleware"), module.path, module)),
        )

    def _methods(self, class_path: str) -> dict[str, Route]:
        prefix = f"{class_path}."
        return {
            path.removeprefix(prefix): route
            for path, route in self.routes.items()
            if path.startswith(prefix) and "." not in path.removeprefix(prefix)
        }

    def literal(self, node: ast.expr | None, scope: str, module: griffe.Module) -> Item | None:
        """The list, tuple or dict `node` is: written there, or a name bound to one (a local of the function
        `scope`, or a module's), with the scope and module it is written in."""
        if isinstance(node, ast.List | ast.Tuple | ast.Dict):
            return node, scope, module
        if isinstance(node, ast.Name) and f"{scope}:{node.id}" in self.literals:
            return self.literals[f"{scope}:{node.id}"]
        return self.literals.get(self.path_of(node, module) or "") if node is not None else None

    def items(self, node: ast.expr | None, scope: str, module: griffe.Module) -> list[Item]:
        """The entries of the list or tuple `node` is, a `*name` among them spread out."""
        found = self.literal(node, scope, module)
        if found is None:
            return []
        listed, where, written_in = found
        if not isinstance(listed, ast.List | ast.Tuple):
            return []
        items: list[Item] = []
        for item in listed.elts:
            if isinstance(item, ast.Starred):
                items.extend(self.items(item.value, where, written_in))
            else:
                items.append((item, where, written_in))
        return items

    def guards(self, node: ast.expr | None, scope: str, module: griffe.Module) -> list[Code]:
        """The functions a list of guards names: a function, or what a factory call returns
        (`guards=[require("admin")]`)."""
        found = [self._guard(item, where) for item, _, where in self.items(node, scope, module)]
        return [code for code in found if code is not None]

    def _guard(self, node: ast.expr, module: griffe.Module) -> Code | None:
        """The code a guard runs; an instance of a class of the source (`PermissionGuard(...)`, or what a
        factory returns, `return PermissionGuard(*permissions)`) runs its `__call__`."""
        if isinstance(node, ast.Call):
            path = self.path_of(node.func, module)
            factory = self.program.function(path)
            made = [node] if factory is None else self._returned_calls(factory)
            where = module if factory is None else factory.module
            for call in made:
                method = self._dunder_call(self.path_of(call.func, where))
                if method is not None:
                    return method
        return self._code(node, module)

    def _returned_calls(self, factory: griffe.Function) -> list[ast.Call]:
        node = self.program.node(factory)
        returns = [n.value for n in ast.walk(node) if isinstance(n, ast.Return)]
        return [value for value in returns if isinstance(value, ast.Call)]

    def _dunder_call(self, path: str | None) -> Code | None:
        """The `__call__` an instance of the source class `path` runs, its own or a base's."""
        if path is None or self.program.klass(path) is None:
            return None
        for own in self.program.ancestry(path):
            method = self.program.function(f"{own}.__call__")
            if method is not None:
                return self.program.code(method)
        return None

    def dependencies(self, node: ast.expr | None, scope: str, module: griffe.Module) -> dict[str, Code]:
        """`dependencies={"name": Provide(f)}` (or a bare `f`): each name with the code that provides it."""
        found = self.literal(node, scope, module)
        if found is None or not isinstance(found[0], ast.Dict):
            return {}
        provided = {}
        for key, value in zip(found[0].keys, found[0].values, strict=True):
            code = self.provider(value, found[2])
            if isinstance(key, ast.Constant) and isinstance(key.value, str) and code is not None:
                provided[key.value] = code
        return provided

    def provider(self, value: ast.expr, module: griffe.Module) -> Code | None:
        """The code a dependency runs: `Provide(f)`'s `f`, or `f` given bare."""
        provider: ast.expr | None = value
        if isinstance(value, ast.Call) and litestar_name(self.path_of(value.func, module), "Provide"):
            provider = value.args[0] if value.args else keyword(value, "dependency")
        return self._code(provider, module) if provider is not None else None

    def _code(self, node: ast.expr, module: griffe.Module) -> Code | None:
        """The code a guard or provider names: a function of the loaded source (a class: its `__init__`), or
        the function a factory call defines and returns."""
        if isinstance(node, ast.Call):
            factory = self.program.function(self.path_of(node.func, module))
            return self.program.returned_function(factory) if factory is not None else None
        path = self.path_of(node, module)
        function = self.program.function(path) or self.program.function(f"{path}.__init__")
        return self.program.code(function) if function is not None else None

    def path_of(self, node: ast.expr, module: griffe.Module) -> str | None:
        """The dotted path `node` stands for in `module`, a name imported in a function's body included."""
        return qualified(self.program, node, module, self.local.get(module.path, {}))
