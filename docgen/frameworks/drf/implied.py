"""What REST framework answers for an operation without a `raise` in the source: a generic lookup that
finds nothing, and the permission classes that refuse a request.

- A mixin's `retrieve`, `update`, `partial_update` or `destroy` calls `get_object()`, which raises Django's
  `Http404("No Book matches the given query.")` (the model's class name, from `get_object_or_404`); REST
  framework's handler answers it as 404 with that text. A view that overrides `get_object` decides for
  itself (its code is followed instead).
- Each permission class is asked before the view runs. When it refuses an unauthenticated request and
  authentication is configured, REST framework raises `NotAuthenticated` (401 when the first
  authentication class names a `WWW-Authenticate` scheme, else 403, "Authentication credentials were not
  provided."); an authenticated request it refuses gets 403 with the class's `message`. The classes come
  from `@action(permission_classes=...)`, the view's `permission_classes` (or `@permission_classes` on a
  function view), else the settings' `DEFAULT_PERMISSION_CLASSES`.
- Throttle classes, declared the same way (`DEFAULT_THROTTLE_CLASSES`), answer 429 `Request was throttled.
  Expected available in {wait} seconds.` once a client sends more than they allow.

Texts and statuses are read from the installed REST framework where its classes say them.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

import griffe

from docgen.extract.http_classes import HttpClasses
from docgen.extract.program import Code, Program
from docgen.extract.resolve import Value
from docgen.extract.routes import FrameworkError
from docgen.frameworks.drf.declared import FRAMEWORK_PACKAGES, DeclaredClasses
from docgen.frameworks.drf.settings import DjangoSettings
from docgen.frameworks.drf.views import LOOKUP_ACTIONS, Answer, assigned

NOT_FOUND = "No {model} matches the given query."
"""Django's `get_object_or_404` message, the model's class name filled in."""
OPEN = {"rest_framework.permissions.AllowAny"}
ONLY_AUTHENTICATION = {
    "rest_framework.permissions.IsAuthenticated",
    "rest_framework.permissions.IsAuthenticatedOrReadOnly",
}
"""Built-in permission classes that refuse only an unauthenticated request."""
THROTTLED_WAIT = "Expected available in {wait} seconds."
"""What REST framework adds to `Throttled`'s detail, the seconds to wait filled in at run time."""
_EXCEPTIONS = "rest_framework.exceptions"
_BASE_AUTHENTICATION = "rest_framework.authentication.BaseAuthentication"


class ImpliedErrors:
    """The errors REST framework answers for operations, for one program and its settings."""

    def __init__(
        self,
        program: Program,
        classes: HttpClasses,
        settings: DjangoSettings,
        body_key: str,
        stated: Mapping[str, tuple[Value, str]],
    ) -> None:
        self.program = program
        self.classes = classes
        self.settings = settings
        self.body_key = body_key
        self.declared = DeclaredClasses(program, classes, settings, stated)
        for path in (*settings.authentication.value, *settings.permissions.value):
            if path.split(".")[0] not in FRAMEWORK_PACKAGES:  # the project's own, named by a string
                program.load(path.rpartition(".")[0])

    def lookup(self, view: griffe.Class, answer: Answer, calls: set[str]) -> list[FrameworkError]:
        """The 404 of REST framework's `get_object`, called by an inherited lookup action or by the
        source's own action (`calls`: what it calls on `self`), unless the view overrides it."""
        inherited = isinstance(answer.function, griffe.Class) and answer.action in LOOKUP_ACTIONS
        if not inherited and "get_object" not in calls:
            return []
        if any(self.program.function(f"{own}.get_object") for own in self.classes.ancestry(view.path)):
            return []
        model = self._model(view)
        detail = NOT_FOUND.replace("{model}", model) if model else NOT_FOUND
        file = self.program.files(view.module)
        return [FrameworkError(404, detail, "Http404", view.path, file, view.lineno or 1)]

    def not_allowed(self, answer: Answer) -> list[FrameworkError]:
        """405 where the view's own code answers with REST framework's `self.http_method_not_allowed(...)`
        (`MethodNotAllowed`, whose detail names the request's method)."""
        if not isinstance(answer.function, griffe.Function):
            return []
        detail = self._default(f"{_EXCEPTIONS}.MethodNotAllowed", 'Method "{method}" not allowed.')
        detail = detail.replace("{method}", answer.method.upper())
        file = self.program.files(answer.function.module)
        return [
            FrameworkError(405, detail, "MethodNotAllowed", answer.function.path, file, node.lineno)
            for node in ast.walk(self.program.node(answer.function))
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "http_method_not_allowed"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "self"
        ]

    def permissions(
        self, owner: griffe.Class | griffe.Function, answer: Answer
    ) -> tuple[list[FrameworkError], list[Code]]:
        """The refusals of the operation's permission classes, and their `has_permission` (and, for a
        lookup, `has_object_permission`) written in the source, whose raises are followed too."""
        declared = self.declared.classes(owner, answer)
        # A class that cannot be read (`settings.PERMISSIONS.user`, set at run time) is not guessed at: it is
        # in `declared.unread`, which `undetermined` reports.
        classes = [p for p in declared.value if p not in OPEN and self.classes.klass(p) is not None]
        if not classes:
            return [], []
        found: list[FrameworkError] = []
        where = self.program.files(declared.module) if declared.module is not None else ""
        if self._authenticates(owner):
            status = 401 if self._challenges(owner) else 403
            detail = self._default(
                f"{_EXCEPTIONS}.NotAuthenticated", "Authentication credentials were not provided."
            )
            found.append(FrameworkError(status, detail, "NotAuthenticated", classes[0], where, declared.line))
        checks: list[Code] = []
        for path in classes:
            if path in ONLY_AUTHENTICATION:
                continue
            checks.extend(self._checks(path, answer))
            refusal = self._refusal(path)
            if refusal is not None:
                found.append(refusal)
        return found, checks

    def throttles(self, owner: griffe.Class | griffe.Function, answer: Answer) -> list[FrameworkError]:
        """429 where throttle classes apply (`Throttled`, whose detail says how long to wait)."""
        declared = self.declared.classes(owner, answer, "throttle_classes")
        if not declared.value or declared.module is None:
            return []
        detail = self._default(f"{_EXCEPTIONS}.Throttled", "Request was throttled.") + " " + THROTTLED_WAIT
        file = self.program.files(declared.module)
        return [FrameworkError(429, detail, "Throttled", declared.value[0], file, declared.line)]

    def _authenticates(self, owner: griffe.Class | griffe.Function) -> bool:
        return bool(self.declared.authentication(owner))

    def authenticators(self, owner: griffe.Class | griffe.Function) -> list[Code]:
        """The `authenticate` methods the source writes for the operation's authentication classes: REST
        framework runs them before every view (an `AuthenticationFailed` they raise is followed)."""
        found = []
        for path in self.declared.authentication(owner):
            for own in self.classes.ancestry(path):
                function = self.program.function(f"{own}.authenticate")
                if function is not None:
                    found.append(self.program.code(function))
                    break
        return found

    def _challenges(self, owner: griffe.Class | griffe.Function) -> bool:
        return names_scheme(self.classes, self.declared.authentication(owner))

    def _checks(self, path: str, answer: Answer) -> list[Code]:
        names = ("has_permission", "has_object_permission") if answer.detail else ("has_permission",)
        found = []
        for name in names:
            for own in self.classes.ancestry(path):
                function = self.program.function(f"{own}.{name}")
                if function is not None:
                    found.append(self.program.code(function))
                    break
        return found

    def _refusal(self, path: str) -> FrameworkError | None:
        """403 with the class's `message` when a permission class of the source refuses."""
        cls = self.program.klass(path)
        check = next(
            (
                f
                for own in self.classes.ancestry(path)
                if (f := self.program.function(f"{own}.has_permission"))
            ),
            None,
        )
        if cls is None or check is None:
            return None
        found = self._attribute(path, "message")
        default = self._default(
            f"{_EXCEPTIONS}.PermissionDenied", "You do not have permission to perform this action."
        )
        detail, line = default, check.lineno or 1
        if found is not None:
            text = self.classes.attribute(self.classes.ancestry(path), "message")
            detail, line = (text if isinstance(text, str) else default), found[0].lineno
        file = self.program.files(check.module if found is None else found[1])
        return FrameworkError(403, detail, "PermissionDenied", path, file, line)

    def _attribute(self, path: str, name: str) -> tuple[ast.expr, griffe.Module] | None:
        return assigned(self.program, self.classes, path, name)

    def _model(self, view: griffe.Class) -> str | None:
        """The model a view's `queryset = Model.objects...` names (its class name is what Django says)."""
        found = self._attribute(view.path, "queryset")
        node = found[0] if found is not None else None
        while isinstance(node, ast.Call | ast.Attribute):
            node = node.func if isinstance(node, ast.Call) else node.value
        return node.id if isinstance(node, ast.Name) else None

    def _default(self, path: str, fallback: str) -> str:
        """A REST framework exception's `default_detail`, read from the installed framework."""
        found = self.classes.attribute(self.classes.ancestry(path), "default_detail")
        return found if isinstance(found, str) else fallback


def names_scheme(classes: HttpClasses, authentication: tuple[str, ...]) -> bool:
    """Whether the first authentication class names a scheme (`authenticate_header`), so that REST
    framework answers `NotAuthenticated` and `AuthenticationFailed` with 401 rather than 403."""
    for path in classes.ancestry(authentication[0]) if authentication else ():
        cls = classes.klass(path)
        if path != _BASE_AUTHENTICATION and cls is not None and "authenticate_header" in cls.members:
            return True
    return False


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)
