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

What it buys is measured in benchmarks/notes.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform

_T = TypeVar("_T")


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: type[_T]) -> type[_T]:
    """Make `cls` a record: a dataclass with only its `__init__` generated (see the module docstring)."""
    for method in ("__eq__", "__hash__", "__repr__"):
        if method in cls.__dict__:
            raise TypeError(f"@record gives {cls.__qualname__} its {method}; remove the one it defines")
    made: Any = dataclasses.dataclass(eq=False, repr=False)(cls)
    fields = dataclasses.fields(made)
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
