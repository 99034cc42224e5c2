"""A helper that builds an error response from its parameters, read once per call with the values it is given.

Real servers answer through helpers of their own: `def error_response(status, errcode, error): return
web.json_response({"error": error, "errcode": errcode}, status=status)`, called as `return
self.error_response(404, "portal_not_found", "Portal not found.")`. Read on its own, the helper's response
has no status and a template for a detail. Read at a call, each parameter the call gives a constant (or
leaves at a constant default) stands for that constant, so that the response the helper returns there has
the status, detail and code the call decides, and an `if` the constants decide takes its branch (a check
the call turns off, `require_puppeting=False`, answers nothing there). The walk of a routes catalog enters
such a call as its own function (`bound_helper`), and places what it answers at the call.
"""

from __future__ import annotations

import ast
import copy
import enum

import griffe

from docgen.core.errors import SourceError
from docgen.extract.bound_calls import own_nodes
from docgen.extract.calls import FunctionNode
from docgen.extract.program import Code, Program
from docgen.extract.resolve import Resolver, Unresolvable

Scalar = str | int | float | bool | None


def bound_helper(
    program: Program, resolver: Resolver, call: ast.Call, caller: Code, callee: griffe.Function
) -> Code | None:
    """`callee`'s code with each parameter `call` gives a constant (or leaves at a constant default)
    replaced by it, when a call `callee` returns or an `if` of it reads its parameters; None otherwise."""
    node = program.node(callee)
    parameters = _parameters(callee, node)
    returned = [
        inner.value
        for inner in own_nodes(node)
        if isinstance(inner, ast.Return)
        and isinstance(inner.value, ast.Call | ast.Tuple)  # Flask's (body, 404)
    ]
    tests = [inner.test for inner in own_nodes(node) if isinstance(inner, ast.If)]
    used = {n.id for value in [*returned, *tests] for n in ast.walk(value) if isinstance(n, ast.Name)}
    if not used & set(parameters):
        return None
    given = _given(call, parameters)
    values: dict[str, Scalar] = {}
    for name in parameters:
        if name in given:
            found = _constant(resolver, given[name], caller.module)
        else:
            default = _default(node, name)
            found = _constant(resolver, default, callee.module) if default is not None else None
        if found is not None:
            values[name] = found[0]
    if not values:
        return None  # nothing the call decides: the helper as it reads on its own
    return Code(callee.path, _replaced(node, values), callee.module)


def _parameters(callee: griffe.Function, node: FunctionNode) -> list[str]:
    """The parameters a caller passes, by position then keyword-only (`self` and `cls` left out)."""
    positional = [a.arg for a in [*node.args.posonlyargs, *node.args.args]]
    static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)
    if isinstance(callee.parent, griffe.Class) and not static and positional:
        positional = positional[1:]
    return [*positional, *(a.arg for a in node.args.kwonlyargs)]


def _given(call: ast.Call, parameters: list[str]) -> dict[str, ast.expr]:
    given: dict[str, ast.expr] = {}
    for position, argument in enumerate(call.args):
        if isinstance(argument, ast.Starred) or position >= len(parameters):
            break
        given[parameters[position]] = argument
    for keyword in call.keywords:
        if keyword.arg is not None and keyword.arg in parameters:
            given[keyword.arg] = keyword.value
    return given


def _default(node: FunctionNode, name: str) -> ast.expr | None:
    positional = [a.arg for a in [*node.args.posonlyargs, *node.args.args]]
    defaults: dict[str, ast.expr] = {}
    if node.args.defaults:
        defaults.update(zip(positional[-len(node.args.defaults) :], node.args.defaults, strict=True))
    defaults.update(
        (a.arg, d) for a, d in zip(node.args.kwonlyargs, node.args.kw_defaults, strict=True) if d is not None
    )
    return defaults.get(name)


def _constant(resolver: Resolver, node: ast.expr, module: griffe.Module) -> tuple[Scalar] | None:
    """The constant `node` stands for (an enum member as its value), in a 1-tuple; None when it is none."""
    try:
        value = resolver.evaluate(node, module).value
    except (Unresolvable, SourceError):
        return None
    if isinstance(value, enum.Enum):
        value = value.value
    return (value,) if isinstance(value, str | int | float | bool) or value is None else None


def _truth(test: ast.expr) -> bool | None:
    """Whether a test made of constants holds (`"" or ""`, `not None`, `400 == 400`, `x is None`); None when
    it is not made of constants only."""
    if isinstance(test, ast.Constant):
        return bool(test.value)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _truth(test.operand)
        return None if inner is None else not inner
    if isinstance(test, ast.BoolOp):  # `False and x` is false, `True or x` true, whatever `x` is
        found = [_truth(value) for value in test.values]
        deciding = isinstance(test.op, ast.Or)
        if deciding in found:
            return deciding
        return None if None in found else not deciding
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.In | ast.NotIn):
        left, right = test.left, test.comparators[0]
        listed = right.elts if isinstance(right, ast.Tuple | ast.List | ast.Set) else None
        if isinstance(left, ast.Constant) and listed and all(isinstance(e, ast.Constant) for e in listed):
            member = any(isinstance(e, ast.Constant) and e.value == left.value for e in listed)
            return member if isinstance(test.ops[0], ast.In) else not member
        return None
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, right = test.left, test.comparators[0]
        if isinstance(left, ast.Constant) and isinstance(right, ast.Constant):
            same = left.value == right.value and type(left.value) is type(right.value)
            if isinstance(test.ops[0], ast.Eq | ast.Is):
                return same
            if isinstance(test.ops[0], ast.NotEq | ast.IsNot):
                return not same
    return None


def for_method(node: FunctionNode, method: str) -> FunctionNode | None:
    """A copy of `node` as it runs for an operation of HTTP `method`: `request.method` is that method, and
    the `if`s it decides take their branch (`if request.method == "POST":` in a GET operation answers
    nothing); None when `node` does not read `request.method`."""
    if not any(_is_request_method(inner) for inner in ast.walk(node)):
        return None
    return _replaced(node, {}, method.upper())


def _is_request_method(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "method"
        and isinstance(node.ctx, ast.Load)
        and isinstance(node.value, ast.Name)
        and node.value.id == "request"
    )


def _replaced(node: FunctionNode, values: dict[str, Scalar], method: str | None = None) -> FunctionNode:
    """A copy of `node` whose reads of the names in `values` are those constants (and of `request.method`,
    `method`)."""

    class Replace(ast.NodeTransformer):
        def visit_Name(self, name: ast.Name) -> ast.expr:
            if isinstance(name.ctx, ast.Load) and name.id in values:
                return ast.copy_location(ast.Constant(values[name.id]), name)
            return name

        def visit_Attribute(self, attribute: ast.Attribute) -> ast.expr:
            if method is not None and _is_request_method(attribute):
                return ast.copy_location(ast.Constant(method), attribute)
            self.generic_visit(attribute)
            return attribute

        def visit_If(self, statement: ast.If) -> ast.AST | list[ast.stmt]:
            """An `if` whose test the constants decide is the branch it takes (`if username or phone:`
            with both empty is its `else`), so that a response built in one branch reads as that one."""
            self.generic_visit(statement)
            decided = _truth(statement.test)
            if decided is None:
                return statement
            return (statement.body if decided else statement.orelse) or [ast.Pass()]

        def generic_visit(self, node: ast.AST) -> ast.AST:
            """A block ends at its first `return` or `raise` once the `if`s in it are decided (`if not
            require_user: return None, None` taken leaves what follows it unreachable)."""
            node = super().generic_visit(node)
            for field in ("body", "orelse", "finalbody"):
                block = getattr(node, field, None)
                if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                    ends = [i for i, s in enumerate(block) if isinstance(s, ast.Return | ast.Raise)]
                    setattr(node, field, block[: ends[0] + 1] if ends else block)
            return node

    made = Replace().visit(copy.deepcopy(node))
    assert isinstance(made, ast.FunctionDef | ast.AsyncFunctionDef)
    return made


DISCARDED_ALL = -1
"""Every value a call returns is thrown away (the call is a statement of its own)."""


def discarded(node: FunctionNode) -> dict[int, frozenset[int]]:
    """For each call in `node` whose result is thrown away, in part or whole (by the id of its node): the
    positions of the returned tuple not kept (`user, _ = get_user(...)` keeps 0), or `DISCARDED_ALL` for a
    call made as a statement of its own."""
    found: dict[int, frozenset[int]] = {}
    for inner in own_nodes(node):
        value = inner.value if isinstance(inner, ast.Assign | ast.Expr) else None
        call = value.value if isinstance(value, ast.Await) else value
        if not isinstance(call, ast.Call):
            continue
        if isinstance(inner, ast.Expr):
            found[id(call)] = frozenset({DISCARDED_ALL})
        elif (
            isinstance(inner, ast.Assign)
            and len(inner.targets) == 1
            and isinstance(inner.targets[0], ast.Tuple)
        ):
            names = inner.targets[0].elts
            thrown = {i for i, name in enumerate(names) if isinstance(name, ast.Name) and name.id == "_"}
            if thrown:
                found[id(call)] = frozenset(thrown)
    return found


def without_returned(node: FunctionNode, positions: frozenset[int]) -> FunctionNode:
    """A copy of `node` whose `return`s hand back nothing at `positions` of a returned tuple (or nothing at
    all, for `DISCARDED_ALL`): a response it returns there never reaches the client."""

    class Drop(ast.NodeTransformer):
        def visit_Return(self, statement: ast.Return) -> list[ast.stmt]:
            """`return x` becomes `x` as a statement of its own, so that what `x` raises or calls is still
            read, and `return None`; in a tuple, only the elements at `positions` are so."""
            value = statement.value
            if value is None:
                return [statement]
            if DISCARDED_ALL in positions:
                dropped, statement.value = [value], ast.copy_location(ast.Constant(None), value)
            elif isinstance(value, ast.Tuple):
                dropped = [e for i, e in enumerate(value.elts) if i in positions]
                value.elts = [
                    ast.copy_location(ast.Constant(None), e) if i in positions else e
                    for i, e in enumerate(value.elts)
                ]
            else:
                return [statement]
            kept: list[ast.stmt] = [ast.copy_location(ast.Expr(e), statement) for e in dropped]
            return [*kept, statement]

        def visit_FunctionDef(self, inner: ast.FunctionDef) -> ast.AST:
            return inner if inner is not made else self.generic_visit(inner)

        def visit_AsyncFunctionDef(self, inner: ast.AsyncFunctionDef) -> ast.AST:
            return inner if inner is not made else self.generic_visit(inner)

    made = copy.deepcopy(node)
    result = Drop().visit(made)
    assert isinstance(result, ast.FunctionDef | ast.AsyncFunctionDef)
    return result
