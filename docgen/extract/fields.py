"""The fields of one constructor call, resolved to values: code, status, message, data keys.

A field the configuration does not map is absent (None): a plain HTTP API has no code. A code or status that
is known only when the server runs (a local variable, a lookup in a dict) keeps its entry: the value is None
and the field is listed in `dynamic` with its expression, for check to report and an editor to explain. A
message known only at run time becomes a template whose placeholder names what fills it (`{exc}` for
`str(exc)`), as an f-string does.

A call in an `except` handler carries the raise sites `handlers` found behind it (`HandlerRaises`), which
its entry holds as it holds the fields. The entry is built here, once, as the catalog writes it; only its id
waits until every site is known.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

import griffe

from docgen.core.errors import SourceError
from docgen.core.fingerprints import CallSpan
from docgen.core.models import ErrorEntry, RaiseSite
from docgen.core.records import record
from docgen.core.settings import CatalogConfig
from docgen.extract.binding import Bound, Constructor, ForwardedTooFar, bind, maps
from docgen.extract.calls import Call, callee_name, placeholder, template, unparse
from docgen.extract.folding import TooLarge
from docgen.extract.resolve import Resolved, Resolver, Unresolvable

if TYPE_CHECKING:
    from docgen.extract.framework_errors import FrameworkErrors


@record
class HandlerRaises:
    """The raise sites behind one handler, and whether they were found by reach or anywhere."""

    scope: str
    sites: tuple[RaiseSite, ...]


@record
class ErrorSite:
    """One call of the error constructor: its entry, and where in the source the call and its path are."""

    entry: ErrorEntry
    """The facts the catalog writes, normalised as it writes them. Its id is empty: ids are assigned only once
    every site is known (`assign_ids`), and `docgen.kinds.errors.catalog.errors_catalog` gives each entry
    its id in a copy."""
    line: int
    end_line: int
    helpers: tuple[tuple[str, str], ...] = ()
    """(file, name in that file) of each helper on the path, for the catalog's sources."""
    calls: tuple[tuple[str, CallSpan], ...] = ()
    """(file, span) of each call that leads to this site, from the configured function's down to the
    constructor call itself (for fingerprints: `docgen.core.fingerprints.ErrorMarks`)."""


_STATIC_HINT = (
    "use a literal, a module constant, an IntEnum or HTTPStatus member, or simple arithmetic of those"
)


class SiteReader:
    """Resolves one call's arguments against its constructor's argument map."""

    def __init__(
        self,
        config: CatalogConfig,
        module: griffe.Module,
        resolver: Resolver,
        file: str,
        constructor: Constructor,
        defaults: FrameworkErrors | None = None,
    ) -> None:
        self.config = config
        self.defaults = defaults
        """The catalog's framework, for the values a call leaves out and what its handlers answer."""
        self.module = module
        self.resolver = resolver
        self.file = file
        self.constructor = constructor
        self.line = 0
        self.dynamic: list[tuple[str, str]] = []

    def build(
        self,
        function: str,
        found: Call,
        lines: list[str],
        *,
        path: tuple[str, ...] = (),
        helpers: tuple[tuple[str, str], ...] = (),
        raises: HandlerRaises | None = None,
        calls: tuple[tuple[str, CallSpan], ...] = (),
    ) -> ErrorSite:
        """The site of `found` in `function`, reached by `path` through `helpers`."""
        call = found.call
        self.line = call.lineno
        self.dynamic = []
        code, code_names = self._value("code", call, (int, str))
        stated, status_names = self._value("status", call, (int,))
        status = stated if isinstance(stated, int) else None
        message = self._message(call, status)
        if self.defaults is not None:
            status, message = self._handled(status, message)
        entry = ErrorEntry(
            id="",
            code=code,
            status=status,
            message=message,
            function=function,
            file=self.file,
            conditions=found.conditions,
            data_keys=self._data_keys(call),
            constants_used=tuple(sorted({*code_names, *status_names})),
            draft_cause=_comment_above(lines, found.statement),
            dynamic=dict(self.dynamic),
            path=path or (function,),
            raises=raises.sites if raises else (),
            raises_scope=raises.scope if raises else None,
        )
        return ErrorSite(entry, call.lineno, call.end_lineno or call.lineno, helpers, calls)

    def _bound(self, role: str, call: ast.Call) -> Bound | None:
        try:
            return bind(self.constructor, call, role, self.module)
        except ForwardedTooFar as err:
            raise SourceError(err.message, file=self.file, line=self.line, hint=err.hint) from None

    def _mapped(self, role: str) -> bool:
        try:
            return maps(self.constructor, role)
        except ForwardedTooFar as err:
            raise SourceError(err.message, file=self.file, line=self.line, hint=err.hint) from None

    def _fail(self, role: str, problem: str, hint: str) -> SourceError:
        return SourceError(
            f"the {role} of this {self.constructor.name}() call {problem}",
            file=self.file,
            line=self.line,
            hint=hint,
        )

    def _evaluate(self, bound: Bound) -> Resolved:
        try:
            if isinstance(bound.node, str):
                return self.resolver.evaluate_text(bound.node, bound.module)
            return self.resolver.evaluate(bound.node, bound.module)
        except SourceError as err:
            if err.file is not None:
                raise
            raise SourceError(err.message, file=self.file, line=self.line, hint=err.hint) from None

    def _value(
        self, role: str, call: ast.Call, types: tuple[type, ...]
    ) -> tuple[int | str | None, tuple[str, ...]]:
        if not self._mapped(role):
            return None, ()
        bound = self._bound(role, call)
        if bound is None and self.defaults is not None and role in ("status", "code"):
            return self._default(role), ()
        if bound is None:
            attribute = (
                " or a class attribute of the mapped name"
                if isinstance(self.constructor.obj, griffe.Class)
                else ""
            )
            raise self._fail(
                role, "is missing", f"pass the {role}, or give the constructor a default{attribute}"
            )
        try:
            resolved = self._evaluate(bound)
        except TooLarge as err:
            raise self._fail(role, f"is not static: {err.message}", _STATIC_HINT) from err
        except Unresolvable:
            self.dynamic.append((role, bound.node if isinstance(bound.node, str) else unparse(bound.node)))
            return None, ()
        value = resolved.value
        if value is None and self.defaults is not None and role in ("status", "code"):
            return self._default(role), resolved.names
        if value is None and role == "code":
            return None, resolved.names
        if isinstance(value, int | str) and isinstance(value, types) and not isinstance(value, bool):
            return value, resolved.names
        kind = " or ".join("an integer" if t is int else "a string" for t in types)
        raise self._fail(role, f"is {value!r}, not {kind}", _STATIC_HINT)

    def _default(self, role: str) -> int | str | None:
        """What the framework gives a status or code the call leaves out (a class attribute)."""
        assert self.defaults is not None
        return (
            self.defaults.status(self.constructor)
            if role == "status"
            else self.defaults.code(self.constructor)
        )

    def _handled(self, status: int | None, message: str) -> tuple[int | None, str]:
        """The status and message the exception handler registered for the call's class answers with, where
        it gives them; a status it gives is no longer one set at run time."""
        assert self.defaults is not None
        handler = self.defaults.handler(self.constructor)
        if handler is None:
            return status, message
        if handler.status is not None:
            status = handler.status
            self.dynamic = [(role, expression) for role, expression in self.dynamic if role != "status"]
        return status, handler.detail if handler.detail is not None else message

    def _message(self, call: ast.Call, status: int | None) -> str:
        bound = self._bound("message", call)
        if bound is None and self.defaults is not None:
            return self.defaults.message(self.constructor, status)
        if bound is None:
            if self._mapped("message"):
                raise self._fail("message", "is missing", "pass a message string")
            return ""
        return self._message_of(bound, status)

    def _message_of(self, bound: Bound, status: int | None) -> str:
        if isinstance(bound.node, ast.JoinedStr):
            return template(bound.node)
        first = _first_text(bound.node) if isinstance(bound.node, ast.Dict | ast.List | ast.Tuple) else None
        if first is not None:  # errors by field (`{"uid": [_("Invalid value")]}`): the first one's text
            return self._message_of(Bound(first, bound.module), status)
        try:
            value = self._evaluate(bound).value
        except TooLarge as err:
            raise self._fail(
                "message", f"is not static: {err.message}", "use a string literal or an f-string"
            ) from err
        except Unresolvable:
            return placeholder(bound.node)
        if value is None:
            return self.defaults.message(self.constructor, status) if self.defaults is not None else ""
        if not isinstance(value, str):
            raise self._fail("message", f"is {value!r}, not a string", "use a string literal or an f-string")
        return value

    def _data_keys(self, call: ast.Call) -> tuple[str, ...]:
        bound = self._bound("data", call)
        expression = None if bound is None else bound.node
        if expression is None or isinstance(expression, str) or _is_none(expression):
            return ()
        if isinstance(expression, ast.Dict) and all(isinstance(k, ast.Constant) for k in expression.keys):
            return tuple(sorted(str(k.value) for k in expression.keys if isinstance(k, ast.Constant)))
        if isinstance(expression, ast.Call) and callee_name(expression) == "dict" and not expression.args:
            return tuple(sorted(k.arg for k in expression.keywords if k.arg))
        self.dynamic.append(("data", unparse(expression)))  # built at run time: its keys cannot be told
        return ()


def _first_text(node: ast.expr) -> ast.expr | None:
    """The first message of a dict or list of them (a dict's values, a list's items, nested): a string, an
    f-string or a call (a translated message); None when there is none."""
    items = (
        node.values
        if isinstance(node, ast.Dict)
        else node.elts
        if isinstance(node, ast.List | ast.Tuple)
        else []
    )
    for item in items:
        if isinstance(item, ast.Dict | ast.List | ast.Tuple):
            found = _first_text(item)
            if found is not None:
                return found
        elif isinstance(item, ast.JoinedStr | ast.Call) or (
            isinstance(item, ast.Constant) and isinstance(item.value, str)
        ):
            return item
    return None


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _comment_above(lines: list[str], statement: ast.stmt) -> str | None:
    """The comment lines directly above `statement`, joined, as a draft cause."""
    index = statement.lineno - 2
    found: list[str] = []
    while index >= 0 and lines[index].strip().startswith("#"):
        found.insert(0, lines[index].strip().lstrip("#").strip())
        index -= 1
    text = " ".join(part for part in found if part)
    return text or None
