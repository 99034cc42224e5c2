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
_skipped: dict[frozenset[type[ast.AST]], frozenset[type]] = {}
"""By the kinds asked for: the leaf classes (each leaf type and its subclasses, `ast.Add` as well as
`ast.operator`) the walk need not queue, those asked for left out. A set of classes, looked up by a node's
own class, costs less than `isinstance` against a tuple of bases."""


def nodes_below(root: ast.AST, kinds: Collection[type[ast.AST]]) -> list[ast.AST]:
    """The nodes of `root`'s tree (`root` included) whose type is one of `kinds` (exactly, not a subclass),
    breadth first, as `ast.walk` meets them."""
    asked = frozenset(kinds)
    skip = _skipped.get(asked)
    if skip is None:
        skip = _skipped[asked] = _skippable(asked)
    found: list[ast.AST] = []
    queue, index, node_type = [root], 0, ast.AST
    while index < len(queue):
        node = queue[index]
        index += 1
        if node.__class__ in asked:
            found.append(node)
        for field in node._fields:
            value = getattr(node, field, None)
            if value.__class__ is list:
                queue += [v for v in value if v.__class__ not in skip and isinstance(v, node_type)]
            elif value.__class__ not in skip and isinstance(value, node_type):
                queue.append(value)
    return found


def _skippable(asked: frozenset[type[ast.AST]]) -> frozenset[type]:
    leaves = {kind for leaf in _LEAVES for kind in (leaf, *_subclasses(leaf))} - asked
    if any(issubclass(kind, ast.expr_context) for kind in asked):
        leaves.discard(ast.Name)  # the one leaf with a node below it: its context
    return frozenset(leaves)


def _subclasses(kind: type) -> list[type]:
    direct: list[type] = kind.__subclasses__()
    return [deeper for sub in direct for deeper in (sub, *_subclasses(sub))]
