"""Local variables whose value can be told from the function's own text: `checks = Checks()`, bound once,
or a parameter annotated with a class (`checks: Checks`) and bound nowhere else.

Extraction follows a method called on such a variable (`checks.more(...)`) into the class it was made from. A
name counts only when the function (its closures included) binds it exactly once, by assigning a call: a
second binding anywhere, or a binding docgen cannot read the value of, and the variable is left alone. A local
hides a module-level name of the same spelling, as in Python: `POLICY = request.policy` in a function means
that its `POLICY.check(...)` is not the module-level instance's method.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import field

from docgen.core.records import record
from docgen.core.trees import nodes_below


def dotted_name(node: ast.expr) -> str | None:
    """`a.b.C` for a chain of names and attributes; None for anything else."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


@record
class LocalNames:
    """The names a function binds (its closures included); those bound exactly once, by an assignment of a
    call (`name = f()`, `name: T = f()`, `(name := f())`), with that call; and the annotated parameters."""

    bound: frozenset[str]
    single_calls: Mapping[str, ast.Call]
    annotated: Mapping[str, ast.expr] = field(default_factory=dict)
    """The parameters bound nowhere else, each with its annotation (`service: Service`), when it has one."""

    def class_of(self, name: str) -> ast.expr | None:
        """The name or attribute that names the class the local `name` holds an instance of: the class its
        only binding calls (`checks = Checks()`), or the one its parameter's annotation names (`checks:
        Checks`); None when that cannot be told (whether it names a class is the caller's to resolve)."""
        call = self.single_calls.get(name)
        if call is not None:
            return call.func
        annotation = self.annotated.get(name)
        return annotated_class(annotation) if annotation is not None else None


def local_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> LocalNames:
    """What `function` binds. Any binding but the assignment of a call or an annotated parameter (a loop
    target, `with ... as`, `except ... as`, an unpacking, an import, a nested def, a `global` or `nonlocal`)
    is one whose value is not known statically, and a second binding of a name makes its value uncertain
    too."""
    calls: dict[str, ast.Call] = {}
    annotations: dict[str, ast.expr] = {}
    counts: dict[str, int] = {}
    for node in nodes_below(function, _BINDERS):
        if node is function:
            continue  # its own name belongs to the enclosing scope
        if isinstance(node, ast.arg) and node.annotation is not None:
            annotations[node.arg] = node.annotation
        for bound, value in _bindings(node):
            counts[bound] = counts.get(bound, 0) + 1
            if isinstance(value, ast.Call):
                calls[bound] = value
    single = {name: call for name, call in calls.items() if counts[name] == 1}
    annotated = {name: note for name, note in annotations.items() if counts[name] == 1}
    return LocalNames(frozenset(counts), single, annotated)


def parameter_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str]:
    """The names of `function`'s own parameters. None of them is ever among `local_names(function)`'s
    single calls: the parameter is one binding already, so an assignment of a call would be a second."""
    arguments = function.args
    every = [
        *arguments.posonlyargs,
        *arguments.args,
        *arguments.kwonlyargs,
        arguments.vararg,
        arguments.kwarg,
    ]
    return frozenset(argument.arg for argument in every if argument is not None)


_OPTIONAL = frozenset({"Optional", "typing.Optional"})
_ANNOTATED = frozenset({"Annotated", "typing.Annotated", "typing_extensions.Annotated"})


def annotated_class(annotation: ast.expr) -> ast.expr | None:
    """The one class an annotation names, as the name or attribute that names it: `Service`, `svc.Service`,
    `Service | None`, `Optional[Service]`, or `Annotated[Service, ...]` (how a web framework's dependency
    injection declares a service); None for anything else (a union of two classes, a string, a generic)."""
    if isinstance(annotation, ast.Subscript):
        outer = dotted_name(annotation.value)
        inner = annotation.slice
        if outer in _ANNOTATED and isinstance(inner, ast.Tuple) and inner.elts:
            return annotated_class(inner.elts[0])
        return annotated_class(inner) if outer in _OPTIONAL else None
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        sides = [side for side in (annotation.left, annotation.right) if not _is_none(side)]
        return annotated_class(sides[0]) if len(sides) == 1 else None
    return annotation if dotted_name(annotation) is not None else None


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


_BINDERS = frozenset(
    {
        *(ast.Assign, ast.AnnAssign, ast.NamedExpr, ast.AugAssign, ast.For, ast.AsyncFor, ast.comprehension),
        *(ast.withitem, ast.Delete, ast.arg, ast.ExceptHandler, ast.MatchAs, ast.MatchStar, ast.MatchMapping),
        *(ast.alias, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Global, ast.Nonlocal),
    }
)
"""The node types `_bindings` reads a name from; most of a tree's nodes are none of them."""


def _bindings(node: ast.AST) -> Iterator[tuple[str, ast.expr | None]]:
    """The names `node` binds, each with the value it assigns when that is one name's whole value (None for
    any other binding)."""
    if isinstance(node, ast.Assign):
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            yield node.targets[0].id, node.value
        else:
            yield from ((name, None) for target in node.targets for name in _stored(target))
    elif isinstance(node, ast.AnnAssign | ast.NamedExpr):
        value = node.value if isinstance(node.target, ast.Name) else None
        yield from ((name, value) for name in _stored(node.target))
    else:
        yield from ((name, None) for name in _other_bindings(node))


def _other_bindings(node: ast.AST) -> Iterator[str]:
    """The names `node` binds other than by an assignment statement or expression."""
    if isinstance(node, ast.AugAssign | ast.For | ast.AsyncFor | ast.comprehension):
        yield from _stored(node.target)
    elif isinstance(node, ast.withitem) and node.optional_vars is not None:
        yield from _stored(node.optional_vars)
    elif isinstance(node, ast.Delete):
        yield from (name for target in node.targets for name in _stored(target))
    elif isinstance(node, ast.arg):
        yield node.arg
    elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name:
        yield node.name
    elif isinstance(node, ast.MatchMapping) and node.rest:
        yield node.rest
    elif isinstance(node, ast.alias):
        yield (node.asname or node.name).split(".")[0]
    elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        yield node.name
    elif isinstance(node, ast.Global | ast.Nonlocal):
        yield from node.names


def _stored(target: ast.expr) -> Iterator[str]:
    """The names an assignment target binds: `a`, and each name of `a, (b, *c)`."""
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, ast.Tuple | ast.List):
        for element in target.elts:
            yield from _stored(element)
    elif isinstance(target, ast.Starred):
        yield from _stored(target.value)
