"""The status and the detail an HTTP error states, read from the expressions that give them.

A status is a literal, a module constant, an `HTTPStatus` member, or a constant of the framework's own
status module (which the framework recognises). A detail is a string, an f-string (kept as a template with
its placeholders, `No item has the id {item_id}`), a constant or enum member, or, when nothing can be told
statically, the expression itself in braces, so that it is visible rather than lost.
"""

from __future__ import annotations

import ast
import http
from collections.abc import Callable

import griffe

from generator.core.errors import SourceError
from generator.extract.calls import template, unparse
from generator.extract.program import Program
from generator.extract.resolve import Resolver, Unresolvable

StatusConstant = Callable[[str], "int | None"]


def status_number(
    node: ast.expr, module: griffe.Module, program: Program, resolver: Resolver, named: StatusConstant
) -> int | None:
    """The status `node` states, or None when it cannot be told without running the code."""
    path = program.qualify(node, module) if isinstance(node, ast.Name | ast.Attribute) else None
    if path is not None and named(path) is not None:
        named_status = named(path)
        return named_status if named_status is not None and _is_status(named_status) else None
    if path is not None and path.startswith("http.HTTPStatus."):
        member = http.HTTPStatus.__members__.get(path.rsplit(".", 1)[1])
        return int(member) if member is not None else None
    try:
        value = resolver.evaluate(node, module).value
    except (Unresolvable, SourceError):  # SourceError: it leads to a module that cannot be read
        return None
    return value if isinstance(value, int) and _is_status(value) else None


def _is_status(value: object) -> bool:
    """An HTTP status: an integer from 100 to 599 (anything else is recorded as unknown)."""
    return isinstance(value, int) and not isinstance(value, bool) and 100 <= value <= 599


def detail_text(node: ast.expr | None, module: griffe.Module, resolver: Resolver, missing: str) -> str:
    """The detail `node` states as text; a missing or None detail is `missing`, what the framework fills in
    (`Framework.default_detail`)."""
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        return missing
    if isinstance(node, ast.Constant):
        return str(node.value)
    if isinstance(node, ast.JoinedStr):
        return template(node)
    try:
        value = resolver.evaluate(node, module).value
    except (Unresolvable, SourceError):
        return "{" + unparse(node) + "}"
    return str(value)


def phrase(status: int | None) -> str:
    """The standard reason phrase of `status` (`Not Found`), or an empty text for an unknown one."""
    try:
        return http.HTTPStatus(status or 0).phrase
    except ValueError:
        return ""
