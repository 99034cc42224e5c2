"""The applications and blueprints of a Flask application as a tree, and its operations read off it.

Each application or blueprint (`Owner`) holds its own rules, what runs before them and the blueprints it
registers; walking the tree from an application joins the prefixes as Flask does (a registration's prefix
winning over the blueprint's own) and carries `before_request` functions down to every rule under them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from docgen.core.errors import SourceError
from docgen.core.limits import MAX_ROUTER_DEPTH
from docgen.extract.conditions import conditions
from docgen.extract.program import Code
from docgen.extract.routes import Endpoint, Handler
from docgen.frameworks.flask.paths import join_prefix, join_rule, openapi_path
from docgen.frameworks.flask.views import View

BLUEPRINTS = {"flask.Blueprint", "flask.blueprints.Blueprint"}


@dataclass
class Route:
    """One routed rule: its methods, the rule as written, the view and where it is declared."""

    methods: list[str]
    rule: str
    view: View
    file: str
    line: int
    body_key: str | None = None
    """The body key of its errors where it is not Flask's (a Flask-RESTful resource's `message`)."""
    condition: str | None = None
    """The condition of the `if`s it is routed under; None: always."""


@dataclass
class Registration:
    """`parent.register_blueprint(child, url_prefix=...)`, and where it is written."""

    child: str
    prefix: str | None
    file: str
    line: int
    condition: str | None = None
    """The condition of the `if`s it is registered under (`if not llm_disabled():`); None: always."""


@dataclass
class Owner:
    """An application or a blueprint: its own prefix, its rules, what runs before them, what it registers."""

    key: str
    is_app: bool
    prefix: str | None = None
    routes: list[Route] = field(default_factory=list)
    before: list[Code] = field(default_factory=list)
    registrations: list[Registration] = field(default_factory=list)
    registered: bool = False
    elsewhere: str | None = None
    """The prefix of a registration on an application docgen cannot name, which then stands for it."""
    handlers: tuple[tuple[str, Handler], ...] = ()
    """A blueprint's own error handlers: (exception class path, handler)."""


@dataclass(frozen=True)
class Above:
    """What an application and the blueprints on the way give the rules under them: the functions run before
    each, and the blueprints' own error handlers, nearest first."""

    before: tuple[Code, ...] = ()
    handlers: tuple[tuple[str, Handler], ...] = ()
    condition: str | None = None


def walk(
    owners: dict[str, Owner], owner: Owner, prefix: str | None, above: Above, chain: tuple[Registration, ...]
) -> list[Endpoint]:
    """The operations of `owner` under `prefix` and of the blueprints it registers; `chain` is the
    registrations that led here."""
    above = Above((*above.before, *owner.before), (*owner.handlers, *above.handlers), above.condition)
    found = []
    for route in owner.routes:
        path = openapi_path(join_rule(prefix, route.rule))
        for method in route.methods:
            function, wrappers = route.view.function(method), route.view.decorators
            if function is not None:
                dependencies = (*above.before, *wrappers)
                endpoint = Endpoint(
                    method,
                    path,
                    function,
                    dependencies,
                    route.file,
                    route.line,
                    condition=conditions(above.condition, route.condition),
                    body_key=route.body_key,
                    handlers=above.handlers,
                )
                found.append(endpoint)
    for registration in owner.registrations:
        child = owners[registration.child]
        check_nesting(owners, (*chain, registration))
        own = registration.prefix if registration.prefix is not None else child.prefix
        inner = join_prefix(prefix, own)
        under = dataclasses.replace(above, condition=conditions(above.condition, registration.condition))
        found.extend(walk(owners, child, inner, under, (*chain, registration)))
    return found


def check_nesting(owners: dict[str, Owner], chain: tuple[Registration, ...]) -> None:
    """Refuse a blueprint registered inside itself, or nested deeper than docgen follows, at the call."""
    last = chain[-1]
    if any(owners[item.child] is owners[last.child] for item in chain[:-1]):
        names = " -> ".join(item.child for item in chain)
        raise SourceError(
            f"the blueprint '{last.child}' is registered inside itself ({names})",
            file=last.file,
            line=last.line,
            hint="remove one register_blueprint call of the cycle, so that each blueprint's routes are known",
        )
    if len(chain) > MAX_ROUTER_DEPTH:
        raise SourceError(
            f"blueprints are nested more than {MAX_ROUTER_DEPTH} deep: this register_blueprint of "
            f"'{last.child}' is call {len(chain)} of a chain that starts at {chain[0].file}:{chain[0].line}",
            file=last.file,
            line=last.line,
            hint=f"register the inner blueprints nearer the application, at most {MAX_ROUTER_DEPTH} deep",
        )
