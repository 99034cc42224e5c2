"""Values read from a settings object: an attribute of a module-level instance (`settings = Settings()`,
then `settings.API_V1_STR`) stands for the default its class declares for that field, because that is what
the instance holds unless something else gives it one (the environment, for pydantic's `BaseSettings`; an
`.env` file).

A default is therefore never taken as a fact: each value read this way is an `Assumed`, carried beside the
value (`Resolved.assumed`, in `docgen.extract.resolve`) so that a catalog can say which of its values
hold only while the environment leaves the default alone. A field is read from the class the instance is
made from, its own declaration or a base class's: `NAME: str = "/api/v1"` (pydantic fields, dataclass
fields, plain class attributes), `Field("/api/v1")`, `Field(default="/api/v1")` and
`dataclasses.field(default=...)`; a keyword the instance is made with (`Settings(API_V1_STR="/v2")`) is
the code's own value, not an assumption. A field declared without a default, with a `default_factory`, a
property, or an instance made any other way (`settings = get_settings()`) is `Unresolvable`, with the
reason: docgen cannot know it, and says so rather than guess.
"""

from __future__ import annotations

import ast

import griffe

from docgen.extract.calls import unparse
from docgen.extract.resolve import InstanceField, Resolver, Unresolvable

_FIELD_CALLS = frozenset({"Field", "field"})
"""The callables that wrap a field's default (pydantic's `Field`, the dataclasses module's `field`), named
as they are written, with or without their module."""


def instance_field(
    resolver: Resolver, instance: griffe.Attribute, name: str, node: ast.expr
) -> InstanceField:
    """The field `name` of the module-level instance `instance`, as written at `node` (a
    `Resolver.instances` reader)."""
    shown = unparse(node)
    made = _parsed(instance.value)
    if not isinstance(made, ast.Call) or instance.parent is None:
        raise Unresolvable(shown, f"`{instance.name}` is not made by calling a class where it is defined")
    given = next((k.value for k in made.keywords if k.arg == name), None)
    if given is not None:
        return InstanceField(shown, given, instance.parent, None)
    try:
        klass = resolver.reference(unparse(made.func), instance.parent)
    except Unresolvable:
        klass = None
    if not isinstance(klass, griffe.Class):
        raise Unresolvable(shown, f"`{unparse(made.func)}` is not a class of the loaded source")
    for owner in _lineage(klass):
        declared = owner.members.get(name)
        if isinstance(declared, griffe.Attribute):
            return InstanceField(shown, _default(declared, shown), owner, f"default of {declared.path}")
        if declared is not None:
            raise Unresolvable(shown, f"`{declared.path}` is a {declared.kind.value}, computed at run time")
    raise Unresolvable(shown, f"{klass.path} declares no field `{name}`")


def _lineage(klass: griffe.Class) -> list[griffe.Class]:
    """`klass` and its base classes that griffe can resolve, nearest first."""
    try:
        return [klass, *klass.mro()]
    except (ValueError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return [klass]


def _default(declared: griffe.Attribute, shown: str) -> ast.expr:
    """The expression of the default `declared` gives its field."""
    value = _parsed(declared.value)
    if value is None:
        raise Unresolvable(shown, f"{declared.path} has no default: only the environment gives it")
    if isinstance(value, ast.Call) and _called_name(value.func) in _FIELD_CALLS:
        keywords = {k.arg: k.value for k in value.keywords if k.arg}
        given = keywords.get("default", value.args[0] if value.args else None)
        if given is None or (isinstance(given, ast.Constant) and given.value is Ellipsis):
            raise Unresolvable(shown, f"{declared.path} has no default: only the environment gives it")
        return given
    return value


def _called_name(func: ast.expr) -> str | None:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def _parsed(value: str | griffe.Expr | None) -> ast.expr | None:
    if value is None:
        return None
    try:
        return ast.parse(str(value), mode="eval").body
    except SyntaxError:
        return None
