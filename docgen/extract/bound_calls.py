"""What a local name of a function stands for when the function returns or raises it: the call assigned
to it (`response = Response("Too big", status=413)`, then `return response`) and a status set on it on the
way (`response.status_code = 401`), read from the function's own body, statement by statement, never by
running it."""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from docgen.extract.calls import FunctionNode


def own_nodes(node: FunctionNode) -> Iterator[ast.AST]:
    """The nodes of a function's own body, not those of functions or classes defined inside it."""
    stack: list[ast.AST] = list(reversed(node.body))
    while stack:
        current = stack.pop()
        yield current
        if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(current))))


def bound_call(value: ast.expr, node: FunctionNode, at: ast.stmt) -> ast.Call | None:
    """For a local name, the call assigned to it last before the statement `at` in the same block
    (`response = Response(...)`, then `return response`), else the call of its only assignment in the
    function; None when neither tells its value."""
    if not isinstance(value, ast.Name):
        return None
    block = next((b for b in _blocks(node) if any(s is at for s in b)), [])
    for statement in reversed(block[: next((i for i, s in enumerate(block) if s is at), 0)]):
        if isinstance(statement, ast.Assign) and _assigns(statement, value.id):
            return statement.value if isinstance(statement.value, ast.Call) else None
    assigned = [
        inner for inner in own_nodes(node) if isinstance(inner, ast.Assign) and _assigns(inner, value.id)
    ]
    only = assigned[0].value if len(assigned) == 1 else None
    return only if isinstance(only, ast.Call) else None


def _assigns(statement: ast.Assign, name: str) -> bool:
    return any(isinstance(target, ast.Name) and target.id == name for target in statement.targets)


def _blocks(node: FunctionNode) -> Iterator[list[ast.stmt]]:
    """Every list of statements of a function's own body: the body, and the blocks of the statements in it
    (those of nested functions and classes left out, as `own_nodes` leaves them)."""
    yield node.body
    for inner in own_nodes(node):
        if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for field in ("body", "orelse", "finalbody"):
            block = getattr(inner, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield block


def set_status(value: ast.expr, node: FunctionNode, at: ast.stmt) -> ast.expr | None:
    """The status the statements before `at` in its block last set on the local name `value`
    (`response.status_code = 401` or `response.status = 401`), after it was last assigned; None if none."""
    if not isinstance(value, ast.Name):
        return None
    block = next((b for b in _blocks(node) if any(s is at for s in b)), [])
    for statement in reversed(block[: next((i for i, s in enumerate(block) if s is at), 0)]):
        if isinstance(statement, ast.Assign) and _assigns(statement, value.id):
            return None
        if isinstance(statement, ast.Assign) and any(
            isinstance(t, ast.Attribute)
            and t.attr in ("status_code", "status")
            and isinstance(t.value, ast.Name)
            and t.value.id == value.id
            for t in statement.targets
        ):
            return statement.value
    return None


def with_local_dicts(call: ast.Call, node: FunctionNode) -> ast.Call:
    """`call` with each argument that is a local name bound once in the function to a dict replaced by that
    dict (`body = {"error": "No such item"}`, then `json_response(body, status=404)`)."""
    bound: dict[str, list[ast.expr]] = {}
    for inner in own_nodes(node):
        if isinstance(inner, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = inner.targets if isinstance(inner, ast.Assign) else [inner.target]
            for target in targets:
                if isinstance(target, ast.Name) and inner.value is not None:
                    bound.setdefault(target.id, []).append(inner.value)

    def local(value: ast.expr) -> ast.expr:
        found = bound.get(value.id, []) if isinstance(value, ast.Name) else []
        return found[0] if len(found) == 1 and isinstance(found[0], ast.Dict) else value

    made = copy.copy(call)
    made.args = [local(argument) for argument in call.args]
    made.keywords = [ast.keyword(k.arg, local(k.value)) for k in call.keywords]
    return made
