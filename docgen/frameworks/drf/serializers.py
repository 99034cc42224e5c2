"""The serializer validation an operation runs: REST framework answers a `ValidationError` raised by a
serializer's `validate` or `validate_<field>` with 400, so those methods are followed like the view's own
code wherever the operation validates.

An operation validates when its action is a mixin's `create`, `update` or `partial_update` (each calls
`serializer.is_valid(raise_exception=True)`), or when its own code calls `.is_valid(raise_exception=True)`.
The serializer is the view's `serializer_class` (for `self.get_serializer(...)`,
`self.serializer_class(...)` or `self.get_serializer_class()(...)`) or the class the code
instantiates (`serializer = SignUp(data=request.data)`), when it is a class of the source. A view's own
`get_serializer_class` is read where each of its returns names a class of the source; one that chooses
otherwise (`import_string(...)`), or a `serializer_class` that names no class docgen can read (a setting,
`api_settings.LOGIN_SERIALIZER`), is not guessed: it is unread, a located finding until `run_time_values:`
states the class. Their errors answer as a serializer's do: `{"non_field_errors": [...]}` from `validate`,
`{"email": [...]}` from `validate_email`.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

import griffe

from docgen.core.records import record
from docgen.extract.calls import unparse
from docgen.extract.http_classes import HttpClasses
from docgen.extract.local_names import local_names
from docgen.extract.program import Code, Program
from docgen.extract.resolve import Value
from docgen.extract.route_paths import Unread
from docgen.frameworks.drf.declared import FRAMEWORK_PACKAGES
from docgen.frameworks.drf.views import Answer, assigned

VALIDATING_ACTIONS = frozenset({"create", "update", "partial_update"})
CHOSEN_IN_CODE = "the view chooses its serializer in code"
UNREAD_CLASS = "it names no class docgen can read: chosen at run time, or from a package not loaded"


@record
class Chosen:
    """The serializer classes an operation validates with, what names one docgen cannot read, and the
    `run_time_values:` expressions whose stated classes were taken."""

    paths: tuple[str, ...] = ()
    unread: tuple[Unread, ...] = ()
    stated: tuple[str, ...] = ()
    saves: tuple[str, ...] = ()
    """What `serializer.save()` runs for the operation: `create`, `update` (a serializer's own, followed)."""

    def __add__(self, other: Chosen) -> Chosen:
        return Chosen(
            (*self.paths, *other.paths),
            (*self.unread, *other.unread),
            (*self.stated, *other.stated),
            (*self.saves, *(name for name in other.saves if name not in self.saves)),
        )

    def saving(self, *names: str) -> Chosen:
        return Chosen(self.paths, self.unread, self.stated, names)


class SerializerChecks:
    """The validation methods an operation's serializers run, for one program."""

    def __init__(
        self,
        program: Program,
        classes: HttpClasses,
        non_field_key: str,
        stated: Mapping[str, tuple[Value, str]],
    ) -> None:
        self.program = program
        self.classes = classes
        self.non_field_key = non_field_key
        self.stated = stated
        self.placed: dict[str, str] = {}
        """Validator path -> the body key its `ValidationError`s answer under: the non-field key for
        `validate`, the field for `validate_<field>`."""

    def chosen(self, view: griffe.Class | None, answer: Answer) -> Chosen:
        """The serializers the operation validates with."""
        if isinstance(answer.function, griffe.Class):
            if answer.action in VALIDATING_ACTIONS and view is not None:  # a mixin's action saves too
                return self._declared(view).saving("create" if answer.action == "create" else "update")
            return Chosen()
        return self._validated(view, answer.function)

    def checks(self, chosen: Chosen) -> list[Code]:
        """`validate` and `validate_<field>` of each serializer `chosen` names, then the `create` or
        `update` its `save()` runs, where the serializer writes its own."""
        found: list[Code] = []
        for serializer in chosen.paths:
            found.extend(code for code in self._validators(serializer) if code not in found)
        for serializer in chosen.paths:
            for name in chosen.saves:
                method = self._own_method(serializer, name)
                if method is not None and method not in found:
                    found.append(method)
        return found

    def _own_method(self, serializer: str, name: str) -> Code | None:
        for own in self.classes.ancestry(serializer):
            function = self.program.function(f"{own}.{name}")
            if function is not None and own.split(".")[0] not in FRAMEWORK_PACKAGES:
                return self.program.code(function)
        return None

    def _declared(self, view: griffe.Class) -> Chosen:
        """The view's serializer: what its own `get_serializer_class` returns, else its `serializer_class`."""
        for own in self.classes.ancestry(view.path):
            getter = self.program.function(f"{own}.get_serializer_class")
            if getter is not None and own.split(".")[0] not in FRAMEWORK_PACKAGES:
                # named after the view: a base's getter may choose another class for each subclass
                return self._returned(view, getter, f"{view.name}.get_serializer_class()")
        value = assigned(self.program, self.classes, view.path, "serializer_class")
        if value is None or (isinstance(value[0], ast.Constant) and value[0].value is None):
            return Chosen()
        return self._named([value], unparse(value[0]), UNREAD_CLASS)

    def _returned(self, view: griffe.Class, getter: griffe.Function, expression: str) -> Chosen:
        """The classes a view's `get_serializer_class` returns, when each return names one (or the view's
        `serializer_class`: `return self.serializer_class`, `return super().get_serializer_class()`)."""
        declared = assigned(self.program, self.classes, view.path, "serializer_class")
        nodes: list[tuple[ast.expr, griffe.Module]] = []
        returns = [n for n in ast.walk(self.program.node(getter)) if isinstance(n, ast.Return)]
        for node in sorted(returns, key=lambda n: (n.lineno, n.col_offset)):  # in source order
            if node.value is None:
                continue
            if _is_declared(node.value) and declared is not None:
                nodes.append(declared)
            else:
                nodes.append((node.value, getter.module))
        return self._named(nodes, expression, CHOSEN_IN_CODE, getter.lineno or 1)

    def _named(
        self, nodes: list[tuple[ast.expr, griffe.Module]], expression: str, reason: str, line: int = 0
    ) -> Chosen:
        """The source classes `nodes` name, else the classes stated for `expression`, else unread."""
        paths = [self.program.qualify(node, module) for node, module in nodes]
        if nodes and all(path is not None and self.program.klass(path) for path in paths):
            return Chosen(tuple(path for path in paths if path is not None))
        if nodes and all(path is not None and path.split(".")[0] in FRAMEWORK_PACKAGES for path in paths):
            return Chosen()  # REST framework's own serializers validate nothing the source writes
        if expression in self.stated:
            value, _where = self.stated[expression]
            stated = [str(item) for item in (value if isinstance(value, tuple | list) else (value,))]
            for path in stated:
                self.program.load(path.rpartition(".")[0])
            return Chosen(tuple(stated), stated=(expression,))
        file = self.program.files(nodes[0][1]) if nodes else ""
        where = line or (nodes[0][0].lineno if nodes else 1)
        return Chosen(unread=(Unread(expression, reason, file, where),))

    def _validated(self, view: griffe.Class | None, function: griffe.Function) -> Chosen:
        """The serializers a function validates with `.is_valid(raise_exception=True)`."""
        node = self.program.node(function)
        names = local_names(node)
        found = Chosen()
        for call in (n for n in ast.walk(node) if isinstance(n, ast.Call)):
            if not (isinstance(call.func, ast.Attribute) and call.func.attr == "is_valid" and _raising(call)):
                continue
            target = call.func.value
            made = names.single_calls.get(target.id) if isinstance(target, ast.Name) else None
            made = target if isinstance(target, ast.Call) else made
            made = _on_self(node).get(target.attr) if isinstance(target, ast.Attribute) else made
            if made is None:
                continue
            saves = _saves(node, target, made)
            if _declared_call(made.func) and view is not None:
                found += self._declared(view).saving(*saves)
                continue
            path = self.program.qualify(made.func, function.module)
            if path is not None and self.program.klass(path) is not None:
                found += Chosen((path,), saves=saves)
        return found

    def _validators(self, serializer: str) -> list[Code]:
        seen: set[str] = set()
        found: list[Code] = []
        for own in self.classes.ancestry(serializer):
            cls = self.program.klass(own)
            for name in cls.members if cls is not None else ():
                function = self.program.function(f"{own}.{name}")
                # a static or class method named `validate_...` is a helper `validate` calls, not a field's
                is_validator = name == "validate" or (name.startswith("validate_") and _on_instance(function))
                if function is not None and is_validator and name not in seen:
                    seen.add(name)
                    found.append(self.program.code(function))
                    key = name.removeprefix("validate_") if name != "validate" else self.non_field_key
                    self.placed[function.path] = key
        return found


def _saves(node: ast.AST, target: ast.expr, made: ast.Call) -> tuple[str, ...]:
    """`create` or `update` when the function calls `.save()` on the validated serializer: `update` for one
    made with an instance (a first argument, or `instance=`), as REST framework chooses."""
    written = ast.unparse(target)
    saved = any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr == "save"
        and ast.unparse(n.func.value) == written
        for n in ast.walk(node)
    )
    if not saved:
        return ()
    with_instance = bool(made.args) or any(k.arg == "instance" for k in made.keywords)
    return ("update",) if with_instance else ("create",)


def _on_instance(function: griffe.Function | None) -> bool:
    """Whether a method is an instance method (neither `@staticmethod` nor `@classmethod`)."""
    labels: set[str] = set(function.labels) if function is not None else set()
    return not ({"staticmethod", "classmethod"} & labels)


def _on_self(node: ast.AST) -> dict[str, ast.Call]:
    """The calls a method assigns to an attribute of `self` (`self.serializer = self.get_serializer(...)`,
    then `self.serializer.is_valid(raise_exception=True)`), by attribute, when assigned once."""
    found: dict[str, list[ast.Call]] = {}
    for statement in ast.walk(node):
        if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call):
            for target in statement.targets:
                if (
                    isinstance(target, ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == "self"
                ):
                    found.setdefault(target.attr, []).append(statement.value)
    return {name: calls[0] for name, calls in found.items() if len(calls) == 1}


def _is_declared(node: ast.expr) -> bool:
    """Whether a getter's return gives the view's declared serializer: `self.serializer_class` or
    `super().get_serializer_class()`."""
    if isinstance(node, ast.Attribute):
        owner = node.value
        return isinstance(owner, ast.Name) and owner.id == "self" and node.attr == "serializer_class"
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get_serializer_class"
        and isinstance(node.func.value, ast.Call)
        and isinstance(node.func.value.func, ast.Name)
        and node.func.value.func.id == "super"
    )


def _declared_call(func: ast.expr) -> bool:
    """Whether a call makes the view's declared serializer: `self.get_serializer(...)`,
    `self.serializer_class(...)` or `self.get_serializer_class()(...)`."""
    if isinstance(func, ast.Call):
        func = func.func
        return isinstance(func, ast.Attribute) and func.attr == "get_serializer_class"
    return isinstance(func, ast.Attribute) and func.attr in {"get_serializer", "serializer_class"}


def _raising(call: ast.Call) -> bool:
    return any(
        k.arg == "raise_exception" and isinstance(k.value, ast.Constant) and k.value.value is True
        for k in call.keywords
    )
