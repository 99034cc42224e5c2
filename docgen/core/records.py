"""`@record`: how docgen declares its typed values (catalog entries, notes, evidence, findings, sites).

A record is a dataclass (with dataclass fields, `dataclasses.replace` and `dataclasses.fields`) that the type
checker treats as frozen, and that compares, hashes and prints by its fields as a frozen dataclass does.

Why not `@dataclass(frozen=True)`: on Python 3.11 that decorator compiles six methods from generated source
for each class (`__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__` and `__delattr__`), about a
millisecond a class. docgen defines some sixty such classes and every run pays for them before it does
anything: a tenth of a `docgen check` of this repository went there. A record has only the generated
`__init__`. Its equality, hash and `repr` are three functions written once below, which read the compared
fields through an `operator.attrgetter` made with the class. So:

- equality, hashing and `repr` honour `field(compare=False)`, `field(hash=...)` and `field(repr=False)` as a
  dataclass does, and two records are equal only when they are of the same class;
- immutability is checked by mypy (assigning to a field is an error there), not at run time. Nothing in docgen
  assigns to a record's field: `dataclasses.replace` makes a changed copy.

Nor is the `__init__` compiled from source for each class, as `dataclasses` does: that was still half of
what declaring a record cost. It is made from a code object compiled once per shape (how many fields, and
which take a default factory or are not parameters), renamed to the class's fields with `CodeType.replace`;
plain defaults are the function's `__defaults__`. The function does what dataclasses' would: assign each
field in order, calling a default factory when its argument is left out.

What it buys is measured in benchmarks/notes.md.
"""

from __future__ import annotations

import builtins
import dataclasses
import inspect
from collections.abc import Callable
from functools import cache
from operator import attrgetter
from types import CodeType, FunctionType
from typing import Any, TypeVar, dataclass_transform

_T = TypeVar("_T")


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: type[_T]) -> type[_T]:
    """Make `cls` a record: a dataclass with only its `__init__` generated (see the module docstring)."""
    for method in ("__eq__", "__hash__", "__repr__"):
        if method in cls.__dict__:
            raise TypeError(f"@record gives {cls.__qualname__} its {method}; remove the one it defines")
    undocumented = not cls.__doc__
    if undocumented:  # dataclasses would read the signature of a class that has no `__init__` of its own yet
        cls.__doc__ = cls.__name__
    made: Any = dataclasses.dataclass(init=False, eq=False, repr=False)(cls)
    fields = dataclasses.fields(made)
    made.__init__ = _init(made, fields)
    if undocumented:  # the text dataclasses gives such a class: its name and its signature
        made.__doc__ = made.__name__ + str(inspect.signature(made)).replace(" -> None", "")
    # staticmethod: a getter made by a lambda would otherwise be bound to the record it is called on
    made._record_compared = staticmethod(_getter([f.name for f in fields if f.compare]))
    hashed = [f.name for f in fields if (f.compare if f.hash is None else f.hash)]
    made._record_hashed = staticmethod(_getter(hashed))
    made._record_shown = tuple(f.name for f in fields if f.repr)
    made.__eq__, made.__hash__, made.__repr__ = _eq, _hash, _repr
    return cls


def _eq(self: Any, other: Any) -> object:  # a bool, or NotImplemented for another class
    if other.__class__ is not self.__class__:
        return NotImplemented
    compared = self._record_compared
    return compared(self) == compared(other)


def _hash(self: Any) -> int:
    return hash(self._record_hashed(self))


def _repr(self: Any) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._record_shown)
    return f"{self.__class__.__qualname__}({shown})"


def _getter(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving the named attributes as one tuple (attrgetter gives a bare value for one name)."""
    if not names:
        return lambda _: ()
    if len(names) == 1:
        single = attrgetter(names[0])
        return lambda obj: (single(obj),)
    return attrgetter(*names)


_ARGUMENT, _FACTORY, _FIXED, _FIXED_FACTORY = "a", "f", "d", "df"
"""How `__init__` sets a field: from its argument, from its argument or else its default factory, or (for a
field that is not a parameter) from its default factory, or not at all where the class attribute holds its
default (as dataclasses does)."""


class _LeftOut:
    def __repr__(self) -> str:
        return "<factory>"  # as dataclasses shows such a default in a signature


_LEFT_OUT = _LeftOut()
"""The default of a parameter whose field has a default factory: the factory is called when it is left out."""


def _init(cls: type[Any], fields: tuple[dataclasses.Field[Any], ...]) -> Callable[..., None]:
    """The `__init__` of record class `cls`, made from the template for its shape."""
    shape = tuple(_how(f) for f in fields)
    names = {f"_param_{i}": f.name for i, f in enumerate(fields)}
    names |= {f"_field_{i}": f.name for i, f in enumerate(fields)}
    template = _template(shape)
    code = template.replace(
        co_varnames=tuple(names.get(name, name) for name in template.co_varnames),
        co_names=tuple(names.get(name, name) for name in template.co_names),
        co_qualname=f"{cls.__qualname__}.__init__",
    )
    scope: dict[str, Any] = {"__builtins__": builtins, "_LEFT_OUT": _LEFT_OUT}
    for i, f in enumerate(fields):
        scope[f"_factory_{i}"] = f.default_factory
    made = FunctionType(code, scope, "__init__", _defaults(cls, fields, shape))
    made.__qualname__ = code.co_qualname
    made.__module__ = cls.__module__
    made.__annotations__ = {f.name: f.type for f in fields if f.init} | {"return": None}
    return made


def _defaults(
    cls: type[Any], fields: tuple[dataclasses.Field[Any], ...], shape: tuple[str, ...]
) -> tuple[Any, ...] | None:
    """The defaults of the trailing parameters, refusing a parameter without one after one with one."""
    defaults: list[Any] = []
    for f, how in zip(fields, shape, strict=True):
        if how == _FACTORY:
            defaults.append(_LEFT_OUT)
        elif how == _ARGUMENT and f.default is not dataclasses.MISSING:
            defaults.append(f.default)
        elif how == _ARGUMENT and defaults:
            raise TypeError(f"{cls.__qualname__}: non-default argument {f.name!r} follows default argument")
    return tuple(defaults) or None


def _how(f: dataclasses.Field[Any]) -> str:
    factory = f.default_factory is not dataclasses.MISSING
    if not f.init:
        return _FIXED_FACTORY if factory else _FIXED
    if factory:
        return _FACTORY
    return _ARGUMENT


@cache
def _template(shape: tuple[str, ...]) -> CodeType:
    """The code of an `__init__` for `shape`, with placeholder names (which parameters have a plain default
    is not part of the shape: the function's `__defaults__` says that)."""
    params = [f"_param_{i}" for i, how in enumerate(shape) if how in (_ARGUMENT, _FACTORY)]
    lines = []
    for i, how in enumerate(shape):
        value = {
            _ARGUMENT: f"_param_{i}",
            _FACTORY: f"_factory_{i}() if _param_{i} is _LEFT_OUT else _param_{i}",
            _FIXED_FACTORY: f"_factory_{i}()",
        }.get(how)
        if value is not None:  # a field that is not a parameter, with a plain default: the class holds it
            lines.append(f"    self._field_{i} = {value}")
    source = f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(lines) or "    pass") + "\n"
    scope: dict[str, Any] = {}
    exec(compile(source, "<record __init__>", "exec"), scope)  # docgen's own text, never an input
    code: CodeType = scope["__init__"].__code__
    return code
