"""The dependencies a FastAPI operation runs, as written: `Depends(f)` and `Security(f)` in a function's
parameters (their defaults, or inside `Annotated[...]`, written inline or through a module-level alias such
as `CurrentUser = Annotated[User, Depends(get_current_user)]`) and in `dependencies=[...]` lists."""

from __future__ import annotations

import ast
from collections.abc import Iterator

import griffe

from docgen.extract.program import Code, Program
from docgen.extract.targets import final_target, instance_class
from docgen.extract.type_aliases import alias_value

DEPENDS = {"fastapi.Depends", "fastapi.Security", "fastapi.params.Depends", "fastapi.params.Security"}
DEPENDS = DEPENDS | {"fastapi.param_functions.Depends", "fastapi.param_functions.Security"}


def parameter_dependencies(program: Program, code: Code) -> list[Code]:
    """The dependencies `code` declares in its parameters, in order, each once."""
    arguments = code.node.args
    parts: list[ast.expr] = [*arguments.defaults, *(d for d in arguments.kw_defaults if d is not None)]
    for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
        if argument.annotation is not None:
            parts.append(argument.annotation)
    found: list[Code] = []
    for part in parts:
        for call, module in _calls(program, part, code.module, MAX_ALIAS_DEPTH):
            dependency = depends_target(program, call, module)
            if dependency is not None and dependency not in found:
                found.append(dependency)
    return found


MAX_ALIAS_DEPTH = 4
"""How many aliases deep an annotation is followed (`A = Annotated[B, ...]` with `B` itself an alias):
applications write one, rarely two; a deeper chain is left where it stops."""


def _calls(
    program: Program, node: ast.expr, module: griffe.Module, depth: int
) -> Iterator[tuple[ast.Call, griffe.Module]]:
    """The calls written in `node`, and in the module-level aliases it names (an annotation `CurrentUser`
    stands for the `Annotated[...]` it is assigned), each with the module its names are read in."""
    for inner in ast.walk(node):
        if isinstance(inner, ast.Call):
            yield inner, module
        elif isinstance(inner, ast.Name | ast.Attribute) and depth > 0:
            alias = alias_value(program, program.qualify(inner, module))
            if alias is not None:
                yield from _calls(program, alias[0], alias[1], depth - 1)


def depends_target(program: Program, call: ast.Call, module: griffe.Module) -> Code | None:
    """The code a `Depends(f)` or `Security(f)` call runs, when it is in the loaded source: `f`; for
    `Depends(factory(...))` the function the factory defines and returns; for `Depends(Checker(...))`, and
    for `Depends(checker)` with `checker` a module-level instance, the class's `__call__`."""
    if program.qualify(call.func, module) not in DEPENDS:
        return None
    target = (
        call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "dependency"), None)
    )
    if isinstance(target, ast.Call):
        made = program.qualify(target.func, module)
        called = program.function(f"{made}.__call__") if program.klass(made) is not None else None
        if called is not None:  # `Depends(RoleChecker(UserRole.ADMIN))`: the instance's `__call__` runs
            return program.code(called)
        factory = program.function(made)
        return program.returned_function(factory) if factory is not None else None
    path = program.qualify(target, module) if target is not None else None
    function = program.function(path) or program.function(f"{path}.__init__") or _instance_call(program, path)
    return program.code(function) if function is not None else None


def _instance_call(program: Program, path: str | None) -> griffe.Function | None:
    """The `__call__` of the class (or a base of it) of a module-level instance: `Depends(authenticate)`
    with `authenticate = Authenticator()` runs `Authenticator.__call__`."""
    held = program.objects.get(path or "")
    cls = instance_class(held, final_target) if isinstance(held, griffe.Attribute) else None
    for base in program.ancestry(cls.path) if cls is not None else ():
        method = program.function(f"{base}.__call__")
        if method is not None:
            return method
    return None
