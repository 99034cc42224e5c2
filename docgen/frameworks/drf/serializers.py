"""The serializer validation an operation runs: REST framework answers a `ValidationError` raised by a
serializer's `validate` or `validate_<field>` with 400, so those methods are followed like the view's own
code wherever the operation validates.

An operation validates when its action is a mixin's `create`, `update` or `partial_update` (each calls
`serializer.is_valid(raise_exception=True)`), or when its own code calls `.is_valid(raise_exception=True)`.
The serializer is the view's `serializer_class` (for `self.get_serializer(...)`,
`self.serializer_class(...)` or `self.get_serializer_class()(...)`) or the class the code
instantiates (`serializer = SignUp(data=request.data)`), when it is a class of the source; one chosen at run
time (`get_serializer_class()`, a setting) is not followed. Their errors answer as a serializer's do:
`{"non_field_errors": [...]}` from `validate`, `{"email": [...]}` from `validate_email`.
"""

from __future__ import annotations

import ast

import griffe

from docgen.extract.http_classes import HttpClasses
from docgen.extract.local_names import local_names
from docgen.extract.program import Code, Program
from docgen.frameworks.drf.views import Answer, assigned

VALIDATING_ACTIONS = frozenset({"create", "update", "partial_update"})


class SerializerChecks:
    """The validation methods an operation's serializers run, for one program."""

    def __init__(self, program: Program, classes: HttpClasses, non_field_key: str) -> None:
        self.program = program
        self.classes = classes
        self.non_field_key = non_field_key
        self.placed: dict[str, str] = {}
        """Validator path -> the body key its `ValidationError`s answer under: the non-field key for
        `validate`, the field for `validate_<field>`."""

    def checks(self, view: griffe.Class | None, answer: Answer) -> list[Code]:
        """`validate` and `validate_<field>` of each serializer the operation validates with."""
        serializers: list[str] = []
        if isinstance(answer.function, griffe.Class):
            if answer.action in VALIDATING_ACTIONS and view is not None:
                serializers.extend(self._declared(view))
        else:
            serializers.extend(self._validated(view, answer.function))
        found: list[Code] = []
        for serializer in serializers:
            found.extend(code for code in self._validators(serializer) if code not in found)
        return found

    def _declared(self, view: griffe.Class) -> list[str]:
        value = assigned(self.program, self.classes, view.path, "serializer_class")
        path = self.program.qualify(value[0], value[1]) if value is not None else None
        return [path] if path is not None and self.program.klass(path) is not None else []

    def _validated(self, view: griffe.Class | None, function: griffe.Function) -> list[str]:
        """The serializers a function validates with `.is_valid(raise_exception=True)`."""
        node = self.program.node(function)
        names = local_names(node)
        found: list[str] = []
        for call in (n for n in ast.walk(node) if isinstance(n, ast.Call)):
            if not (isinstance(call.func, ast.Attribute) and call.func.attr == "is_valid" and _raising(call)):
                continue
            target = call.func.value
            made = names.single_calls.get(target.id) if isinstance(target, ast.Name) else None
            made = target if isinstance(target, ast.Call) else made
            if made is None:
                continue
            if _declared_call(made.func) and view is not None:
                found.extend(self._declared(view))
                continue
            path = self.program.qualify(made.func, function.module)
            if path is not None and self.program.klass(path) is not None:
                found.append(path)
        return found

    def _validators(self, serializer: str) -> list[Code]:
        seen: set[str] = set()
        found: list[Code] = []
        for own in self.classes.ancestry(serializer):
            cls = self.program.klass(own)
            for name in cls.members if cls is not None else ():
                function = self.program.function(f"{own}.{name}")
                is_validator = name == "validate" or name.startswith("validate_")
                if function is not None and is_validator and name not in seen:
                    seen.add(name)
                    found.append(self.program.code(function))
                    key = name.removeprefix("validate_") if name != "validate" else self.non_field_key
                    self.placed[function.path] = key
        return found


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
