"""The wrappers a function's decorators put around it, when the loaded source defines them.

A decorator such as `login_required` is a function that returns an inner `wrapper`; the request goes through
the wrapper's body before it reaches the route's own, so what the wrapper raises (`abort(401)`) is an error
of the route as much as a dependency's is. Here a decorator written as a name (`@login_required`) stands for
the function the named decorator returns, and one written as a call (`@requires_role("admin")`) for the
function the decorator that its factory returns returns in turn. A decorator docgen cannot read this way (a
class, a library's, one that returns its argument unchanged) adds nothing: its calls run no code of the
loaded source to follow.
"""

from __future__ import annotations

import ast

import griffe

from docgen.extract.calls import FunctionNode
from docgen.extract.program import Code, Program


def decorator_wrappers(program: Program, code: Code) -> list[Code]:
    """The wrappers of `code`'s decorators, outermost first (the order a request passes through them)."""
    found = []
    for decorator in code.node.decorator_list:
        wrapper = wrapper_of(program, decorator, code.module)
        if wrapper is not None and wrapper not in found:
            found.append(wrapper)
    return found


def wrapper_of(program: Program, decorator: ast.expr, module: griffe.Module) -> Code | None:
    """The wrapper function `decorator` (an expression written in `module`) puts around what it decorates,
    or None when the loaded source does not define one."""
    factory = decorator.func if isinstance(decorator, ast.Call) else decorator
    function = program.function(program.qualify(factory, module))
    if function is None:
        return None
    made = program.code(function)
    if isinstance(decorator, ast.Call):  # a factory: the decorator is what it returns
        inner = _returned(made)
        if inner is None:
            return None
        made = inner
    return _returned(made)


def _returned(code: Code) -> Code | None:
    """The function `code` defines in its own body and returns (`def wrapper(...): ...; return wrapper`)."""
    defined: dict[str, FunctionNode] = {
        s.name: s for s in code.node.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    for statement in code.node.body:
        if isinstance(statement, ast.Return) and isinstance(statement.value, ast.Name):
            inner = defined.get(statement.value.id)
            if inner is not None:
                return Code(f"{code.path}.{inner.name}", inner, code.module)
    return None
