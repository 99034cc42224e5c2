"""What a class's syntax says of its members that griffe's model does not: the getter of a property (griffe
keeps a property as an attribute, without its function), and the name a method gives its instance."""

from __future__ import annotations

import ast

from docgen.extract.calls import FunctionNode
from docgen.extract.program import Code, Program


def property_getter(program: Program, class_path: str, name: str) -> Code | None:
    """The getter of the property `name` the class at `class_path` defines in its own body
    (`@property def name(self)`), or None."""
    cls, node = program.klass(class_path), program.trees.classes.get(class_path)
    for statement in node.body if node is not None and cls is not None else []:
        if (
            isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef)
            and statement.name == name
            and any(isinstance(d, ast.Name) and d.id == "property" for d in statement.decorator_list)
        ):
            assert cls is not None
            return Code(f"{class_path}.{name}", statement, cls.module)
    return None


def first_parameter(node: FunctionNode) -> str | None:
    """The name of a function's first parameter (`self` for a method), or None."""
    arguments = [*node.args.posonlyargs, *node.args.args]
    return arguments[0].arg if arguments else None
