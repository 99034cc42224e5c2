"""Litestar as a `Framework`.

What Litestar means by an HTTP error: `HTTPException` and its family (`NotFoundException`,
`ValidationException`, ...), whose status is the `status_code` keyword or the class's `status_code`, and
whose detail is the first argument, the `detail` keyword or the class's `detail`, a missing one being the
status phrase, and any 500 sent as `Internal Server Error` unless a handler of the application answers it;
on the wire `{"status_code": ..., "detail": ...}`; 400 answered for any request that fails validation; the
constants of `litestar.status_codes` naming statuses; a returned `Response` with an error status. How it
declares routes, guards, dependencies, middleware and exception handlers is read by the modules beside this.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from docgen.extract.http_values import phrase
from docgen.extract.program import Code, Program
from docgen.extract.resolve import Resolver
from docgen.extract.route_paths import Unread
from docgen.extract.routes import Endpoint, ExceptionArguments, Handler
from docgen.frameworks.litestar.handlers import combined, handlers_read
from docgen.frameworks.litestar.routes import application_endpoints

HTTP_EXCEPTION = ExceptionArguments(
    status=(None, "status_code"),
    detail=(0, "detail"),
    status_attribute="status_code",
    detail_attribute="detail",
    replaced_details=((500, "Internal Server Error"),),  # what any 500 says outside debug mode
)
RESPONSE = ExceptionArguments(status=(None, "status_code"), detail=(0, "content"))
_CLASSES = (
    "HTTPException",
    "ClientException",
    "ValidationException",
    "NotAuthorizedException",
    "PermissionDeniedException",
    "NotFoundException",
    "MethodNotAllowedException",
    "RequestEntityTooLarge",
    "TooManyRequestsException",
    "InternalServerException",
    "ServiceUnavailableException",
    "ImproperlyConfiguredException",
)
_MODULES = ("litestar.exceptions", "litestar.exceptions.http_exceptions")
_STATUS_NAME = re.compile(r"^litestar\.status_codes\.HTTP_(\d{3})_\w+$")


class LitestarFramework:
    """Litestar applications read statically."""

    name = "litestar"
    body_key = "detail"
    automatic_statuses = frozenset({400})
    http_exceptions: Mapping[str, ExceptionArguments] = {
        f"{module}.{name}": HTTP_EXCEPTION for module in _MODULES for name in _CLASSES
    }
    raising_calls: Mapping[str, ExceptionArguments] = {}
    responses: Mapping[str, ExceptionArguments] = {
        f"{module}.Response": RESPONSE
        for module in ("litestar", "litestar.response", "litestar.response.base")
    }
    tuple_status = False
    import_roots = frozenset({"litestar"})
    installed_modules: Mapping[str, str] = {"litestar": "litestar"}
    openapi_guide = "README: A Litestar application"

    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver
        self.unfollowed: list[Unread] = []
        """What `endpoints` could not follow (`route_handlers=[plugin.router]`), for located findings."""
        self.status_handlers: dict[int, Handler] = {}
        """Status -> the handler registered for it (`exception_handlers={404: ...}`), which answers an HTTP
        exception raised with that status as an argument too."""

    def constant_status(self, path: str) -> int | None:
        """The status a Litestar constant names (`litestar.status_codes.HTTP_404_NOT_FOUND` is 404)."""
        match = _STATUS_NAME.match(path)
        return int(match.group(1)) if match else None

    def default_detail(self, exception: str, status: int | None) -> str:
        """Litestar fills in a missing detail with the status phrase (`Not Found`)."""
        return phrase(status)

    def endpoints(self, program: Program, app: str | None) -> list[Endpoint]:
        return application_endpoints(program, self.resolver, app, self.unfollowed)

    def parameter_dependencies(self, program: Program, code: Code) -> list[Code]:
        """None: Litestar injects dependencies by name from the layers, which `endpoints` already reads."""
        return []

    def handlers(self, program: Program) -> dict[str, Handler]:
        found, self.status_handlers = handlers_read(program, self)
        return combined(program, self, found, self.status_handlers)
