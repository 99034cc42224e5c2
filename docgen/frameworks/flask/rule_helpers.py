"""Rules an application routes through a helper function of its own, such as FlaskBB's
`register_view(bp, routes=[...], view_func=View.as_view("name"))`, whose body calls
`bp.add_url_rule(route, view_func=view_func, **kwargs)` for each route it is given.

A call of a function of the loaded source is read as the `add_url_rule` calls in its body whose receiver is
one of its parameters: the receiver, the rule and the view are the caller's arguments bound to those
parameters, a rule that a `for` loop takes from a parameter is each item of the list the caller passes, and
methods are the helper's own `methods=` or those the caller passes on through `**kwargs`. Anything else the
helper computes is not read.
"""

from __future__ import annotations

import ast

import griffe

from docgen.core.records import record
from docgen.extract.bound_calls import own_nodes
from docgen.extract.program import Program


@record
class Routed:
    """One `add_url_rule` a helper makes, in the caller's terms (expressions of the caller's module)."""

    owner: ast.expr
    rules: tuple[ast.expr, ...]
    view: ast.expr | None
    methods: ast.expr | None


def routed_through(program: Program, call: ast.Call, module: griffe.Module) -> list[Routed]:
    """The rules the helper `call` calls routes, or nothing when it calls no helper of the loaded source."""
    helper = program.function(program.qualify(call.func, module))
    if helper is None:
        return []
    node = program.node(helper)
    bound = _bound(helper, call)
    loops = {
        inner.target.id: inner.iter
        for inner in own_nodes(node)
        if isinstance(inner, ast.For) and isinstance(inner.target, ast.Name)
    }
    found = []
    for inner in own_nodes(node):
        if not (
            isinstance(inner, ast.Call)
            and isinstance(inner.func, ast.Attribute)
            and inner.func.attr == "add_url_rule"
            and isinstance(inner.func.value, ast.Name)
            and inner.func.value.id in bound
        ):
            continue
        rule = inner.args[0] if inner.args else _keyword(inner, "rule")
        view = _keyword(inner, "view_func") or (inner.args[2] if len(inner.args) > 2 else None)
        methods = _keyword(inner, "methods") or _keyword(call, "methods")
        found.append(
            Routed(
                bound[inner.func.value.id],
                _rules(rule, bound, loops),
                _in_caller(view, bound),
                _in_caller(methods, bound) if _keyword(inner, "methods") else methods,
            )
        )
    return found


def _bound(helper: griffe.Function, call: ast.Call) -> dict[str, ast.expr]:
    """Parameter name -> the caller's argument for it (positional or by keyword)."""
    names = [p.name for p in helper.parameters if p.kind is None or p.kind.name in _POSITIONAL]
    bound = {
        name: arg for name, arg in zip(names, call.args, strict=False) if not isinstance(arg, ast.Starred)
    }
    bound.update({k.arg: k.value for k in call.keywords if k.arg is not None})
    return bound


_POSITIONAL = ("positional_only", "positional_or_keyword")


def _rules(
    rule: ast.expr | None, bound: dict[str, ast.expr], loops: dict[str, ast.expr]
) -> tuple[ast.expr, ...]:
    """The caller's rules: the argument itself, or each item of the list a loop over a parameter walks."""
    if isinstance(rule, ast.Name) and rule.id in loops:
        walked = _in_caller(loops[rule.id], bound)
        return tuple(walked.elts) if isinstance(walked, ast.List | ast.Tuple) else ()
    given = _in_caller(rule, bound)
    return (given,) if given is not None else ()


def _in_caller(node: ast.expr | None, bound: dict[str, ast.expr]) -> ast.expr | None:
    """A parameter of the helper as the caller's argument; None for anything the helper computes itself."""
    if isinstance(node, ast.Name):
        return bound.get(node.id)
    return None


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((keyword.value for keyword in call.keywords if keyword.arg == name), None)
