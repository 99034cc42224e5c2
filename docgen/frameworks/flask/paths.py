"""Flask's rules and prefixes as text, joined the way Flask joins them, and written as OpenAPI names paths."""

from __future__ import annotations

import ast
import re

import griffe

from docgen.core.errors import SourceError
from docgen.extract.calls import unparse
from docgen.extract.http_values import detail_text
from docgen.extract.resolve import Resolver, Unresolvable
from docgen.extract.route_paths import Unread

_VARIABLE = re.compile(r"<(?:[^<>]*:)?(\w+)>")
"""`<name>` or `<converter:name>` (a converter may take arguments: `<any(a, b):kind>`)."""


def path_text(
    node: ast.expr | None,
    module: griffe.Module,
    resolver: Resolver,
    unread: dict[str, Unread] | None = None,
    file: str = "",
) -> str | None:
    """A rule or prefix as text: its value, an f-string as a template, else the expression in braces; None
    when it is not given. Each part kept in braces is added to `unread` (keyed by its text in braces), at
    `file` and the line of `node`, for the operations under it to report."""
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        return None
    if isinstance(node, ast.JoinedStr):
        text = detail_text(node, module, resolver, "")
        for part in node.values:
            expression = unparse(part.value) if isinstance(part, ast.FormattedValue) else None
            if unread is not None and expression is not None and "{" + expression + "}" in text:
                found = Unread(expression, "it is formatted at run time", file, node.lineno)
                unread.setdefault("{" + expression + "}", found)
        return text
    try:
        value = resolver.evaluate(node, module).value
    except (Unresolvable, SourceError) as err:  # SourceError: it leads to a module that cannot be read
        expression = unparse(node)
        if unread is not None:
            reason = err.reason if isinstance(err, Unresolvable) else err.message
            unread.setdefault("{" + expression + "}", Unread(expression, reason, file, node.lineno))
        return "{" + expression + "}"
    return value if isinstance(value, str) else str(value)


def join_prefix(outer: str | None, inner: str | None) -> str | None:
    """The prefix of a blueprint registered inside another (`Blueprint.register` joins them so)."""
    if outer is not None and inner is not None:
        return outer.rstrip("/") + "/" + inner.lstrip("/")
    return inner if inner is not None else outer


def join_rule(prefix: str | None, rule: str) -> str:
    """A rule under its blueprint's prefix, as `BlueprintSetupState.add_url_rule` joins them."""
    if prefix is None:
        return rule
    return "/".join((prefix.rstrip("/"), rule.lstrip("/"))) if rule else prefix


def openapi_path(rule: str) -> str:
    """A Flask rule as OpenAPI writes the path: `/books/<int:book_id>` is `/books/{book_id}`."""
    return _VARIABLE.sub(r"{\1}", rule) or "/"
