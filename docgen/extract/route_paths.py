"""A route path or prefix as written in the source, read into text without inventing any of it.

A path is a literal, a constant, an f-string whose placeholders resolve (`f"{settings.API_V1_STR}/users"`),
or a sum of those. What the resolver takes on trust (a settings class's default, a value the configuration
states) travels with the text as `Assumed`, so that the catalog says on which operations it holds; what it
cannot read at all is kept in the text as the expression in braces (`{settings.PREFIX}/users`), and recorded
as `Unread`, with the line it is written on and the reason, so that the catalog, extract's notices and check
all point at it rather than an OpenAPI document taking `{settings.PREFIX}` for a path parameter. Every
framework's route finder reads its paths through `path_text` and joins them with `joined`.
"""

from __future__ import annotations

import ast

import griffe

from docgen.core.errors import SourceError
from docgen.core.records import record
from docgen.extract.calls import unparse
from docgen.extract.resolve import Assumed, Resolver, Unresolvable


@record
class Unread:
    """A part of a route's path that cannot be read statically: the expression, why, and where."""

    expression: str
    reason: str
    file: str
    line: int


@record
class PathText:
    """A path or prefix as text, with the values it assumes and the parts it could not read."""

    text: str
    assumed: tuple[Assumed, ...] = ()
    unread: tuple[Unread, ...] = ()


def path_text(node: ast.expr, module: griffe.Module, resolver: Resolver, file: str) -> PathText:
    """The path `node` (written in `module`, whose file is `file`) states."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):  # each side read on its own
        left, right = (
            path_text(node.left, module, resolver, file),
            path_text(node.right, module, resolver, file),
        )
        if left.unread or right.unread:
            return joined(left, right)
    parts = node.values if isinstance(node, ast.JoinedStr) else [node]
    read = []
    for part in parts:
        if isinstance(part, ast.Constant):
            read.append(PathText(str(part.value)))
        elif isinstance(part, ast.FormattedValue) and part.format_spec is None and part.conversion == -1:
            read.append(_value(part.value, module, resolver, file))
        elif isinstance(part, ast.FormattedValue):
            read.append(_unread(part.value, "it is formatted at run time", file))
        else:
            read.append(_value(part, module, resolver, file))
    return joined(*read)


def _value(node: ast.expr, module: griffe.Module, resolver: Resolver, file: str) -> PathText:
    try:
        resolved = resolver.evaluate(node, module)
    except Unresolvable as err:
        return _unread(node, err.reason, file)
    except SourceError as err:  # it leads to a module that cannot be read
        return _unread(node, err.message, file)
    value = resolved.value
    return PathText(value if isinstance(value, str) else str(value), resolved.assumed)


def _unread(node: ast.expr, reason: str, file: str) -> PathText:
    expression = unparse(node)
    return PathText("{" + expression + "}", (), (Unread(expression, reason, file, node.lineno),))


def joined(*parts: PathText) -> PathText:
    """Paths joined as routers join them: prefixes are prepended as written."""
    return PathText(
        "".join(part.text for part in parts),
        tuple(dict.fromkeys(a for part in parts for a in part.assumed)),
        tuple(dict.fromkeys(u for part in parts for u in part.unread)),
    )
