"""The fast tree walk skips leaves for speed, and must find exactly what `ast.walk` finds, in its order."""

from __future__ import annotations

import ast
from pathlib import Path

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


def test_on_real_source_every_kind_is_met_as_ast_walk_meets_it() -> None:
    """Every node type of a real module, one at a time and all at once: a leaf class skipped by mistake (an
    operator, a context, a subclass of a skipped leaf) would drop nodes here."""
    import docgen.extract.calls as module

    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    walked = list(ast.walk(tree))
    kinds = {type(node) for node in walked}
    assert nodes_below(tree, kinds) == walked
    for kind in kinds:
        assert nodes_below(tree, {kind}) == [node for node in walked if type(node) is kind], kind
