"""The detail an exception's `__init__` puts in a dict it builds and passes on to its base, as REST framework
packages do to add a code to the body (Simple JWT's `DetailDictMixin`):

    def __init__(self, detail=None, code=None):
        detail_dict = {"detail": self.default_detail, "code": self.default_code}
        if isinstance(detail, dict):
            detail_dict.update(detail)
        elif detail is not None:
            detail_dict["detail"] = detail
        super().__init__(detail_dict)

The client gets the raise's own text when it passes one (`AuthenticationFailed(_("User not found"))`), the
dict's text when it passes a dict (`InvalidToken({"detail": ..., "messages": ...})`), else the dict literal's
value (`self.default_detail`: the class attribute, which the caller reads as the detail left out).
"""

from __future__ import annotations

import ast
from typing import Literal

from docgen.extract.calls import FunctionNode
from docgen.extract.responses import argument

Where = Literal["raise", "init"]


def built_detail(init: FunctionNode, name: str, call: ast.Call, key: str) -> tuple[ast.expr | None, Where]:
    """The node that gives the detail under `key` of the dict `name` that `init` builds, and where it is
    written (the raise, or the `__init__`); None (from the `__init__`): the class attribute's default. A
    name `init` binds to anything but a dict literal is given back as it is."""
    literal = _literal(init, name)
    if literal is None:  # not a dict the `__init__` builds: read as written
        return ast.Name(id=name, ctx=ast.Load()), "init"
    parameters = [a.arg for a in [*init.args.posonlyargs, *init.args.args]][1:]
    overriding = _overriding(init, name, key)
    if overriding is not None and overriding in parameters:
        given = argument(call, (parameters.index(overriding), overriding))
        if isinstance(given, ast.Dict):
            inner = _value(given, key)
            if inner is not None:
                return inner, "raise"
        elif given is not None and not (isinstance(given, ast.Constant) and given.value is None):
            return given, "raise"
    value = _value(literal, key)
    if value is None or _is_self_attribute(value):
        return None, "init"
    return value, "init"


def _literal(init: FunctionNode, name: str) -> ast.Dict | None:
    for statement in ast.walk(init):
        if (
            isinstance(statement, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name for t in statement.targets)
            and isinstance(statement.value, ast.Dict)
        ):
            return statement.value
    return None


def _overriding(init: FunctionNode, name: str, key: str) -> str | None:
    """The parameter assigned to `name[key]` in `init` (`detail_dict["detail"] = detail`), if any."""
    for statement in ast.walk(init):
        if not isinstance(statement, ast.Assign) or not isinstance(statement.value, ast.Name):
            continue
        for target in statement.targets:
            if (
                isinstance(target, ast.Subscript)
                and isinstance(target.value, ast.Name)
                and target.value.id == name
                and isinstance(target.slice, ast.Constant)
                and target.slice.value == key
            ):
                return statement.value.id
    return None


def _value(literal: ast.Dict, key: str) -> ast.expr | None:
    for name, value in zip(literal.keys, literal.values, strict=True):
        if isinstance(name, ast.Constant) and name.value == key:
            return value
    return None


def _is_self_attribute(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"
