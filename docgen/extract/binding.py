"""Which argument of a constructor call gives each field: Python's own binding, followed through forwarding.

A position in an argument map counts the arguments a caller writes, after `self` or `cls`. A field mapped to a
keyword is found by keyword or by position, and one mapped to a position by position or by its parameter's
keyword, as Python binds them. A constructor that passes its arguments on to another (a subclass's
`super().__init__(404, msg)`, a helper that calls the configured function) takes the fields its own map leaves
out from that call: a value it fixes comes from it, a parameter it passes on from the caller's argument. A
field mapped to a name that is no parameter of a class's constructor is read from the class attribute of that
name (`class NotFound(ApiError): status_code = 404`), the called class's own before its bases'.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import field

import griffe

from docgen.core.errors import SourceError
from docgen.core.records import record
from docgen.core.settings import ArgumentRef

MAX_FORWARDS = 8
"""How many `super().__init__` calls one field is followed through (subclass of a subclass of ...)."""


class ForwardedTooFar(SourceError):
    """A constructor whose `super().__init__` calls go further than MAX_FORWARDS before a field's argument
    is mapped; the caller locates it at the constructor call it was reading."""

    def __init__(self, constructor: str, role: str) -> None:
        super().__init__(
            f"the {role} of {constructor}() is passed on through more than {MAX_FORWARDS} super().__init__ "
            f"calls; docgen follows at most {MAX_FORWARDS}",
            hint="give the classes fewer levels between the one called and the configured constructor",
        )


@record
class Parameter:
    """A parameter a caller passes, after `self`/`cls`; `default` as source text, None when required."""

    name: str
    default: str | None = None
    keyword_only: bool = False
    variadic: bool = False


@record
class Forward:
    """A subclass's `super().__init__(...)` call, and the constructor it reaches."""

    call: ast.Call
    target: Constructor


@record
class Constructor:
    """One way of building an error, as calls name it."""

    name: str
    """The name calls use: the last part of `Class.method`, or the class name."""
    configured: str
    """The name it was configured by (for a subclass: its own name)."""
    obj: griffe.Object
    """The function, method or class itself."""
    module: griffe.Module
    """Where its defaults and the arguments of its forwarding call are evaluated."""
    parameters: tuple[Parameter, ...]
    arguments: Mapping[str, ArgumentRef] = field(default_factory=dict)
    forward: Forward | None = None
    attributes: Mapping[str, tuple[str, griffe.Module]] = field(default_factory=dict)
    """For a class: its class attributes with a value, its own before its bases' (name -> the value as
    source text, and the module it is evaluated in). A field mapped to a name that no parameter has is read
    here."""


@record
class Bound:
    """The expression that gives a field at one call: source text of a default, or a node of a call."""

    node: ast.expr | str
    module: griffe.Module


def bind(
    constructor: Constructor,
    call: ast.Call,
    role: str,
    scope: griffe.Module,
    depth: int = 0,
    called: Constructor | None = None,
) -> Bound | None:
    """The expression of `call` (made in `scope`) that gives `role`, else the default that does, else the
    class attribute of that name of the class called (`called`: the subclass whose `__init__` forwarded to
    `constructor`); None when the configuration maps no argument to `role`."""
    called = called or constructor
    ref = constructor.arguments.get(role)
    forward = constructor.forward
    if ref is None and forward is not None:
        if depth >= MAX_FORWARDS:
            raise ForwardedTooFar(called.name, role)
        inner = bind(forward.target, forward.call, role, constructor.module, depth + 1, called)
        names = {parameter.name for parameter in constructor.parameters}
        passed_on = inner is not None and isinstance(inner.node, ast.Name) and inner.node.id in names
        if passed_on and inner is not None and isinstance(inner.node, ast.Name):
            return _bind_parameter(constructor, call, inner.node.id, scope, called)
        return inner
    if ref is None:
        return None
    if isinstance(ref, str):
        return _bind_parameter(constructor, call, ref, scope, called)
    variadic = next((i for i, p in enumerate(constructor.parameters) if p.variadic), None)
    args = _positional(call)
    if ref < len(args):
        return Bound(args[ref], scope)
    unpacked = _unpacked(call, positional=True)
    if unpacked is not None:
        return Bound(unpacked, scope)  # `*args` at the call: the value is known only at run time
    if variadic is not None and ref >= variadic:
        return None
    parameters = constructor.parameters
    if ref >= len(parameters):
        return None
    return _bind_parameter(constructor, call, parameters[ref].name, scope, called)


def maps(constructor: Constructor, role: str) -> bool:
    """Whether some argument map on the way gives `role`."""
    first = constructor
    for _ in range(MAX_FORWARDS + 1):
        if role in constructor.arguments:
            return True
        if constructor.forward is None:
            return False
        constructor = constructor.forward.target
    raise ForwardedTooFar(first.name, role)


def _positional(call: ast.Call) -> list[ast.expr]:
    """The call's positional arguments, up to a `*args` (after which positions cannot be told)."""
    args: list[ast.expr] = []
    for argument in call.args:
        if isinstance(argument, ast.Starred):
            break
        args.append(argument)
    return args


def _unpacked(call: ast.Call, *, positional: bool) -> ast.expr | None:
    """The call's `*args` (when a position may come from it) or else its `**kwargs`, if it has one."""
    if positional:
        starred = next((a for a in call.args if isinstance(a, ast.Starred)), None)
        if starred is not None:
            return starred
    return next((k.value for k in call.keywords if k.arg is None), None)


def _bind_parameter(
    constructor: Constructor, call: ast.Call, name: str, scope: griffe.Module, called: Constructor
) -> Bound | None:
    for keyword in call.keywords:
        if keyword.arg == name:
            return Bound(keyword.value, scope)
    parameters = constructor.parameters
    index = next((i for i, p in enumerate(parameters) if p.name == name), None)
    if index is None:
        attribute = called.attributes.get(name) or constructor.attributes.get(name)
        return None if attribute is None else Bound(*attribute)
    args = _positional(call)
    if not parameters[index].keyword_only and index < len(args):
        return Bound(args[index], scope)
    unpacked = _unpacked(call, positional=not parameters[index].keyword_only)
    if unpacked is not None:
        return Bound(unpacked, scope)  # `*args` or `**kwargs` at the call: known only at run time
    default = parameters[index].default
    return None if default is None else Bound(default, constructor.module)
