"""Which classes REST framework applies to an operation: its permission, throttle and authentication
classes, from `@action(...)`, a decorator, the view or the settings, or chosen in code (a view's own
`get_permissions`, a settings object read at run time). A list docgen cannot read is kept as unread, for a
located finding, unless the configuration states its classes (`run_time_values:`)."""

from __future__ import annotations

import ast
from collections.abc import Mapping

import griffe

from docgen.extract.calls import unparse
from docgen.extract.http_classes import HttpClasses
from docgen.extract.program import Program
from docgen.extract.resolve import Value
from docgen.extract.route_paths import Unread
from docgen.frameworks.drf.settings import DjangoSettings, Setting
from docgen.frameworks.drf.views import Answer, assigned

FRAMEWORK_PACKAGES = {"rest_framework", "django"}
"""Packages whose classes the settings name that are read as installed classes, not loaded as source."""
_DECORATORS = "rest_framework.decorators"
_GETTERS = {"permission_classes": "get_permissions", "throttle_classes": "get_throttles"}
"""The view method REST framework asks for each list of classes; a view may override it."""
UNREAD_CLASSES = "it names no class docgen can read: chosen at run time, or from a package not loaded"


class DeclaredClasses:
    """The class lists of operations, for one program, its settings and the configuration's statements."""

    def __init__(
        self,
        program: Program,
        http: HttpClasses,
        settings: DjangoSettings,
        stated: Mapping[str, tuple[Value, str]],
    ) -> None:
        self.program = program
        self.http = http
        self.settings = settings
        self.stated = stated
        """Expression -> the value the configuration states for it (`run_time_values:`)."""

    def classes(
        self, owner: griffe.Class | griffe.Function, answer: Answer, name: str = "permission_classes"
    ) -> Setting:
        """The classes `name` (`permission_classes`, `throttle_classes`) that apply, and where they are
        declared: `@action(...)`, the function's decorator of that name, the view, else the settings. A view
        that overrides the getter (`get_permissions`) chooses them in code: unread, unless stated."""
        if isinstance(owner, griffe.Class) and (chosen := self._chosen(owner, name)) is not None:
            return chosen
        if answer.decorator is not None:
            node = _keyword(answer.decorator, name)
            if node is not None:
                return self.listed(node, answer.function.module, node.lineno)
        if isinstance(owner, griffe.Function):
            for decorator in self.program.node(owner).decorator_list:
                if (
                    isinstance(decorator, ast.Call)
                    and self.program.qualify(decorator.func, owner.module) == f"{_DECORATORS}.{name}"
                    and decorator.args
                ):
                    return self.listed(decorator.args[0], owner.module, decorator.lineno)
        else:
            found = self._assigned(owner.path, name)
            if found is not None:
                return self.listed(found[0], found[1], found[0].lineno)
        return self.settings.permissions if name == "permission_classes" else self.settings.throttles

    def _chosen(self, view: griffe.Class, name: str) -> Setting | None:
        """The classes a view's own getter of `name` returns (`UserViewSet.get_permissions()`): what the
        configuration states for that call, else unread; None when the view does not override it."""
        getter = _GETTERS[name]
        for own in self.http.ancestry(view.path):
            function = self.program.function(f"{own}.{getter}")
            if function is None or own.split(".")[0] in FRAMEWORK_PACKAGES:
                continue
            expression = f"{own.rsplit('.', 1)[-1]}.{getter}()"
            if expression in self.stated:
                paths = tuple(self._stated(expression))
                return Setting(paths, function.module, function.lineno or 1, stated=(expression,))
            file = self.program.files(function.module)
            unread = Unread(expression, "the view chooses them in code", file, function.lineno or 1)
            return Setting((), function.module, function.lineno or 1, (unread,))
        return None

    def listed(self, node: ast.expr, module: griffe.Module, line: int) -> Setting:
        """The classes a list names; an item naming none is taken from the configuration's statement of
        its expression, else kept as unread."""
        configured = self._configured(node, module)
        if configured is not None:  # `authentication_classes = api_settings.DEFAULT_AUTHENTICATION_CLASSES`
            return configured
        items = node.elts if isinstance(node, ast.List | ast.Tuple) else [node]
        paths: list[str] = []
        unread: list[Unread] = []
        stated: list[str] = []
        for item in items:
            path = self.program.qualify(item, module)
            if path is not None and (path.split(".")[0] in FRAMEWORK_PACKAGES or self.http.klass(path)):
                paths.append(path)
            elif (expression := unparse(item)) in self.stated:
                paths.extend(self._stated(expression))
                stated.append(expression)
            else:  # kept as named (a throttle class of any kind answers 429), and reported
                paths.extend([path] if path is not None else [])
                file = self.program.files(module)
                unread.append(Unread(expression, UNREAD_CLASSES, file, getattr(item, "lineno", line)))
        return Setting(tuple(paths), module, line, tuple(unread), tuple(stated))

    def _configured(self, node: ast.expr, module: griffe.Module) -> Setting | None:
        """The project's own setting, when a view names REST framework's (`api_settings.DEFAULT_...`)."""
        path = self.program.qualify(node, module) or ""
        name = path.removeprefix("rest_framework.settings.api_settings.")
        settings = {
            "DEFAULT_AUTHENTICATION_CLASSES": self.settings.authentication,
            "DEFAULT_PERMISSION_CLASSES": self.settings.permissions,
            "DEFAULT_THROTTLE_CLASSES": self.settings.throttles,
        }
        return settings.get(name) if name != path else None

    def _stated(self, expression: str) -> list[str]:
        """The classes the configuration states for `expression` (one dotted path, or a list of them), each
        read into the program when it is the project's own."""
        value, _where = self.stated[expression]
        paths = [str(item) for item in (value if isinstance(value, tuple | list) else (value,))]
        for path in paths:
            if path.split(".")[0] not in FRAMEWORK_PACKAGES:
                self.program.load(path.rpartition(".")[0])
        return paths

    def undetermined(self, owner: griffe.Class | griffe.Function, answer: Answer) -> tuple[Unread, ...]:
        """The permission classes of the operation that name no class docgen can read (what they refuse
        with is unknown), and its throttle classes when none is known (any throttle class answers 429)."""
        throttles = self.classes(owner, answer, "throttle_classes")
        return (*self.classes(owner, answer).unread, *(() if throttles.value else throttles.unread))

    def statements(self, owner: griffe.Class | griffe.Function, answer: Answer) -> tuple[str, ...]:
        """The `run_time_values:` expressions whose classes the operation's lists took."""
        return (
            *self.classes(owner, answer).stated,
            *self.classes(owner, answer, "throttle_classes").stated,
        )

    def authentication(self, owner: griffe.Class | griffe.Function) -> tuple[str, ...]:
        if isinstance(owner, griffe.Class):
            found = self._assigned(owner.path, "authentication_classes")
            if found is not None:
                return self.listed(found[0], found[1], found[0].lineno).value
        return self.settings.authentication.value

    def _assigned(self, path: str, name: str) -> tuple[ast.expr, griffe.Module] | None:
        return assigned(self.program, self.http, path, name)


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((keyword.value for keyword in call.keywords if keyword.arg == name), None)
