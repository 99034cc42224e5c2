"""Messages a method looks up in a dict its class declares: `self.error_messages["no_active_account"]`,
where REST framework builds `error_messages` from the `default_error_messages` of the serializer's classes
(`default_error_messages = {"no_active_account": _("No active account found ...")}`). A framework names
such dicts in `instance_dicts` (the instance attribute -> the class attribute that fills it); a lookup by a
constant key is replaced by the value written in the nearest class of the source that has the key, so the
message reads as if written at the raise. Anything else is left as it is (a template)."""

from __future__ import annotations

import ast
from collections.abc import Mapping

from docgen.extract.members import first_parameter
from docgen.extract.program import Code, Program


def with_class_messages(call: ast.Call, code: Code, program: Program, dicts: Mapping[str, str]) -> ast.Call:
    """`call` with each argument that looks a message up in such a dict replaced by the value; `call`
    itself when none does."""
    owner = code.path.rpartition(".")[0]
    if not dicts or program.klass(owner) is None or first_parameter(code.node) != "self":
        return call

    def value(node: ast.expr) -> ast.expr:
        if not (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Attribute)
            and isinstance(node.value.value, ast.Name)
            and node.value.value.id == "self"
            and node.value.attr in dicts
            and isinstance(node.slice, ast.Constant)
        ):
            return node
        found = _declared(program, owner, dicts[node.value.attr], node.slice.value)
        return ast.copy_location(found, node) if found is not None else node

    arguments = [value(argument) for argument in call.args]
    keywords = [ast.keyword(arg=k.arg, value=value(k.value)) for k in call.keywords]
    if all(new is old for new, old in zip(arguments, call.args, strict=True)) and all(
        new.value is old.value for new, old in zip(keywords, call.keywords, strict=True)
    ):
        return call
    return ast.copy_location(ast.Call(call.func, arguments, keywords), call)


def _declared(program: Program, owner: str, attribute: str, key: object) -> ast.expr | None:
    """The value under `key` of the dict literal `attribute` of the nearest class of `owner`'s ancestry
    that declares the key."""
    for path in program.ancestry(owner):
        node = program.trees.classes.get(path)
        for statement in node.body if node is not None else []:
            if (
                isinstance(statement, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == attribute for t in statement.targets)
                and isinstance(statement.value, ast.Dict)
            ):
                for name, item in zip(statement.value.keys, statement.value.values, strict=True):
                    if isinstance(name, ast.Constant) and name.value == key:
                        return item
    return None
