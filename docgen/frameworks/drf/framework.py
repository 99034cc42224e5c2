"""Django REST framework (on Django) as a `Framework`.

What REST framework means by an HTTP error: an `APIException` (its subclasses set `status_code`,
`default_detail` and `default_code`, read from the installed framework when a raise leaves them out),
Django's `Http404` and `PermissionDenied` (which its exception handler answers as 404 and 403), a
`Response(data, status=...)` returned with an error status, and what the configured exception handler
answers. The body is `{"detail": ...}`; a detail given as a dict is the body itself. The error's code
(`default_code`) is not in that body: REST framework keeps it on the exception (`get_codes()`), so a
routes catalog, which records what the client receives, does not list it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import griffe

from docgen.extract.http_classes import HttpClasses
from docgen.extract.http_values import phrase
from docgen.extract.program import Code, Program
from docgen.extract.resolve import Resolver
from docgen.extract.responses import CallReader
from docgen.extract.route_paths import Unread
from docgen.extract.routes import Endpoint, ExceptionArguments, FrameworkError, Handler
from docgen.frameworks.drf.handlers import DJANGO_ANSWERED, coerced, exception_handlers
from docgen.frameworks.drf.implied import names_scheme
from docgen.frameworks.drf.routes import ProjectRoutes
from docgen.frameworks.drf.settings import DjangoSettings, read_settings
from docgen.frameworks.drf.shortcuts import shortcut_errors

API_EXCEPTION = ExceptionArguments(
    status=(None, "status_code"),
    detail=(0, "detail"),
    status_attribute="status_code",
    detail_attribute="default_detail",
    code=(1, "code"),
    code_attribute="default_code",
)
DJANGO_EXCEPTION = ExceptionArguments(status=(None, "status_code"), detail=(0, "message"))
RESPONSE = ExceptionArguments(status=(1, "status"), detail=(0, "data"))
_API_EXCEPTIONS = (
    *("APIException", "ValidationError", "ParseError", "AuthenticationFailed", "NotAuthenticated"),
    *("PermissionDenied", "NotFound", "MethodNotAllowed", "NotAcceptable", "UnsupportedMediaType"),
    "Throttled",
)
_VALIDATION_ERRORS = {
    "rest_framework.exceptions.ValidationError",
    "rest_framework.serializers.ValidationError",
    "django.core.exceptions.ValidationError",
}
_STATUS_NAME = re.compile(r"^rest_framework\.status\.HTTP_(\d{3})_\w+$")
_DEFAULTS = {404: "Not found.", 403: "You do not have permission to perform this action."}
"""The detail REST framework's handler gives Django's `Http404` and `PermissionDenied` raised without a
text (its `NotFound` and `PermissionDenied` defaults), when the installed framework cannot be read."""


class DRFFramework:
    """Django REST framework projects read statically."""

    name = "drf"
    body_key = "detail"
    automatic_statuses = frozenset({400})
    http_exceptions: Mapping[str, ExceptionArguments] = {
        **{f"rest_framework.exceptions.{name}": API_EXCEPTION for name in _API_EXCEPTIONS},
        "rest_framework.serializers.ValidationError": API_EXCEPTION,
        "django.http.Http404": DJANGO_EXCEPTION,
        "django.http.response.Http404": DJANGO_EXCEPTION,
        "django.core.exceptions.PermissionDenied": DJANGO_EXCEPTION,
    }
    raising_calls: Mapping[str, ExceptionArguments] = {}
    responses: Mapping[str, ExceptionArguments] = {"rest_framework.response.Response": RESPONSE}
    tuple_status = False
    detail_is_body = True
    import_roots = frozenset({"rest_framework"})
    installed_modules: Mapping[str, str] = {"rest_framework": "djangorestframework", "django": "django"}
    instance_dicts: Mapping[str, str] = {"error_messages": "default_error_messages"}
    """A serializer's or field's `self.error_messages[key]` is its classes' `default_error_messages[key]`."""
    app_files = ("settings.py", "urls.py")
    """Where `docgen init` looks first: a project's settings (ROOT_URLCONF, the exception handler), else
    the URL configuration of a reusable app that has no settings of its own."""
    openapi_guide = "README: A Django REST framework project"

    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver
        self._defaults = dict(_DEFAULTS)
        self._placed: dict[str, str] = {}
        self.unfollowed: list[Unread] = []
        """What `endpoints` could not follow (`include(plugin.urls)`), for located findings."""

    def constant_status(self, path: str) -> int | None:
        """The status a constant of `rest_framework.status` names (`HTTP_404_NOT_FOUND` is 404)."""
        match = _STATUS_NAME.match(path)
        return int(match.group(1)) if match else None

    def default_detail(self, exception: str, status: int | None) -> str:
        """A `Response` without data has an empty body; Django's `Http404` and `PermissionDenied` raised
        without a text get REST framework's default for the status; anything else the status phrase."""
        if exception in self.responses:
            return ""
        answered = DJANGO_ANSWERED.get(exception, status)  # Http404's status comes from the handler, later
        return self._defaults.get(answered or 0) or phrase(answered)

    def endpoints(self, program: Program, app: str | None) -> list[Endpoint]:
        settings = self._settings(program)
        classes = HttpClasses(program, self.resolver)
        routes = ProjectRoutes(program, self.resolver, classes, settings, self.body_key)
        found = routes.endpoints(app)
        self._placed = routes.serializers.placed
        self.unfollowed = routes.unfollowed
        return found

    def body_key_in(self, function: str, exception: list[str], via: tuple[str, ...] = ()) -> str | None:
        """A `ValidationError` raised by a serializer's validator, or a helper it calls, answers under the
        non-field key or the field's name (see `serializers`): the nearest validator on the way decides."""
        if not any(path in _VALIDATION_ERRORS for path in exception):
            return None
        return next((self._placed[f] for f in (function, *reversed(via)) if f in self._placed), None)

    def framework_errors(self, program: Program, code: Code) -> list[FrameworkError]:
        """The 404 of each lookup shortcut (`get_object_or_404(Book, ...)`) `code` calls outside a `try`
        that catches it: in the view, its hooks and validators, and every helper the walk enters."""
        return shortcut_errors(program, [code], self.body_key)

    def parameter_dependencies(self, program: Program, code: Code) -> list[Code]:
        """REST framework injects nothing through parameters: a view's checks are its classes'."""
        return []

    def handlers(self, program: Program) -> dict[str, Handler]:
        classes = HttpClasses(program, self.resolver)
        for status, name in ((404, "NotFound"), (403, "PermissionDenied")):
            path = f"rest_framework.exceptions.{name}"
            found = classes.attribute(classes.ancestry(path), "default_detail")
            self._defaults[status] = found if isinstance(found, str) else self._defaults[status]
        calls = CallReader(program, self, classes)
        settings = self._settings(program)
        found = exception_handlers(program, self.resolver, settings, calls, self.body_key)
        if not names_scheme(classes, settings.authentication.value):
            found.update(coerced(self.resolver, found, self.body_key))
        return found

    def _settings(self, program: Program) -> DjangoSettings:
        modules = [module for module, _ in program.modules()]
        source: griffe.Module | None = modules[0] if len(modules) == 1 else None
        return read_settings(program, source)
