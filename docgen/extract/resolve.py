"""Static evaluation of the small expressions that name codes, statuses and limits.

Resolves literals, unary minus, arithmetic, module constants (also imported from other modules of the loaded
package), class attributes such as `IntEnum` members, and members of a few standard-library enums; a resolver
made with `instances` also reads a field of a module-level instance (`settings.API_V1_STR`) as the default
its class declares, and one made with `stated` takes the values a configuration states for expressions it
names, each recorded as `Assumed` beside the value. Nothing of the backend is imported or run: values come
from griffe's static model of the source. Anything else is an error that names the expression, never a
guess. Folding is bounded (docgen/core/limits.py, held by
`folding`): an operation whose result would pass MAX_INT_BITS or MAX_FOLDED_ITEMS (`9**9**9`,
`'x' * 10**10`, `1 << 10**12`) is refused from the size of its operands, before it is computed.
"""

from __future__ import annotations

import ast
import http
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import griffe

from docgen.core.errors import SourceError
from docgen.core.models import Json
from docgen.core.records import record
from docgen.core.settings import relative_path
from docgen.extract.calls import unparse
from docgen.extract.folding import TooLarge, refuse_large_result, refuse_large_value
from docgen.extract.modules import SourceModules
from docgen.extract.translated import message_id
from docgen.extract.unreadable import UndefinedName

Value = int | float | str | bool | None | tuple["Value", ...]

# Standard-library enums whose members are safe to read: importing them runs no backend code.
STDLIB_ENUMS: dict[str, Any] = {"http.HTTPStatus": http.HTTPStatus}

_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
    ast.LShift: operator.lshift,
    ast.RShift: operator.rshift,
    ast.BitOr: operator.or_,
    ast.BitAnd: operator.and_,
}
_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
    ast.Invert: operator.invert,
}


class Unresolvable(Exception):
    """An expression has no value that can be known without running code."""

    def __init__(self, expression: str, reason: str) -> None:
        super().__init__(f"cannot resolve `{expression}` statically: {reason}")
        self.expression = expression
        self.reason = reason


@record
class Assumed:
    """A value docgen took on trust rather than read as a fact: a class's default for a field of a
    module-level instance (which the environment may override), or a value a configuration states."""

    expression: str
    """The expression as the source writes it (`settings.API_V1_STR`)."""
    value: Value
    source: str
    """Where the value comes from: `default of app.core.config.Settings.API_V1_STR`, or `stated in
    mkdocs.yml`."""


@record
class Resolved:
    """A value, the module-level names it was computed from (for drift grouping), and what it assumes."""

    value: Value
    names: tuple[str, ...] = ()
    assumed: tuple[Assumed, ...] = ()


@record
class InstanceField:
    """What an attribute of a module-level instance stands for: the expression that gives its value, read in
    `scope`, and where that expression is written (`Assumed.source`)."""

    expression: str
    value: ast.expr
    scope: griffe.Object
    source: str | None
    """None: the value is the code's own (a keyword the instance is made with), not an assumption."""


InstanceReader = Callable[["Resolver", griffe.Attribute, str, ast.expr], InstanceField]
"""Reads the field (a name) of a module-level instance (an attribute) written at a node, or raises
Unresolvable (`docgen.extract.instance_defaults.instance_field`)."""


@dataclass
class _Trail:
    """What an evaluation went through: the module-level names, and the values it assumed."""

    names: list[str] = field(default_factory=list)
    assumed: list[Assumed] = field(default_factory=list)


Reference = griffe.Object | str | Any
"""What a dotted name can stand for: a griffe module or class, a stdlib enum class, or a final value."""


class Resolver:
    """Evaluates expressions in the scope of a griffe module, caching each constant once."""

    def __init__(
        self,
        modules: SourceModules | None = None,
        *,
        instances: InstanceReader | None = None,
        stated: Mapping[str, tuple[Value, str]] | None = None,
    ) -> None:
        self.modules = modules
        self.instances = instances
        """Reads a field of a module-level instance; None: such a field is not resolved."""
        self.stated = dict(stated or {})
        """Expression as written -> the value a configuration states for it, and where it is stated."""
        self.taken: list[Assumed] = []
        """What each call of `evaluate` took on trust, in order: a caller that cannot receive the `Resolved`
        (a status read through the framework) reads the part added while it worked."""
        """Where imported names are followed to, reading dependencies on the way; None: the loaded only."""
        self._cache: dict[str, Resolved] = {}
        self._active: set[str] = set()
        # What a module-level name stands for never changes during a run, and the same few names recur in
        # thousands of calls: following an imported name through griffe's aliases is the costly part.
        self._names: dict[tuple[griffe.Object, str], Reference] = {}

    def evaluate(self, node: ast.expr, scope: griffe.Object) -> Resolved:
        """Evaluate `node` (a node of `scope`'s module) as it would be evaluated at module level there."""
        try:
            resolved = self._evaluate(node, scope)
        except TooLarge as err:
            raise err.located(self.shown(scope.module), node.lineno) from None
        self.taken.extend(resolved.assumed)
        return resolved

    def shown(self, module: griffe.Module) -> str:
        """The file of `module` as messages show it (relative to the project root)."""
        filepath = module.filepath
        path = filepath[0] if isinstance(filepath, list) else filepath
        return relative_path(path, self.modules.root, follow_links=False) if self.modules else str(path)

    def _evaluate(self, node: ast.expr, scope: griffe.Object) -> Resolved:
        trail = _Trail()
        value = self._eval(node, scope, trail)
        if isinstance(value, http.HTTPStatus):
            value = int(value)
        if not isinstance(value, int | float | str | bool | tuple) and value is not None:
            raise Unresolvable(unparse(node), "it names a module or class, not a value")
        refuse_large_value(node, value)
        return Resolved(value, tuple(sorted(set(trail.names))), tuple(dict.fromkeys(trail.assumed)))

    def evaluate_text(self, source: str, scope: griffe.Object) -> Resolved:
        """Evaluate an expression given as source text (a griffe expression rendered with `str`)."""
        try:
            node = ast.parse(source, mode="eval").body
        except SyntaxError as err:
            raise Unresolvable(source, "not an expression") from err
        return self._evaluate(node, scope)

    def reference(self, text: str, scope: griffe.Object) -> Reference:
        """What the dotted name `text` stands for in `scope`'s module (a class, a module, a value)."""
        try:
            node = ast.parse(text, mode="eval").body
        except SyntaxError as err:
            raise Unresolvable(text, "not a name") from err
        return self._reference(node, scope, _Trail())

    def constant(self, attribute: griffe.Attribute) -> Resolved:
        """The value of a module or class attribute, evaluated once."""
        key = attribute.path
        if key in self._cache:
            return self._cache[key]
        if key in self._active:
            raise Unresolvable(attribute.name, "its definition refers to itself")
        if attribute.value is None:
            raise Unresolvable(attribute.name, "it is declared without a value")
        self._active.add(key)
        try:
            resolved = self.evaluate_text(str(attribute.value), attribute.parent or attribute)
        except TooLarge as err:
            raise err.located(self.shown(attribute.module), attribute.lineno, f"{attribute.name}: ") from None
        finally:
            self._active.discard(key)
        self._cache[key] = resolved
        return resolved

    def _eval(self, node: ast.expr, scope: griffe.Object, trail: _Trail) -> Any:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            return self._arith(_UNARY[type(node.op)], node, self._eval(node.operand, scope, trail))
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            left = self._eval(node.left, scope, trail)
            right = self._eval(node.right, scope, trail)
            return self._arith(_BINARY[type(node.op)], node, left, right)
        if isinstance(node, ast.Tuple | ast.List):
            return tuple(self._eval(item, scope, trail) for item in node.elts)
        if (
            isinstance(node, ast.Name | ast.Attribute | ast.Call)
            and self.stated
            and unparse(node) in self.stated
        ):
            value, where = self.stated[unparse(node)]
            trail.assumed.append(Assumed(unparse(node), value, f"stated in {where}"))
            return value
        if isinstance(node, ast.Name | ast.Attribute):
            return self._final(self._reference(node, scope, trail), node, trail)
        message = message_id(node, scope) if isinstance(node, ast.Call) else None
        if message is not None:  # a translated message: its id (see `docgen.extract.translated`)
            return self._eval(message, scope, trail)
        raise Unresolvable(unparse(node), f"{type(node).__name__} expressions are not evaluated")

    @staticmethod
    def _arith(function: Callable[..., Any], node: ast.expr, *operands: Any) -> Any:
        numbers = all(isinstance(o, int | float) and not isinstance(o, bool) for o in operands)
        if not numbers and not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mult)):
            raise Unresolvable(unparse(node), "arithmetic on something that is not a number")
        if isinstance(node, ast.BinOp):
            refuse_large_result(node, *operands)
        try:
            result = function(*operands)
        except TypeError as err:
            raise Unresolvable(unparse(node), "arithmetic on something that is not a number") from err
        except (ArithmeticError, ValueError) as err:  # 1 // 0, 2.0 ** 10000, 1 << -1
            raise Unresolvable(unparse(node), f"it cannot be computed: {err}") from err
        return result

    def _final(self, reference: Reference, node: ast.expr, trail: _Trail) -> Any:
        if isinstance(reference, griffe.Attribute):
            parent = reference.parent
            if parent is not None:
                trail.names.append(reference.name if parent.is_module else f"{parent.name}.{reference.name}")
            resolved = self.constant(reference)
        elif isinstance(reference, InstanceField):
            resolved = self._evaluate(reference.value, reference.scope)
            if reference.source is not None:
                trail.assumed.append(Assumed(reference.expression, resolved.value, reference.source))
        else:
            return reference
        trail.names.extend(resolved.names)
        trail.assumed.extend(resolved.assumed)
        return resolved.value

    def _reference(self, node: ast.expr, scope: griffe.Object, trail: _Trail) -> Reference:
        # The node travels down rather than its text: the text is only for an error message, and unparsing
        # every name up front cost a fifth of resolving a large backend.
        if isinstance(node, ast.Name):
            return self._lookup(scope, node.id, node)
        if isinstance(node, ast.Attribute):
            base = self._reference(node.value, scope, trail)
            return self._member(base, node.attr, node)
        raise Unresolvable(unparse(node), "not a name")

    def _lookup(self, scope: griffe.Object, name: str, node: ast.expr) -> Reference:
        module = scope if scope.is_module else scope.module
        key = (module, name)
        if key not in self._names:
            member = module.members.get(name)
            if member is None:
                raise Unresolvable(unparse(node), f"`{name}` is not defined at module level in {module.path}")
            self._names[key] = self._follow(member, node)
        return self._names[key]

    def _member(self, base: Reference, name: str, node: ast.expr) -> Reference:
        members = getattr(base, "__members__", None) if isinstance(base, type) else None
        if members is not None and name in members:
            return members[name]
        if isinstance(base, griffe.Object) and (base.is_module or base.is_class):
            member = base.members.get(name)
            if member is not None:
                return self._follow(member, node)
        if isinstance(base, griffe.Attribute) and self.instances is not None:
            return self.instances(self, base, name, node)  # `settings.API_V1_STR`
        raise Unresolvable(unparse(node), f"`{name}` is not a known member")

    def _follow(self, member: griffe.Object | griffe.Alias, node: ast.expr) -> Reference:
        if isinstance(member, griffe.Alias):
            member = self.target(member, unparse(node))
            if isinstance(member, griffe.Alias):
                return STDLIB_ENUMS[member.target_path]
        if isinstance(member, griffe.Attribute | griffe.Module | griffe.Class):
            return member
        raise Unresolvable(unparse(node), f"`{member.name}` is a {member.kind.value}, not a constant")

    def target(self, alias: griffe.Alias, what: str) -> griffe.Object | griffe.Alias:
        """What `alias` stands for, or the last alias on the way when it names a standard-library enum."""
        if self.modules is not None:
            try:
                return self.modules.target(alias, what)
            except UndefinedName as err:
                raise Unresolvable(what, err.message) from None  # made at run time: a dynamic value
            except SourceError:
                raise  # a module on the way is missing or cannot be read: not a value known at run time

        try:
            return alias.final_target
        except (griffe.AliasResolutionError, griffe.CyclicAliasError):
            target = alias.target_path
            if target in STDLIB_ENUMS:
                return alias
            raise Unresolvable(what, f"it is imported from {target}, outside the loaded source") from None


def as_json(value: Value) -> Json:
    """A resolved value as catalogs write it: tuples become lists."""
    if isinstance(value, tuple):
        return [as_json(item) for item in value]
    return value
