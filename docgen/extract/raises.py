"""The HTTP errors an operation can answer with: its code followed from the route's function, its
dependencies and the wrappers its decorators put around it (`docgen.extract.decorators`) into the
functions of the loaded source they call, to each `raise`.

A raised exception is an HTTP error when it is one of the framework's HTTP exceptions, a subclass of one
(whose `__init__` fixes the status or detail through `super().__init__(...)`), or any exception an
exception handler is registered for (the handler of the nearest class in its ancestry decides the status
and body). The walk is `docgen.extract.walk`'s, one per operation: each function once, at most
`MAX_CALL_DEPTH` calls deep; a call past the bound is left out and told at that call (extract's notice,
check's `source-unfollowed`), never in silence. Which method a call runs on an object, and a property read on
one, is `docgen.extract.callees`'s; what a raise states through a subclass's `__init__` is
`docgen.extract.raised_values`'s. Calls it cannot resolve statically (methods of objects passed in without an
annotation, functions passed around) are not followed.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterator

import griffe

from docgen.core.errors import SourceError
from docgen.core.records import record
from docgen.extract.body_keys import raised_body_key
from docgen.extract.bound_calls import bound_call, own_nodes, set_status, with_local_dicts
from docgen.extract.bound_helpers import bound_helper, discarded, for_method, without_returned
from docgen.extract.callees import Callees
from docgen.extract.calls import FunctionNode, unparse
from docgen.extract.class_messages import with_class_messages
from docgen.extract.decorators import decorator_wrappers
from docgen.extract.factories import returned_exceptions
from docgen.extract.handled import handled_values
from docgen.extract.http_classes import HttpClasses
from docgen.extract.local_imports import qualify_here
from docgen.extract.local_names import LocalNames, local_names
from docgen.extract.program import Code, Program
from docgen.extract.raised_values import RaisedValues
from docgen.extract.resolve import Assumed
from docgen.extract.responses import ERROR_STATUS, CallReader, Stated
from docgen.extract.routes import (
    Endpoint,
    Framework,
    FrameworkError,
    Handler,
    framework_errors,
)
from docgen.extract.translated import with_local_messages
from docgen.extract.walk import CallWalk, Into


@record
class Raised:
    """One place that raises an HTTP error, with what the client receives."""

    status: int | None
    """None when the status cannot be told statically."""
    detail: str
    exception: str
    """The exception class as its module names it (`ItemNotFound`, or the framework's own)."""
    function: str
    file: str
    line: int
    handler: str | None
    """The exception handler that turns it into a response, if one does."""
    body_key: str
    assumed: tuple[Assumed, ...] = ()
    """Values the status or detail takes on trust (a settings default, a value the configuration states)."""
    generic: bool = True
    """Made by the framework's own class, function or response (`HTTPBadRequest`, `abort`), rather than
    by an exception class of the application (`ItemNotFound`), which names the error's new id."""
    origin: str = ""
    """For an error a helper answers, placed at the call that gives it its values (`bound_helper`): where
    the helper makes it (`file:line`), which tells apart two errors of one call."""


@record
class Reached:
    """A raise site as one operation reaches it: through which functions, from the route's."""

    raised: Raised
    via: tuple[str, ...]


SiteKey = tuple[str, int, str, str]
"""A raise site: its file, line and what makes it (one line may make two errors: `request.get_json()`
answers 415 or 400), and for a helper's error placed at a call, where the helper makes it."""


def site_key(raised: Raised) -> SiteKey:
    return (raised.file, raised.line, raised.exception, raised.origin)


_Step = tuple[Code, tuple[str, ...]]
"""A function the walk of one operation enters, and the paths of the functions from the root to it."""


class RaiseFinder:
    """Finds the HTTP errors of operations, for one program and framework."""

    def __init__(self, program: Program, framework: Framework, handlers: dict[str, Handler]) -> None:
        self.program = program
        self.framework = framework
        self.handlers = handlers
        self.resolver = framework.resolver
        self.classes = HttpClasses(program, framework.resolver)
        self.calls = CallReader(program, framework, self.classes)
        self.values = RaisedValues(program, framework, self.classes, self.calls)
        self._locals: dict[tuple[str, int], LocalNames] = {}
        self.callees = Callees(program, self._locals)
        self.body_key = framework.body_key
        """The body key of the operation walked: its own (`Endpoint.body_key`), else the framework's."""
        self.scoped: dict[str, Handler] = {}
        """The handlers of the operation walked that answer before the application's (`Endpoint.handlers`)."""
        self.cuts: dict[str, SourceError] = {}
        """Each call the walks did not follow, past `MAX_CALL_DEPTH` calls below an operation, by where it
        is (`file:line`): the errors raised below it are not listed, and extract says so."""
        self._bound_at: dict[int, tuple[griffe.Module, int, str]] = {}
        """A helper's code entered with the values of one call (by the id of its node) -> the module, line
        and function of that call, where what it answers is placed."""
        self.cut_operations: dict[str, None] = {}
        """The operations (`GET /path`) whose walk left such a call out, in order."""
        self._thrown: dict[int, dict[int, frozenset[int]]] = {}
        """By the id of a function's node: its calls whose results it throws away (`discarded`)."""
        self.method = ""
        """The HTTP method of the operation walked, which `request.method` is in its functions."""
        self._by_method: dict[tuple[int, str], tuple[Code, Code]] = {}
        """(id of a function's node, method) -> the code and its copy for that method (the code is kept
        so that the id stays its own)."""

    def operation_errors(self, endpoint: Endpoint) -> list[Reached]:
        """Every HTTP error `endpoint` can raise, dependencies first, each raise site once."""
        found: dict[SiteKey, Reached] = {}
        hint = "raise the HTTP error nearer the route, or move the deep call nearer it"
        walk: CallWalk[_Step, Reached] = CallWalk(
            self._visit,
            each="walk",
            hint=hint,
            name=lambda step: step[0].path,
            file=lambda step: self.program.files(step[0].module),
            cut=lambda error: self._cut(endpoint, error),
        )
        self.body_key = endpoint.body_key or self.framework.body_key
        self.method = endpoint.method
        self.scoped = {}
        for path, scoped in endpoint.handlers:
            self.scoped.setdefault(path, scoped)
        for implied in endpoint.implied:
            site = (implied.status, implied.detail, implied.exception, implied.function, implied.file)
            raised = Raised(*site, implied.line, None, self.body_key)
            found.setdefault(site_key(raised), Reached(raised, (endpoint.function.path,)))
        roots = list(endpoint.dependencies)
        if isinstance(endpoint.function, griffe.Function):  # a class writes no code of its own to follow
            function = self.program.code(endpoint.function)
            roots.extend([*decorator_wrappers(self.program, function), function])
        for root in roots:
            for reached in walk.walk((root, (root.path,)), root.path):
                found.setdefault(site_key(reached.raised), reached)
        return list(found.values())

    def _visit(self, step: _Step) -> Iterator[Reached | Into[_Step]]:
        """What `_visit_body` finds; in a helper entered with the values one call gives it
        (`bound_helper`), each error it answers itself is placed at that call, in the caller."""
        where = self._bound_at.get(id(step[0].node))
        for item in self._visit_body((self._for_method(step[0]), step[1])):
            if where is not None and isinstance(item, Reached):
                module, line, caller = where
                origin = item.raised.origin or f"{item.raised.file}:{item.raised.line}"
                placed = dataclasses.replace(
                    item.raised, file=self.program.files(module), line=line, function=caller, origin=origin
                )
                item = Reached(placed, item.via)  # noqa: PLW2901
            yield item

    def _for_method(self, code: Code) -> Code:
        """`code` as it runs for the operation walked, when it reads `request.method` (`for_method`)."""
        key = (id(code.node), self.method)
        if key not in self._by_method:
            made = for_method(code.node, self.method)
            self._by_method[key] = (code, Code(code.path, made, code.module) if made is not None else code)
        return self._by_method[key][1]

    def _visit_body(self, step: _Step) -> Iterator[Reached | Into[_Step]]:
        """The HTTP errors `step`'s function raises itself, and the dependencies and functions it calls (for
        the walk to follow), in the order a reader meets them."""
        code, via = step
        for dependency in self.framework.parameter_dependencies(self.program, code):
            yield Into((dependency, (*via, dependency.path)), dependency.path, code.node.lineno)
        for answered in framework_errors(self.framework, self.program, code):
            path = via if answered.function == via[-1] else (*via, answered.function)
            yield Reached(self._answered(answered), path)
        for inner in own_nodes(code.node):
            taken = len(self.resolver.taken)  # what the resolver takes on trust from here on is this site's
            if isinstance(inner, ast.Raise) and inner.exc is not None:
                yield from self._raised(inner.exc, inner, code, via, taken)
            elif isinstance(inner, ast.Return) and inner.value is not None:
                for returned in self._returned_values(inner, code):
                    status = set_status(inner.value, code.node, inner)
                    stated = self.calls.returned(returned, code.module, status)
                    if stated is not None:
                        yield Reached(self._trusting(self._site(stated, code, inner.lineno), taken), via)
            elif isinstance(inner, ast.Call) and (stated := self.calls.raising_call(inner, code.module)):
                yield Reached(self._trusting(self._site(stated, code, inner.lineno), taken), via)
            elif isinstance(inner, ast.Call):
                yield from self._called(inner, code, via)
            elif isinstance(inner, ast.Attribute) and (
                read := self.callees.property_of_instance(inner, code)
            ):
                yield Into((read, (*via, read.path)), read.path, inner.lineno)  # a property runs when read

    def _returned_values(self, at: ast.Return, code: Code) -> list[ast.expr]:
        """What a `return` hands back that may be a response: the value (a local name, the call it was
        bound to); where a view's tuple is no `(body, status)`, each call in a returned tuple (`return None,
        user, web.json_response(..., status=404)`, a helper's answer beside its other results)."""
        assert at.value is not None
        value = bound_call(at.value, code.node, at) or at.value  # `return response`
        values = [value]
        if isinstance(value, ast.Tuple) and not self.framework.tuple_status:
            values = [element for element in value.elts if isinstance(element, ast.Call)]
        return [with_local_dicts(v, code.node) if isinstance(v, ast.Call) else v for v in values]

    def _called(self, call: ast.Call, code: Code, via: tuple[str, ...]) -> Iterator[Into[_Step]]:
        """The function `call` calls, to follow: a helper that builds its answer from its parameters is
        entered with this call's values (`bound_helper`), once per call."""
        named = qualify_here(self.program, call.func, code.module, code.node, anywhere=False)
        callee = self.program.function(named)
        callee = (
            callee
            or self.callees.overridden(call.func, code, via[0])
            or self.callees.method_of_instance(call.func, code)
        )
        if callee is None:
            return
        bound = bound_helper(self.program, self.resolver, call, code, callee)
        thrown = self._discarded(code).get(id(call))
        if thrown is not None and bound is None:  # `user, _ = get_user(...)`: what it returns is not sent
            kept = self.program.code(callee)
            dropped = Code(kept.path, without_returned(kept.node, thrown), kept.module)
            key = f"{callee.path}#{sorted(thrown)}"  # raises in it stay where they are
            yield Into((dropped, (*via, callee.path)), key, call.lineno)
            return
        if thrown is not None and bound is not None:
            bound = Code(bound.path, without_returned(bound.node, thrown), bound.module)
        if bound is not None:  # `error_response(404, "No such item")`
            self._bound_at[id(bound.node)] = (code.module, call.lineno, code.path)
            yield Into((bound, (*via, callee.path)), f"{callee.path}@{code.path}:{call.lineno}", call.lineno)
            return
        called = self.program.code(callee)
        yield Into((called, (*via, called.path)), called.path, call.lineno)

    def _discarded(self, code: Code) -> dict[int, frozenset[int]]:
        key = id(code.node)
        if key not in self._thrown:
            self._thrown[key] = discarded(code.node)
        return self._thrown[key]

    def _cut(self, endpoint: Endpoint, error: SourceError) -> None:
        self.cuts.setdefault(error.location, error)
        self.cut_operations.setdefault(f"{endpoint.method.upper()} {endpoint.path}")

    def _answered(self, answered: FrameworkError) -> Raised:
        """The site of an error the framework answers, through the handler of the class it raises, if any."""
        site = (answered.status, answered.detail, answered.exception, answered.function, answered.file)
        if answered.raised is None:
            return Raised(*site, answered.line, None, self.framework.body_key)
        handler = self._handler(self.classes.ancestry(answered.raised))
        if handler is None:
            return Raised(*site, answered.line, None, self.body_key)
        status = handler.status if handler.status is not None else answered.status
        detail = handler.detail if handler.detail is not None else answered.detail
        where = (answered.exception, answered.function, answered.file, answered.line)
        return Raised(status, detail, *where, handler.function.path, handler.body_key)

    def _raised(
        self, exc: ast.expr, at: ast.stmt, code: Code, via: tuple[str, ...], taken: int
    ) -> Iterator[Reached]:
        """The HTTP error a `raise` makes, or, for `raise error_for(exc)`, each one the function returns."""
        call = _raised_call(exc, code.node, at)
        raised = self._classify(call, code, at.lineno, at, via) if call is not None else None
        if raised is not None:
            yield Reached(self._trusting(raised, taken), via)
        elif call is not None:
            for made, maker, made_line in returned_exceptions(self.program, call, code):
                site = self._classify(made, maker, made_line)
                if site is not None:
                    yield Reached(self._trusting(site, taken), (*via, maker.path))

    def _trusting(self, raised: Raised, taken: int) -> Raised:
        """`raised` with the values the resolver took on trust since `taken` while reading it."""
        assumed = tuple(dict.fromkeys(self.resolver.taken[taken:]))
        return dataclasses.replace(raised, assumed=assumed) if assumed else raised

    def _classify(
        self, call: ast.Call, code: Code, line: int, at: ast.stmt | None = None, via: tuple[str, ...] = ()
    ) -> Raised | None:
        held = (code.path, id(code.node))  # a helper read with a call's values has locals of its own
        if held not in self._locals:
            self._locals[held] = local_names(code.node)
        where = (code.node, at) if at is not None else None
        call = with_local_messages(call, self._locals[held], code.module, where)
        call = with_class_messages(call, code, self.program, getattr(self.framework, "instance_dicts", {}))
        path = qualify_here(self.program, call.func, code.module, code.node)
        if path is None:
            return None
        ancestry = self.classes.ancestry(path)
        base = next((p for p in ancestry if p in self.framework.http_exceptions), None)
        handler = self._handler(ancestry)
        if base is None and handler is None:
            return None
        status, detail, key = self.values.stated(call, code.module, path, ancestry, base)
        by_status: dict[int, Handler] = getattr(self.framework, "status_handlers", {})
        if base is not None and status in by_status:  # `exception_handlers={404: ...}` answers it first
            handler = by_status[status]
        own_key = key or raised_body_key(self.framework, self.calls, call, code, ancestry, base, via)
        if handler is not None and base is None:  # an exception of the application's own, and its handler
            read = handled_values(self.classes, self.framework, call, code.module, ancestry, handler)
            status, detail = read[0] if read[0] is not None else status, read[1] or detail
        if handler is None and base is not None:  # the framework answers it: what it sends for that status
            detail = dict(self.framework.http_exceptions[base].replaced_details).get(status or 0, detail)
        if handler is not None:
            status = handler.status if handler.status is not None else status
            detail = handler.detail if handler.detail is not None else detail
        if status is not None and status < ERROR_STATUS:
            return None  # a redirect raised as an exception (Werkzeug's `RequestRedirect`): not an error
        return Raised(
            status=status,
            detail=detail,
            exception=unparse(call.func),
            function=code.path,
            file=self.program.files(code.module),
            line=line,
            handler=handler.function.path if handler is not None else None,
            body_key=handler.body_key if handler is not None else own_key or self.body_key,
            generic=path.split(".")[0] in self.framework.import_roots,
        )

    def _handler(self, ancestry: list[str]) -> Handler | None:
        """The handler of the nearest class of `ancestry`: the operation's own handlers first (a blueprint's),
        then the application's."""
        for handlers in (self.scoped, self.handlers):
            found = next((handlers[path] for path in ancestry if path in handlers), None)
            if found is not None:
                return found
        return None

    def _site(self, stated: Stated, code: Code, line: int) -> Raised:
        """A raise site for an error a call makes without `raise` (a raising function, a response)."""
        file = self.program.files(code.module)
        ancestry = self.classes.ancestry(stated.raised) if stated.raised is not None else []
        handler = self._handler(ancestry)
        if handler is None:
            body_key = stated.body_key or self.body_key
            return Raised(
                stated.status, stated.detail, stated.exception, code.path, file, line, None, body_key
            )
        status = handler.status if handler.status is not None else stated.status
        detail = handler.detail if handler.detail is not None else stated.detail
        path = handler.function.path
        return Raised(status, detail, stated.exception, code.path, file, line, path, handler.body_key)


def _raised_call(exc: ast.expr, node: FunctionNode, at: ast.stmt) -> ast.Call | None:
    """The call that built the raised exception: `raise X(...)`, `raise name` after `name = X(...)`, or
    `raise X` naming a class, which Python calls without arguments (`raise NotFound`)."""
    if isinstance(exc, ast.Call):
        return exc
    bound = bound_call(exc, node, at)
    if bound is not None:
        return bound
    if isinstance(exc, ast.Name | ast.Attribute):  # what it names is told by `_classify`
        return ast.copy_location(ast.Call(func=exc, args=[], keywords=[]), exc)
    return None
