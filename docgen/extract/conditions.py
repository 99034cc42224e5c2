"""The `if`s a declaration is written under: a statement of a module or function body brought up beside the
others with the condition it runs under, so that a router included, or a blueprint registered, under a
condition (`if settings.ENVIRONMENT == "local":`) is read and keeps its condition."""

from __future__ import annotations

import ast

from docgen.extract.calls import unparse

Statement = tuple[ast.stmt, str | None]
"""A statement of a scope, and the condition of the `if` it is written under (None: always run)."""


def unfolded(statements: list[ast.stmt], condition: str | None) -> list[Statement]:
    """`statements` with those under an `if` brought up beside them, each with the condition it runs under
    (`a` for the body of `if a:`, `not (a)` for its `else`, joined with `and` when nested)."""
    found: list[Statement] = []
    for statement in statements:
        if isinstance(statement, ast.If):
            test = unparse(statement.test)
            found.extend(unfolded(statement.body, conditions(condition, test)))
            found.extend(unfolded(statement.orelse, conditions(condition, f"not ({test})")))
        else:
            found.append((statement, condition))
    return found


def conditions(*conditions: str | None) -> str | None:
    """The conditions of the `if`s on the way to a route, as one (`a and b`), or None for none."""
    written = [condition for condition in conditions if condition]
    return " and ".join(dict.fromkeys(written)) or None
