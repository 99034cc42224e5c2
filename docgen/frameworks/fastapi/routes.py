"""FastAPI's operations: the routes reachable from each application through the routers it includes, with
their prefixes, dependencies and conditions joined on the way (`routers` reads what the source declares).

An application mounted in another publishes its own document and is documented only when `app:` names it;
a package without an application (a library of routers) is read from its routers that nothing includes.
"""

from __future__ import annotations

from docgen.core.errors import ConfigError, SourceError, suggest
from docgen.core.limits import MAX_ROUTER_DEPTH
from docgen.extract.conditions import conditions
from docgen.extract.program import Code, Program
from docgen.extract.resolve import Resolver
from docgen.extract.route_paths import PathText, Unread, joined
from docgen.extract.routes import METHODS, Endpoint, schema_path
from docgen.frameworks.fastapi.routers import Include, Router, RouterReader


def application_endpoints(
    program: Program, resolver: Resolver, app: str | None, unfollowed: list[Unread] | None = None
) -> list[Endpoint]:
    """Every operation of the application `app` (None: of every application not mounted in another, or,
    with no application, of every router nothing includes), in path then method order; each include that
    cannot be followed is added to `unfollowed`."""
    reader = RouterReader(program, resolver)
    routers = reader.read()
    if unfollowed is not None:
        unfollowed.extend(reader.unfollowed)
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
        found.extend(_walk(routers, root, PathText(""), [], ()))
    order = {method: index for index, method in enumerate(METHODS)}
    return sorted(found, key=lambda e: (e.path, order.get(e.method, 99), e.file, e.line))


def _walk(
    routers: dict[str, Router],
    router: Router,
    prefix: PathText,
    dependencies: list[Code],
    chain: tuple[Include, ...],
) -> list[Endpoint]:
    """The operations of `router` and of the routers it includes, `chain` being the includes that led here."""
    prefix = joined(prefix, router.prefix)
    dependencies = [*dependencies, *router.dependencies]
    found = []
    for method, path, function, own, file, line, condition in router.routes:
        full = joined(prefix, path)
        shown = conditions(*(include.condition for include in chain), condition)
        declared = (*dependencies, *own)
        path_shown = schema_path(full.text)
        found.append(
            Endpoint(method, path_shown, function, declared, file, line, full.assumed, full.unread, shown)
        )
    for include in router.includes:
        if include.child in routers:
            _check_nesting(routers, (*chain, include))
            child_prefix, extra = joined(prefix, include.prefix), [*dependencies, *include.dependencies]
            found.extend(_walk(routers, routers[include.child], child_prefix, extra, (*chain, include)))
    return found


def _check_nesting(routers: dict[str, Router], chain: tuple[Include, ...]) -> None:
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
