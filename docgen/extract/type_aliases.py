"""Module-level type aliases, which applications write to name an injected value once and use it in many
signatures: `CurrentUser = Annotated[User, Depends(get_current_user)]`, `UserSvc: TypeAlias =
Annotated[UserService, Depends(get_user_service)]`. A parameter annotated `user_service: UserSvc` then
holds a `UserService`, and runs the dependency, as if the alias were written out; the dependency readers of
the frameworks and the walk over methods (`raises`) follow an alias through here.
"""

from __future__ import annotations

import ast

import griffe

from docgen.extract.local_names import annotated_class
from docgen.extract.program import Program


def alias_value(program: Program, path: str | None) -> tuple[ast.expr, griffe.Module] | None:
    """The subscript a module-level name is assigned (`X = Annotated[...]`, or `X: TypeAlias =
    Annotated[...]`), with its module; None for any other name."""
    attribute = program.objects.get(path) if path else None
    module = attribute.parent if isinstance(attribute, griffe.Attribute) else None
    if attribute is None or not isinstance(module, griffe.Module):
        return None
    tree = program.trees.modules.get(module.path)
    for statement in tree.body if tree is not None else ():
        if isinstance(statement, ast.Assign):
            targets, value = statement.targets, statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            targets, value = [statement.target], statement.value
        else:
            continue
        if isinstance(value, ast.Subscript) and any(
            isinstance(t, ast.Name) and t.id == attribute.name for t in targets
        ):
            return value, module
    return None


def aliased_class(program: Program, path: str | None) -> griffe.Class | None:
    """The one class of the loaded source a module-level alias at `path` names (`UserSvc = Annotated[
    UserService, Depends(...)]` names `UserService`), or None."""
    alias = alias_value(program, path)
    named = annotated_class(alias[0]) if alias is not None else None
    return (
        program.klass(program.qualify(named, alias[1])) if alias is not None and named is not None else None
    )
