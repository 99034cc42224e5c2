"""Walking syntax trees fast: the nodes of the kinds asked for, in the order `ast.walk` meets them.

Extraction walks every statement of every function it follows, and fingerprints walk every cited symbol;
`ast.walk` spends most of its time in the generators it stacks (`iter_child_nodes` over `iter_fields`) and in
visiting leaves (names, constants, operators, contexts) that hold nothing. `nodes_below` does the same walk
in one loop and does not queue a leaf unless its kind was asked for.
"""

from __future__ import annotations

import ast
from collections.abc import Collection

_LEAVES = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop, ast.Constant, ast.Name)
_skipped: dict[frozenset[type[ast.AST]], tuple[type[ast.AST], ...]] = {}
"""By the kinds asked for: the leaf types the walk need not queue."""


def nodes_below(root: ast.AST, kinds: Collection[type[ast.AST]]) -> list[ast.AST]:
    """The nodes of `root`'s tree (`root` included) whose type is one of `kinds` (exactly, not a subclass),
    breadth first, as `ast.walk` meets them."""
    asked = frozenset(kinds)
    skip = _skipped.get(asked)
    if skip is None:
        skip = _skipped[asked] = tuple(leaf for leaf in _LEAVES if leaf not in asked)
    found: list[ast.AST] = []
    queue, index = [root], 0
    while index < len(queue):
        node = queue[index]
        index += 1
        if node.__class__ in asked:
            found.append(node)
        for field in node._fields:
            value = getattr(node, field, None)
            if value.__class__ is list:
                queue.extend(v for v in value if isinstance(v, ast.AST) and not isinstance(v, skip))
            elif isinstance(value, ast.AST) and not isinstance(value, skip):
                queue.append(value)
    return found
