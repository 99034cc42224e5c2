"""Which parameter of a function of the source receives an application or router that a call passes it:
real servers hand what they build to helpers (`init_views(app)`, `construct_main_feed_routes(rss_blueprint,
datastore)`), which route on their parameter. A framework's reader binds `callee:parameter` to what the
caller's argument names, so that what the helper attaches to its parameter is attached to it."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from docgen.extract.bound_calls import own_nodes
from docgen.extract.calls import FunctionNode
from docgen.extract.program import Program


def passed(
    program: Program,
    body: FunctionNode,
    callee_of: Callable[[ast.Call], str | None],
    holder_of: Callable[[ast.expr], str | None],
) -> Iterator[tuple[str, str]]:
    """(`callee:parameter`, key) for each argument of a call in `body` that `holder_of` names an application
    or router by, where `callee_of` names the function of the source the call calls (its dotted path)."""
    for node in own_nodes(body):
        if not isinstance(node, ast.Call):
            continue
        path = callee_of(node)
        function = program.function(path)
        if function is None or path is None:
            continue
        parameters = [argument.arg for argument in program.node(function).args.args]
        if parameters and parameters[0] in ("self", "cls") and isinstance(node.func, ast.Attribute):
            parameters = parameters[1:]
        given = list(zip(parameters, node.args, strict=False))
        given += [(keyword.arg, keyword.value) for keyword in node.keywords if keyword.arg]
        for parameter, value in given:
            key = holder_of(value)
            if key is not None:
                yield f"{path}:{parameter}", key
