"""The fingerprint of a cited symbol: what it does, hashed statically.

A fingerprint covers what a symbol does beyond what the catalogs already check, not how it is laid out: it
hashes the symbol's syntax tree with local names canonicalised, so reformatting, comments and renamed local
variables leave it unchanged, while any change to the logic (a new branch, another limit) changes it.

The error paths a catalog lists are checked entry by entry already, so a statement that leads to catalogued
errors is hashed as the facts of those errors rather than as its syntax. extract says which calls lead where
(`ErrorMarks`: a constructor call of a site, or the call of the next helper on an entry's path); a `return`,
`raise` or expression statement holding such a call, and an early exit (an `if` without `else` whose body
only returns or raises, with such a call in its test or body), become one marker holding the sorted facts
(and which of those four kinds of statement it was).
`if bad: return error(...)` inline and `if (refusal := check(x)) is not None: return refusal` with the error
in `check` then hash the same, while a changed message or status, which changes the facts, still changes
the fingerprint. A symbol fingerprinted without marks is hashed exactly as before.
"""

from __future__ import annotations

import ast
import builtins
import hashlib
from collections.abc import Iterator, Mapping

from docgen.core.trees import nodes_below

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
"""What a page can cite: a function, a method or a class."""

CallSpan = tuple[int, int, int, int]
"""Where a call sits in its file: (line, column, end line, end column), as `ast` counts them."""
ErrorMarks = Mapping[str, Mapping[CallSpan, frozenset[str]]]
"""File -> the span of each call that leads to catalogued errors -> the facts of those errors, one string
per entry (built by extract; nothing here reads them, they are only hashed)."""


def module_names(tree: ast.Module) -> frozenset[str]:
    """The names a module defines, assigns or imports at its top level, which a fingerprint keeps."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, Definition):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return frozenset(names)


_BUILTINS = frozenset(dir(builtins))


def fingerprinted(
    node: Definition, module_names: frozenset[str], marks: Mapping[CallSpan, frozenset[str]]
) -> tuple[str, bool]:
    """The hash of `node`'s tree with each statement that leads to catalogued errors replaced by a marker of
    their facts, and every parameter and every name that is not the module's, the symbol's own or a
    builtin renamed to `_`; and whether the symbol only routes errors (`Symbol.routes_errors_only`).

    The tree is changed in place and put back afterwards, rather than copied: copying a large function (by
    unparsing and parsing it again) took more time than the rest together. The tree may be shared with
    another stage, so it must come out as it went in.
    """
    keep = module_names | {node.name} | _BUILTINS
    swapped: list[tuple[list[ast.stmt], int, ast.stmt]] = []
    renamed: list[tuple[ast.AST, str, str]] = []
    try:
        if marks:
            _mark_statements(node.body, marks, swapped)
        routes_only = _routes_errors_only(node, swapped)
        for child in nodes_below(node, _NAMES):
            if isinstance(child, ast.Name) and child.id not in keep:
                renamed.append((child, "id", child.id))
            elif isinstance(child, ast.arg):
                renamed.append((child, "arg", child.arg))
        for child, field, _name in renamed:
            setattr(child, field, "_")
        dumped = ast.dump(node, include_attributes=False)
    finally:
        for child, field, name in renamed:
            setattr(child, field, name)
        for statements, index, statement in reversed(swapped):
            statements[index] = statement
    return f"sha256:{hashlib.sha256(dumped.encode('utf-8')).hexdigest()[:16]}", routes_only


def _mark_statements(
    statements: list[ast.stmt],
    marks: Mapping[CallSpan, frozenset[str]],
    swapped: list[tuple[list[ast.stmt], int, ast.stmt]],
) -> None:
    """Replace, in place, each statement of `statements` (and of the blocks nested in them) that leads to
    catalogued errors by its marker, noting each replacement in `swapped` so that it can be undone."""
    for index, statement in enumerate(statements):
        facts = _error_facts(statement, marks)
        if facts:
            statements[index] = ErrorMarker(type(statement).__name__, sorted(facts))
            swapped.append((statements, index, statement))
            continue
        for block in _blocks(statement):
            _mark_statements(block, marks, swapped)


def _blocks(statement: ast.stmt) -> Iterator[list[ast.stmt]]:
    """The blocks of statements nested in `statement`: bodies, `else`s, handlers, cases."""
    for _field, value in ast.iter_fields(statement):
        if not isinstance(value, list):
            continue
        for item in value:
            if isinstance(item, ast.ExceptHandler | ast.match_case):
                yield item.body
        if value and isinstance(value[0], ast.stmt):
            yield value


def _error_facts(statement: ast.stmt, marks: Mapping[CallSpan, frozenset[str]]) -> frozenset[str]:
    """The facts of the catalogued errors `statement` leads to, when it is a statement that leads to them
    (see the module docstring); empty when it is not."""
    if isinstance(statement, ast.If):
        exits = all(isinstance(inner, ast.Return | ast.Raise) for inner in statement.body)
        if statement.orelse or not exits:
            return frozenset()
    elif not isinstance(statement, ast.Return | ast.Raise | ast.Expr):
        return frozenset()
    found: set[str] = set()
    for child in nodes_below(statement, _CALLS):
        span = call_span(child)  # type: ignore[arg-type]
        if span in marks:
            found |= marks[span]
    return frozenset(found)


_NAMES = frozenset({ast.Name, ast.arg})
_CALLS = frozenset({ast.Call})


def call_span(call: ast.Call) -> CallSpan:
    """Where `call` sits in its file."""
    return (call.lineno, call.col_offset, call.end_lineno or call.lineno, call.end_col_offset or 0)


class ErrorMarker(ast.stmt):
    """The statement that stands, in a fingerprint, for one that leads to catalogued errors: a node type no
    parsed source holds, with the kind of statement it replaces (an early exit, a return, a raise, an
    expression) and the sorted facts of those errors."""

    _fields = ("kind", "facts")

    def __init__(self, kind: str, facts: list[str]) -> None:
        super().__init__()
        self.kind = kind
        self.facts = facts


def _routes_errors_only(node: Definition, swapped: list[tuple[list[ast.stmt], int, ast.stmt]]) -> bool:
    """Whether `node`, its statements marked (`swapped`), is a function each statement of which (a docstring
    aside) leads to catalogued errors or returns None, with at least one of the first kind."""
    if isinstance(node, ast.ClassDef):
        return False
    leading = {index for statements, index, _statement in swapped if statements is node.body}
    docstring = ast.get_docstring(node) is not None
    rest = [
        statement
        for index, statement in enumerate(node.body)
        if index not in leading and not (docstring and index == 0)
    ]
    return bool(leading) and all(_returns_none(statement) for statement in rest)


def _returns_none(statement: ast.stmt) -> bool:
    if not isinstance(statement, ast.Return):
        return False
    return statement.value is None or (
        isinstance(statement.value, ast.Constant) and statement.value.value is None
    )
