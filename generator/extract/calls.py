"""Find the calls of the error constructor in a function body, with the conditions under which each runs.

Most statements of a backend call no constructor, and walking each of their nodes (and unparsing each guard)
is wasted work. So the walk first asks the source text: a statement whose lines do not hold a constructor's
name anywhere cannot contain a call of it, and is skipped unread. The text is a conservative superset (a name
in a comment or a string only costs a walk that finds nothing), so the calls found are exactly those a full
walk finds.
"""

from __future__ import annotations

import ast
import bisect
import dataclasses
import itertools
import re
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Call:
    """One constructor call, the statement holding it, and its guarding conditions as source text."""

    call: ast.Call
    statement: ast.stmt
    conditions: tuple[str, ...]
    scope: tuple[str, ...] = ()
    """The nested functions (closures) of the scanned function the call sits in, outermost first."""


def unparse(node: ast.AST) -> str:
    """`ast.unparse`, except that an integer too long for Python to print in decimal (a hexadecimal literal of
    thousands of digits) comes out as `...` instead of raising ValueError."""
    try:
        return ast.unparse(node)
    except ValueError:
        return "..."


def template(node: ast.JoinedStr) -> str:
    """An f-string as a message template: its text, with each `{expression}` as written."""
    parts: list[str] = []
    for value in node.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value))
        elif isinstance(value, ast.FormattedValue):
            parts.append("{" + unparse(value.value) + "}")
    return "".join(parts)


def callee_name(call: ast.Call) -> str:
    """The name a call is made by: `f` for `f(...)` and for `module.f(...)`."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def name_counts(code: str, names: Collection[str]) -> dict[int, int]:
    """For each line of `code` that may spell one of `names` as an identifier, at most how many times it does.

    Lines are counted as the parser counts them (`\\r\\n`, `\\r` and `\\n` end a line; a form feed does not,
    unlike `str.splitlines`). A line with non-ASCII text counts as its length: the parser normalises
    identifiers (NFKC), so a name may be spelled there in other characters, but each takes one at least.
    """
    pattern = re.compile(r"\b(?:" + "|".join(re.escape(name) for name in sorted(names)) + r")\b")
    counts: dict[int, int] = {}
    for number, line in enumerate(code.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        found = len(pattern.findall(line)) if line.isascii() and names else len(line)
        if found:
            counts[number] = found
    return counts


class CallFinder:
    """Walks statements for calls of `names`, skipping those whose lines hold none of the names.

    Every call found accounts for one occurrence of its name in the text, so the walk of a statement also
    stops as soon as it has found as many calls as its lines hold names: usually at the call itself, rather
    than after every argument.
    """

    def __init__(self, names: Collection[str], counts: Mapping[int, int]) -> None:
        self.names = names
        self.lines = sorted(counts)
        # Occurrences on the lines before self.lines[i], so that any range of lines sums in two look-ups.
        self.before = list(itertools.accumulate((counts[line] for line in self.lines), initial=0))

    def calls(self, statements: list[ast.stmt], guards: tuple[str, ...] = ()) -> Iterator[Call]:
        """Constructor calls in `statements`, in source order, each with the conditions it runs under."""
        for statement in statements:
            if self._may_call(statement):
                yield from self._calls_in(statement, guards)

    def _may_call(self, node: ast.stmt | ast.expr) -> bool:
        return self._occurrences(node) > 0

    def _occurrences(self, node: ast.stmt | ast.expr) -> int:
        """At most how many times a constructor name occurs on the lines of `node`."""
        first = bisect.bisect_left(self.lines, node.lineno)
        last = bisect.bisect_right(self.lines, node.end_lineno or node.lineno)
        return self.before[last] - self.before[first]

    def _calls_in(self, statement: ast.stmt, guards: tuple[str, ...]) -> Iterator[Call]:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            # A closure (or a class) defined inside the scanned function: its calls belong to it too.
            yield from self._direct(statement, [*statement.decorator_list], guards)
            for found in self.calls(statement.body, guards):
                yield dataclasses.replace(found, scope=(statement.name, *found.scope))
        elif isinstance(statement, ast.If | ast.While):
            test = unparse(statement.test)
            yield from self._direct(statement, [statement.test], guards)
            yield from self.calls(statement.body, (*guards, test))
            yield from self.calls(statement.orelse, (*guards, f"not ({test})"))
        elif isinstance(statement, ast.For | ast.AsyncFor):
            loop = f"for {unparse(statement.target)} in {unparse(statement.iter)}"
            yield from self._direct(statement, [statement.iter], guards)
            yield from self.calls(statement.body, (*guards, loop))
            yield from self.calls(statement.orelse, guards)
        elif isinstance(statement, ast.With | ast.AsyncWith):
            yield from self._direct(statement, [item.context_expr for item in statement.items], guards)
            yield from self.calls(statement.body, guards)
        elif isinstance(statement, ast.Try | ast.TryStar):
            yield from self._try(statement, guards)
        elif isinstance(statement, ast.Match):
            yield from self._match(statement, guards)
        else:
            yield from self._direct(statement, [statement], guards)

    def _try(self, statement: ast.Try | ast.TryStar, guards: tuple[str, ...]) -> Iterator[Call]:
        yield from self.calls(statement.body, guards)
        for handler in statement.handlers:
            if any(self._may_call(inner) for inner in handler.body):
                caught = f"except {unparse(handler.type)}" if handler.type else "except"
                yield from self.calls(handler.body, (*guards, caught))
        yield from self.calls(statement.orelse, guards)
        yield from self.calls(statement.finalbody, guards)

    def _match(self, statement: ast.Match, guards: tuple[str, ...]) -> Iterator[Call]:
        subject = unparse(statement.subject)
        for case in statement.cases:
            if any(self._may_call(inner) for inner in case.body):
                pattern = f"{subject} matches {unparse(case.pattern)}"
                extra = (f"{unparse(case.guard)}",) if case.guard else ()
                yield from self.calls(case.body, (*guards, pattern, *extra))

    def _direct(self, statement: ast.stmt, roots: list[Any], guards: tuple[str, ...]) -> Iterator[Call]:
        for root in roots:
            left = self._occurrences(root)
            if left == 0:
                continue
            for node in ast.walk(root):
                if isinstance(node, ast.Call) and callee_name(node) in self.names:
                    yield Call(node, statement, guards)
                    left -= 1
                    if left == 0:
                        break
