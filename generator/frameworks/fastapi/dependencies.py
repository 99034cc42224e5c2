"""The dependencies a FastAPI operation runs, as written: `Depends(f)` and `Security(f)` in a function's
parameters (their defaults, or inside `Annotated[...]`) and in `dependencies=[...]` lists."""

from __future__ import annotations

import ast

import griffe

from generator.extract.program import Code, Program

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
        for call in (n for n in ast.walk(part) if isinstance(n, ast.Call)):
            dependency = depends_target(program, call, code.module)
            if dependency is not None and dependency not in found:
                found.append(dependency)
    return found


def depends_target(program: Program, call: ast.Call, module: griffe.Module) -> Code | None:
    """The code a `Depends(f)` or `Security(f)` call runs, when it is in the loaded source: `f`, or for
    `Depends(factory(...))` the function the factory defines and returns."""
    if program.qualify(call.func, module) not in DEPENDS:
        return None
    target = (
        call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "dependency"), None)
    )
    if isinstance(target, ast.Call):
        factory = program.function(program.qualify(target.func, module))
        return program.returned_function(factory) if factory is not None else None
    path = program.qualify(target, module) if target is not None else None
    function = program.function(path) or program.function(f"{path}.__init__")
    return program.code(function) if function is not None else None
