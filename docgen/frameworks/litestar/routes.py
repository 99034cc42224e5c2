"""Litestar's operations: the route handlers an application reaches through its routers and controllers,
each under the joined paths of its layers, with the guards and dependencies it runs.

An authentication middleware, then a guard, runs before the handler of every route under the layer that
declares it, so each counts as the route's dependency here (its raises are the route's errors). A
dependency (`dependencies={"user": Provide(f)}` on any layer) runs only for a handler, or another
dependency, with a parameter of its name; the innermost layer's provider of a name wins, as in Litestar. An
application without `app:` is every `Litestar(...)` of the source; a package without one (a library of
routers or controllers) is read from its routers, controllers and handlers that nothing in it includes. A
route that `include_in_schema=False` leaves out of Litestar's document (on the handler or the nearest layer
that says) is left out here too.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

import griffe

from docgen.core.errors import ConfigError, SourceError, suggest
from docgen.core.limits import MAX_ROUTER_DEPTH
from docgen.extract.calls import FunctionNode
from docgen.extract.program import Code, Program
from docgen.extract.resolve import Resolver
from docgen.extract.route_paths import PathText, Unread
from docgen.extract.routes import METHODS, Endpoint, schema_path
from docgen.frameworks.litestar.layers import LayerReader
from docgen.frameworks.litestar.middleware import applies
from docgen.frameworks.litestar.names import join_read
from docgen.frameworks.litestar.records import Auth, Layer, Made, Route

Child = Layer | Route


def application_endpoints(
    program: Program, resolver: Resolver, app: str | None, unfollowed: list[Unread]
) -> list[Endpoint]:
    """Every operation of the application `app` (None: of every application in the source, or without
    one, of whatever nothing includes), in path then method order; each entry of a `route_handlers` list
    that cannot be followed is added to `unfollowed`."""
    walker = _Walker(LayerReader(program, resolver))
    found: list[Endpoint] = []
    for root in walker.roots(app):
        found.extend(
            walker.walk(
                root, _Above(PathText(""), [], dict(walker.reader.wired), in_schema=True, auth=[]), ()
            )
        )
    unfollowed.extend(walker.unfollowed.values())
    order = {method: index for index, method in enumerate(METHODS)}
    return sorted(found, key=lambda e: (e.path, order.get(e.method, 99), e.file, e.line))


class _Walker:
    """Walks layers down to their route handlers, each layer read once."""

    def __init__(self, reader: LayerReader) -> None:
        self.reader = reader
        self.program = reader.program
        self._layers: dict[int, Layer] = {}
        self._controllers: dict[str, Layer | None] = {}
        self.unfollowed: dict[tuple[str, int, str], Unread] = {}
        """(file, line, entry) -> an entry of a layer's route handlers that docgen cannot find."""

    def roots(self, app: str | None) -> list[Child]:
        apps = {id(made[0]): made for made in self.reader.made if self.reader.is_app(made)}
        if app is not None:
            named = sorted(
                k for k, made in self.reader.bound.items() if ":" not in k and self.reader.is_app(made)
            )
            if app not in named:
                hint = suggest(app, named) or f"applications found: {', '.join(named) or 'none'}"
                raise ConfigError(
                    f"no Litestar application '{app}' in the source", file="mkdocs.yml", hint=hint
                )
            return [self.layer(self.reader.bound[app])]
        if apps:
            layers = sorted((self.layer(made) for made in apps.values()), key=lambda layer: layer.key)
            return list(layers)
        return self._free()

    def _free(self) -> list[Child]:
        """Without an application: the routers (at module level, or built in a function), the controllers
        and the module-level route handlers that no other of them includes."""
        candidates: list[Child] = [self.layer(m) for k, m in self.reader.bound.items() if ":" not in k]
        # a router a function or method builds and returns (a plugin's `_get_api_router()`), whose path may
        # be known only at run time (`Router(path=self._config.base_url, ...)`: unread, and reported)
        returned = [*self.reader.returns.values()]
        # and one a plugin's `on_app_init` builds in a local and adds (`app_config.route_handlers.append(r)`)
        returned += [made for key, made in self.reader.bound.items() if ":" in key]
        candidates.extend(self.layer(made) for made in returned if not self.reader.is_app(made))
        for path, obj in sorted(self.program.objects.items()):
            if isinstance(obj, griffe.Class) and path == obj.path:
                controller = self.controller(path)
                candidates.extend([controller] if controller is not None else [])
        candidates.extend(
            r for p, r in self.reader.routes.items() if p.rpartition(".")[0] == r.function.module.path
        )
        included = {
            _identity(child)
            for layer in candidates
            if isinstance(layer, Layer)
            for child in self.children(layer)
        }
        unique = {_identity(candidate): candidate for candidate in candidates}
        return [candidate for key, candidate in unique.items() if key not in included]

    def layer(self, made: Made) -> Layer:
        if id(made[0]) not in self._layers:
            self._layers[id(made[0])] = self.reader.layer(made)
        return self._layers[id(made[0])]

    def controller(self, path: str) -> Layer | None:
        if path not in self._controllers:
            self._controllers[path] = self.reader.controller(path)
        return self._controllers[path]

    def children(self, layer: Layer) -> list[Child]:
        """A layer's route handlers, then what its `route_handlers` list names, in order."""
        found: list[Child] = list(layer.routes)
        for node, scope, module in layer.items:
            made = self.reader.made_by(node, scope, module)
            path = self.reader.path_of(node, module) if made is None else None
            if path is not None and self.reader.read_module_of(path):  # a library's router or controller
                made = self.reader.made_by(node, scope, module)
                path = self.reader.path_of(node, module) if made is None else None  # its imports followed
            if made is not None:
                found.append(self.layer(made))
            elif path in self.reader.routes:
                found.append(self.reader.routes[path])
            elif path is not None and (controller := self.controller(path)) is not None:
                found.append(controller)
            else:
                self._unfollowed(node, module)
        return found

    def _unfollowed(self, node: ast.expr, module: griffe.Module) -> None:
        shown, file = ast.unparse(node), self.program.files(module)
        reason = (
            f"the route handler, controller or router `{shown}` is not one docgen can find: a decorated "
            "function, a Controller subclass or a Router of the source, by name or made right there"
        )
        self.unfollowed[(file, node.lineno, shown)] = Unread(
            f"route_handlers: {shown}", reason, file, node.lineno
        )

    def walk(self, child: Child, above: _Above, chain: tuple[Layer, ...]) -> list[Endpoint]:
        """The operations of `child` under the layers `chain`, which give it what `above` holds."""
        if isinstance(child, Route):
            return self._endpoints(child, above)
        _check_nesting((*chain, child))
        inner_above = _Above(
            join_read(above.prefix, child.path),
            [*above.guards, *child.guards],
            {**above.provided, **child.dependencies},
            above.in_schema if child.in_schema is None else child.in_schema,
            [*above.auth, *child.auth],
        )
        found = []
        for inner in self.children(child):
            found.extend(self.walk(inner, inner_above, (*chain, child)))
        return found

    def _endpoints(self, route: Route, above: _Above) -> list[Endpoint]:
        if not (above.in_schema if route.in_schema is None else route.in_schema):
            return []  # left out of Litestar's document, as it leaves the route out
        used = _used(self.program.node(route.function), {**above.provided, **route.dependencies})
        found: list[Endpoint] = []
        for path in route.paths:
            read = join_read(above.prefix, path)
            full = schema_path(read.text)
            auth = [a.code for a in above.auth if applies(a, full, route.opts_out_of_auth)]
            runs: list[Code] = []
            for code in [*auth, *above.guards, *route.guards, *used]:
                if code not in runs:
                    runs.append(code)
            found.extend(
                Endpoint(
                    method,
                    full,
                    route.function,
                    tuple(runs),
                    route.file,
                    route.line,
                    assumed=read.assumed,
                    unread=read.unread,
                )
                for method in route.methods
            )
        return found


@dataclass(frozen=True)
class _Above:
    """What the layers above a route give it: the joined path, the guards, the dependencies by name,
    whether its routes are in the OpenAPI document, and the authentication middleware they run."""

    prefix: PathText
    guards: list[Code]
    provided: dict[str, Code]
    in_schema: bool
    auth: list[Auth]


def _used(node: FunctionNode, provided: dict[str, Code]) -> list[Code]:
    """The dependencies a handler runs: those its parameters name, then those theirs name, each once."""
    found: list[Code] = []
    queue = [node]
    while queue:
        arguments = queue.pop(0).args
        for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
            code = provided.get(argument.arg)
            if code is not None and code not in found:
                found.append(code)
                queue.append(code.node)
    return found


def _identity(child: Child) -> str:
    return child.key if isinstance(child, Layer) else child.function.path


def _check_nesting(chain: tuple[Layer, ...]) -> None:
    """Refuse a layer that holds itself, or layers nested deeper than docgen follows, at the inner one."""
    last = chain[-1]
    if any(layer.key == last.key for layer in chain[:-1]):
        names = " -> ".join(f"{layer.file}:{layer.line}" for layer in chain)
        raise SourceError(
            f"this router holds itself ({names})",
            file=last.file,
            line=last.line,
            hint="remove one inclusion of the cycle, so that each router's routes are known",
        )
    if len(chain) > MAX_ROUTER_DEPTH:
        raise SourceError(
            f"routers and controllers are nested more than {MAX_ROUTER_DEPTH} deep below {chain[0].file}:"
            f"{chain[0].line}; docgen follows at most {MAX_ROUTER_DEPTH}",
            file=last.file,
            line=last.line,
            hint=f"hold the inner routers in one nearer the application, at most {MAX_ROUTER_DEPTH} deep",
        )
