"""Werkzeug's HTTP exceptions as the installed Werkzeug defines them, read statically.

Flask raises Werkzeug's exceptions (`abort(404)` raises `werkzeug.exceptions.NotFound`), and each class
carries its status in the class attribute `code` and the text a client reads when no description is passed
in `description`. Both are read here from `werkzeug/exceptions.py` on the search paths, with griffe, never by
importing it, so that the catalog says what the Werkzeug the server runs with sends, and a new Werkzeug
release that rewords a description shows up as a changed catalog.
"""

from __future__ import annotations

import ast

import griffe

from docgen.core.errors import ConfigError, SourceError
from docgen.core.records import record
from docgen.extract.resolve import Resolver, Unresolvable

MODULE = "werkzeug.exceptions"
BASE = f"{MODULE}.HTTPException"


@record
class WerkzeugClass:
    """One HTTP exception class of Werkzeug, with what it states itself or inherits."""

    path: str
    code: int | None
    description: str


@record
class WerkzeugExceptions:
    """Every HTTP exception class of the installed Werkzeug, and the class `abort` raises for each status."""

    classes: dict[str, WerkzeugClass]
    by_status: dict[int, str]
    """Status -> the class `abort(status)` raises, chosen as Werkzeug fills `default_exceptions`: in the
    order the module defines them, a class takes its status unless it subclasses the class holding it."""


def read_werkzeug(resolver: Resolver) -> WerkzeugExceptions:
    """The installed Werkzeug's HTTP exceptions; a ConfigError when Werkzeug cannot be found or read."""
    module = resolver.modules.module(MODULE) if resolver.modules is not None else None
    if module is None:
        raise ConfigError(
            f"cannot find {MODULE} where docgen reads installed packages: the Flask adapter reads the status "
            "and description of each HTTP exception from the Werkzeug the server runs with",
            hint="install the server's dependencies (Flask brings Werkzeug) where docgen runs",
        )
    own = {
        member.name: member
        for member in module.members.values()
        if isinstance(member, griffe.Class) and not member.is_alias
    }
    classes: dict[str, WerkzeugClass] = {}
    by_status: dict[int, str] = {}
    for name in own:  # in the order the module defines them, as `default_exceptions` is filled
        chain = _chain(name, own)
        if BASE.rpartition(".")[2] not in chain:
            continue
        code = _first(chain, own, "code", resolver)
        description = _first(chain, own, "description", resolver)
        path = f"{MODULE}.{name}"
        status = code if isinstance(code, int) else None
        classes[path] = WerkzeugClass(path, status, description if isinstance(description, str) else "")
        earlier = by_status.get(status) if status is not None else None
        if status is not None and (earlier is None or earlier.rpartition(".")[2] not in chain):
            by_status[status] = path
    return WerkzeugExceptions(classes, by_status)


def _chain(name: str, own: dict[str, griffe.Class]) -> list[str]:
    """`name` and its base classes defined in the module, nearest first (single inheritance, first base)."""
    chain = [name]
    while len(chain) < len(own):
        bases = [str(base) for base in own[chain[-1]].bases]
        nearest = next((base for base in bases if base in own), None)
        if nearest is None or nearest in chain:
            break
        chain.append(nearest)
    return chain


def _first(chain: list[str], own: dict[str, griffe.Class], attribute: str, resolver: Resolver) -> object:
    """The value of `attribute` on the nearest class of `chain` that sets it, or None."""
    for name in chain:
        member = own[name].members.get(attribute)
        if isinstance(member, griffe.Attribute) and member.value is not None:
            try:
                return resolver.constant(member).value
            except (Unresolvable, SourceError):
                return _literal(str(member.value))
    return None


def _literal(text: str) -> object:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return None
