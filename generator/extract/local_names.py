"""Local variables whose value can be told from the function's own text: `checks = Checks()`, bound once.

Extraction follows a method called on such a variable (`checks.more(...)`) into the class it was made from. A
name counts only when the function (its closures included) binds it exactly once, by assigning a call: a
second binding anywhere, or a binding docgen cannot read the value of, and the variable is left alone.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator


def dotted_name(node: ast.expr) -> str | None:
    """`a.b.C` for a chain of names and attributes; None for anything else."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def single_bindings(function: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, ast.Call]:
    """The names bound exactly once anywhere in `function` (closures included), by an assignment of a call
    (`name = f()`, `name: T = f()`, `(name := f())`), to that call. Any other binding (a parameter, a loop
    target, `with ... as`, `except ... as`, an import, a nested def, a `global` or `nonlocal`) makes a name
    count as bound by something that is not known statically."""
    calls: dict[str, ast.Call] = {}
    counts: dict[str, int] = {}
    for node in ast.walk(function):
        for bound, value in _bindings(node):
            counts[bound] = counts.get(bound, 0) + 1
            if isinstance(value, ast.Call):
                calls[bound] = value
    return {name: call for name, call in calls.items() if counts[name] == 1}


def _bindings(node: ast.AST) -> Iterator[tuple[str, ast.expr | None]]:
    """The names `node` binds, each with the call it assigns (None when it assigns something else)."""
    if isinstance(node, ast.Assign):
        value = node.value if len(node.targets) == 1 else None
        yield from ((name, value) for name in _stored(node.targets[0]))
        yield from ((name, None) for target in node.targets[1:] for name in _stored(target))
    elif isinstance(node, ast.AnnAssign | ast.NamedExpr):
        yield from ((name, node.value) for name in _stored(node.target))
    elif isinstance(node, ast.AugAssign | ast.For | ast.AsyncFor | ast.comprehension):
        yield from ((name, None) for name in _stored(node.target))
    elif isinstance(node, ast.withitem) and node.optional_vars is not None:
        yield from ((name, None) for name in _stored(node.optional_vars))
    elif isinstance(node, ast.Delete):
        yield from ((name, None) for target in node.targets for name in _stored(target))
    elif isinstance(node, ast.arg):
        yield node.arg, None
    elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name:
        yield node.name, None
    elif isinstance(node, ast.MatchMapping) and node.rest:
        yield node.rest, None
    elif isinstance(node, ast.alias):
        yield (node.asname or node.name).split(".")[0], None
    elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        yield node.name, None
    elif isinstance(node, ast.Global | ast.Nonlocal):
        yield from ((name, None) for name in node.names)


def _stored(target: ast.expr) -> Iterator[str]:
    """The names an assignment target binds: `a`, and each name of `a, (b, *c)`."""
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, ast.Tuple | ast.List):
        for element in target.elts:
            yield from _stored(element)
    elif isinstance(target, ast.Starred):
        yield from _stored(target.value)
