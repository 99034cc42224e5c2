"""The fast tree walk skips leaves for speed, and must find exactly what `ast.walk` finds, in its order."""

from __future__ import annotations

import ast

import pytest

from docgen.core.trees import nodes_below

SOURCE = """\
def f(a, b=g(1)):
    x = h(a)(b)
    with open(p) as fh, lock:
        raise E(k(x), [m(y) for y in fh])
    return lambda z: n(z) if z else o(*z, **{q: r(z)})
"""

KINDS = {
    "calls": {ast.Call},
    "raises and calls": {ast.Raise, ast.Call},
    "binders": {ast.arg, ast.withitem, ast.comprehension},
    "names and constants (leaves, queued only when asked for)": {ast.Name, ast.arg, ast.Constant},
}


@pytest.mark.parametrize("kinds", KINDS.values(), ids=KINDS)
def test_nodes_below_meets_the_nodes_of_a_kind_in_the_order_ast_walk_does(kinds: set[type[ast.AST]]) -> None:
    tree = ast.parse(SOURCE)
    assert nodes_below(tree, kinds) == [node for node in ast.walk(tree) if type(node) in kinds]
    assert nodes_below(tree, kinds)  # the source holds each kind
