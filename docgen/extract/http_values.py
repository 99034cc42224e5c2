"""The status and the detail an HTTP error states, read from the expressions that give them.

A status is a literal, a module constant, an `HTTPStatus` member, or a constant of the framework's own
status module (which the framework recognises). A detail is a string, an f-string (kept as a template with
its placeholders, `No item has the id {item_id}`), a constant or enum member, or, when nothing can be told
statically, the expression itself in braces, so that it is visible rather than lost. Text formatted with
`%` or `str.format` is a template too (`"... %s" % server` is `... {server}`).
"""

from __future__ import annotations

import ast
import http
import re
from collections.abc import Callable

import griffe

from docgen.core.errors import SourceError
from docgen.extract.calls import placeholder, template, unparse
from docgen.extract.program import Program
from docgen.extract.resolve import Resolver, Unresolvable

StatusConstant = Callable[[str], "int | None"]


def status_number(
    node: ast.expr, module: griffe.Module, program: Program, resolver: Resolver, named: StatusConstant
) -> int | None:
    """The status `node` states, or None when it cannot be told without running the code."""
    if isinstance(node, ast.IfExp):  # `200 if ok else 500`: the error it may be; `200 if a else 202`: none
        branches = [
            status_number(branch, module, program, resolver, named) for branch in (node.body, node.orelse)
        ]
        known = [branch for branch in branches if branch is not None]
        errors = sorted({branch for branch in known if branch >= 400})
        if len(known) < 2 or len(errors) > 1:
            return None
        return errors[0] if errors else known[0]
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
        return formatted(node) or "{" + unparse(node) + "}"
    return str(value)


_CONVERSION = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(?:\d+|\*)?(?:\.\d+)?[a-zA-Z%]")
_FIELD = re.compile(r"\{\{|\}\}|\{([^{}!:]*)(?:![rsa])?(?::[^{}]*)?\}")


def formatted(node: ast.expr) -> str | None:
    """Text formatted at run time, as a template like an f-string's: `"... %s" % server` and
    `"... {}".format(server)` are `... {server}`; None for anything else, or a format docgen cannot pair
    with its values (a `%(name)s` key, a count that does not match)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and _is_text(node.left):
        values = list(node.right.elts) if isinstance(node.right, ast.Tuple) else [node.right]
        return _fill(str(_text(node.left)), _CONVERSION, values, {})
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
        and _is_text(node.func.value)
    ):
        named = {k.arg: k.value for k in node.keywords if k.arg is not None}
        return _fill(str(_text(node.func.value)), _FIELD, list(node.args), named)
    return None


def _fill(
    text: str, pattern: re.Pattern[str], values: list[ast.expr], named: dict[str, ast.expr]
) -> str | None:
    parts, last, position = [], 0, 0
    for match in pattern.finditer(text):
        parts.append(text[last : match.start()])
        last = match.end()
        spelled = match.group()
        if spelled in ("%%", "{{", "}}"):
            parts.append(spelled[0])
            continue
        key = match.group(1) if match.lastindex else None
        if spelled.startswith("%(") or (key and not key.isdigit() and key not in named):
            return None
        if key and not key.isdigit():
            parts.append(_piece(named[key]))
            continue
        index = int(key) if key else position
        position += 1
        if index >= len(values):
            return None
        parts.append(_piece(values[index]))
    if pattern is _CONVERSION and position != len(values):
        return None
    return "".join(parts) + text[last:]


def _piece(value: ast.expr) -> str:
    """A formatted value: a literal as the text it gives, anything else as a placeholder."""
    if isinstance(value, ast.Constant) and isinstance(value.value, str | int | float):
        return str(value.value)
    return placeholder(value)


def _is_text(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _text(node: ast.expr) -> object:
    return node.value if isinstance(node, ast.Constant) else None


def phrase(status: int | None) -> str:
    """The standard reason phrase of `status` (`Not Found`), or an empty text for an unknown one."""
    try:
        return http.HTTPStatus(status or 0).phrase
    except ValueError:
        return ""
