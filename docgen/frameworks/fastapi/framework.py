"""FastAPI (with Starlette, whose exceptions and status constants it re-exports) as a `Framework`.

What FastAPI means by an HTTP error: `HTTPException(status_code, detail)` from `fastapi` or Starlette, a
missing detail filled in with the status phrase, `{"detail": ...}` as the body on the wire (a Starlette
application without FastAPI writes the detail as plain text), 422 answered
for any request that fails validation, the constants of `fastapi.status` naming statuses. How it declares
routes, dependencies and exception handlers is read by `routes`, `dependencies` and `handlers` beside this;
a Starlette application's routes, declared as data, by `starlette`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from docgen.extract.http_values import phrase
from docgen.extract.program import Code, Program
from docgen.extract.resolve import Resolver
from docgen.extract.route_paths import Unread
from docgen.extract.routes import Endpoint, ExceptionArguments, FrameworkError, Handler
from docgen.frameworks.fastapi.dependencies import parameter_dependencies
from docgen.frameworks.fastapi.handlers import registered_handlers
from docgen.frameworks.fastapi.routes import application_endpoints
from docgen.frameworks.fastapi.security import security_errors
from docgen.frameworks.fastapi.starlette import starlette_endpoints

HTTP_EXCEPTION = ExceptionArguments(status=(0, "status_code"), detail=(1, "detail"))
RESPONSE = ExceptionArguments(status=(1, "status_code"), detail=(0, "content"))
_RESPONSE_CLASSES = ("Response", "JSONResponse", "PlainTextResponse", "HTMLResponse")
_STATUS_NAME = re.compile(r"^(?:fastapi|starlette)\.status\.(?:HTTP|WS)_(\d{3})_\w+$")


class FastAPIFramework:
    """FastAPI applications read statically."""

    name = "fastapi"
    body_key = "detail"
    automatic_statuses = frozenset({422})
    http_exceptions: Mapping[str, ExceptionArguments] = {
        "fastapi.HTTPException": HTTP_EXCEPTION,
        "fastapi.exceptions.HTTPException": HTTP_EXCEPTION,
        "starlette.exceptions.HTTPException": HTTP_EXCEPTION,
    }
    raising_calls: Mapping[str, ExceptionArguments] = {}
    responses: Mapping[str, ExceptionArguments] = {
        f"{module}.{name}": RESPONSE
        for module in ("fastapi.responses", "starlette.responses")
        for name in _RESPONSE_CLASSES
    }
    tuple_status = False
    import_roots = frozenset({"fastapi", "starlette"})
    installed_modules: Mapping[str, str] = {"fastapi": "fastapi", "starlette": "starlette"}
    """Top-level package the source imports -> what `pip install` names; each the source imports must be
    where docgen reads packages, since its exceptions and defaults are read from there."""
    openapi_guide = "README: A FastAPI application"

    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver
        self.unfollowed: list[Unread] = []
        """What `endpoints` could not follow (`include_router(self.x.router)`), for located findings."""

    def constant_status(self, path: str) -> int | None:
        """The status a framework constant names (`fastapi.status.HTTP_404_NOT_FOUND` is 404)."""
        match = _STATUS_NAME.match(path)
        return int(match.group(1)) if match else None

    def default_detail(self, exception: str, status: int | None) -> str:
        """Starlette fills in a missing (or None) detail with the status phrase (`Not Found`)."""
        return phrase(status)

    def endpoints(self, program: Program, app: str | None) -> list[Endpoint]:
        starlette = starlette_endpoints(program, self.resolver, app, self.unfollowed)
        if starlette is None:
            return application_endpoints(program, self.resolver, app, self.unfollowed)
        self.body_key = ""  # Starlette answers an HTTPException with its detail as plain text
        return starlette

    def parameter_dependencies(self, program: Program, code: Code) -> list[Code]:
        return parameter_dependencies(program, code)

    def handlers(self, program: Program) -> dict[str, Handler]:
        return registered_handlers(program, self)

    def framework_errors(self, program: Program, code: Code) -> list[FrameworkError]:
        """The 401 of each security scheme (`OAuth2PasswordBearer`, `HTTPBearer`, ...) the parameters use."""
        return security_errors(program, self, code)
