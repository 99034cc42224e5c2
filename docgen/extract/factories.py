"""Exceptions made by a function and raised by its caller: `raise error_for(exc) from exc`, where
`error_for` returns `NotFoundException(...)` in one branch and `HTTPException(..., status_code=502)` in
another. Each exception such a function of the loaded source returns is a raise site of its own, at the
`return` that makes it, reached from every `raise` of a call of the function.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from docgen.extract.program import Code, Program


def returned_exceptions(program: Program, call: ast.Call, code: Code) -> Iterator[tuple[ast.Call, Code, int]]:
    """For a raised call of a function of the loaded source: each call it returns, with the function's code
    and the line of the `return`."""
    function = program.function(program.qualify(call.func, code.module))
    if function is None:
        return
    made = program.code(function)
    for node in _own_nodes(made.node):
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Call):
            yield node.value, made, node.lineno


def _own_nodes(node: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.AST]:
    """The nodes of a function's body, not those of the functions and classes it defines."""
    stack: list[ast.AST] = list(reversed(node.body))
    while stack:
        current = stack.pop()
        yield current
        if not isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            stack.extend(reversed(list(ast.iter_child_nodes(current))))
