"""The paths and prefixes an aiohttp program routes under, as text.

A path is often built in the function that registers it from a local name (`user_prefix =
"/v1/user/{mxid}"`, then `add_route("GET", f"{user_prefix}/chats", ...)`): a local bound once in that
function (or method) stands for its value. What still cannot be read statically (a parameter, a value
known only at run time) stays in the path as the expression in braces, and is kept as `Unread` at its place,
for each operation under it to report and for the OpenAPI fragment to leave out, instead of reading as a
made-up path parameter.
"""

from __future__ import annotations

import ast
import copy

import griffe

from docgen.core.errors import SourceError
from docgen.extract.calls import unparse
from docgen.extract.http_values import detail_text
from docgen.extract.program import Program
from docgen.extract.resolve import Resolver, Unresolvable
from docgen.extract.route_paths import Unread

MAX_LOCAL_HOPS = 4
"""How many local names one part of a path is followed through (`a = b + "/x"`, `b = "/v1"`)."""


class PathValues:
    """Reads paths written in the scopes of a program, keeping what cannot be read."""

    def __init__(self, program: Program, resolver: Resolver) -> None:
        self.program = program
        self.resolver = resolver
        self.unread: dict[str, Unread] = {}
        """Each part of a path that cannot be read statically, by its text in braces."""
        self._locals: dict[str, dict[str, ast.expr]] = {}

    def text(self, node: ast.expr, module: griffe.Module, scope: str, statements: list[ast.stmt]) -> str:
        """`node` as text, its local names (bound once in `statements`, the body of `scope`) replaced by
        their values; each part still unknown is added to `unread`."""
        if scope not in self._locals:
            self._locals[scope] = _bound_once(statements)
        node = _substituted(node, self._locals[scope])
        self._note_unread(node, module)
        return detail_text(node, module, self.resolver, "")

    def _note_unread(self, node: ast.expr, module: griffe.Module) -> None:
        if isinstance(node, ast.Constant):
            return
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            self._note_unread(node.left, module)
            self._note_unread(node.right, module)
            return
        if isinstance(node, ast.JoinedStr):
            for part in node.values:
                if isinstance(part, ast.FormattedValue):
                    self._note_unread(part.value, module)
            return
        try:
            self.resolver.evaluate(node, module)
        except (Unresolvable, SourceError) as err:
            reason = err.reason if isinstance(err, Unresolvable) else err.message
            expression = unparse(node)
            found = Unread(expression, reason, self.program.files(module), getattr(node, "lineno", 1))
            self.unread.setdefault("{" + expression + "}", found)


def _bound_once(statements: list[ast.stmt]) -> dict[str, ast.expr]:
    """The local names assigned exactly once among `statements`, and their values."""
    values: dict[str, list[ast.expr]] = {}
    for statement in statements:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name):
                values.setdefault(target.id, []).append(statement.value)
        elif isinstance(statement, ast.AnnAssign | ast.AugAssign) and isinstance(statement.target, ast.Name):
            values.setdefault(statement.target.id, []).extend(
                [statement.value] * 2 if statement.value else []
            )
    return {name: found[0] for name, found in values.items() if len(found) == 1}


def _substituted(node: ast.expr, bound: dict[str, ast.expr], hops: int = 0) -> ast.expr:
    """`node` with each local name of `bound` replaced by its value (followed up to `MAX_LOCAL_HOPS`)."""
    if not bound or hops >= MAX_LOCAL_HOPS:
        return node
    if isinstance(node, ast.Name) and node.id in bound:
        value = copy.deepcopy(bound[node.id])
        ast.copy_location(value, node)
        return _substituted(value, bound, hops + 1)
    if isinstance(node, ast.JoinedStr):
        made = copy.copy(node)
        made.values = [piece for part in node.values for piece in _pieces(part, bound, hops)]
        return made
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        made_op = copy.copy(node)
        made_op.left = _substituted(node.left, bound, hops)
        made_op.right = _substituted(node.right, bound, hops)
        return made_op
    return node


def _pieces(part: ast.expr, bound: dict[str, ast.expr], hops: int) -> list[ast.expr]:
    """One part of an f-string, its value substituted: a string or f-string value is spliced in as text."""
    if not isinstance(part, ast.FormattedValue):
        return [part]
    value = _substituted(part.value, bound, hops)
    plain = part.format_spec is None and part.conversion == -1
    if plain and isinstance(value, ast.Constant) and isinstance(value.value, str):
        return [value]
    if plain and isinstance(value, ast.JoinedStr):
        return list(value.values)
    made = copy.copy(part)
    made.value = value
    return [made]
