"""`cls(...)` in a classmethod: a call of the class that `cls` stands for.

`raise Conflict.for_item(item)`, where `for_item` is a classmethod that returns `cls(f"Item {item} exists")`,
builds a `Conflict`. Reach follows `Conflict.for_item(...)` into the method and notes the class it was called
on; here a `cls(...)` call in it becomes a call of that class (of the class that defines the method when the
call that led there does not say, as for `self.for_item(...)`), so that a subclass's class attributes and
`__init__` give its fields.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable, Collection

import griffe

from docgen.extract.calls import Call

CLS = "cls"


def defining_class(function: griffe.Function) -> str | None:
    """The name of the class `function` is a method of, if it is one."""
    return function.parent.name if isinstance(function.parent, griffe.Class) else None


def receiver_class(
    call: ast.Call, cls: str | None, lookup: Callable[[str], griffe.Object | None]
) -> str | None:
    """The class a method call is made on, when the call names it: `Conflict.method(...)` (`lookup` finds
    `Conflict` in the caller's module) or `cls.method(...)` (`cls`: what `cls` stands for in the caller)."""
    func = call.func
    if not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Name):
        return None
    if func.value.id == CLS:
        return cls
    found = lookup(func.value.id)
    return found.name if isinstance(found, griffe.Class) else None


class ClassCalls:
    """Turns `cls(...)` calls into calls of the constructor class `cls` stands for; each (call, class) is made
    once, so that a helper reached on several paths lists its call once per class."""

    def __init__(self, constructors: Collection[str]) -> None:
        self.constructors = constructors
        self._made: dict[tuple[int, str], tuple[ast.Call, ast.Call]] = {}

    def resolve(self, found: Call, cls: str | None) -> Call:
        """`found` as a call of the class `cls` names, when it is a `cls(...)` call of a constructor class."""
        call = found.call
        if not (isinstance(call.func, ast.Name) and call.func.id == CLS) or cls not in self.constructors:
            return found
        assert cls is not None
        key = (id(call), cls)
        if key not in self._made:  # the original is kept too, so that its id is not reused meanwhile
            name = ast.copy_location(ast.Name(id=cls, ctx=ast.Load()), call.func)
            made = ast.copy_location(ast.Call(func=name, args=call.args, keywords=call.keywords), call)
            self._made[key] = (call, made)
        return dataclasses.replace(found, call=self._made[key][1])
