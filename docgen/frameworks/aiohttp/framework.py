"""aiohttp's web server as a `Framework`.

What aiohttp means by an HTTP error: a raised subclass of `web.HTTPError` (the 4xx and 5xx classes of
`web.HTTPException`, and an application's own subclasses), whose status is the class's `status_code` (the
constructor takes none) and whose body is plain text: the `text=` argument, else `"<status>: <reason>"`
(`"404: Not Found"`), as `HTTPException.__init__` writes it; or a response returned with an error status
(`web.json_response(data, status=404)`, `web.Response(status=409, text=...)`). aiohttp has no dependency
injection, no status constants of its own (`http.HTTPStatus` is read generically) and no request validation
that answers by itself. How it declares routes and middlewares is read by `routes` and `middlewares`.
"""

from __future__ import annotations

from collections.abc import Mapping

from docgen.core.route_models import TEXT_BODY
from docgen.extract.http_values import phrase
from docgen.extract.program import Code, Program
from docgen.extract.resolve import Resolver
from docgen.extract.route_paths import Unread
from docgen.extract.routes import Endpoint, ExceptionArguments, Handler
from docgen.frameworks.aiohttp.middlewares import middleware_handlers
from docgen.frameworks.aiohttp.routes import application_endpoints

HTTP_ERROR = ExceptionArguments(
    status=(None, "status_code"),
    detail=(None, "text"),
    status_attribute="status_code",
    reason=(None, "reason"),
)
"""An HTTP exception takes no status (its class has it), its body as `text=`, and a `reason=` that replaces
the standard phrase in the body it writes without `text=`."""
JSON_RESPONSE = ExceptionArguments(status=(None, "status"), detail=(0, "data"))
RESPONSE = ExceptionArguments(status=(None, "status"), detail=(None, "text"))
_RESPONSES = {"json_response": JSON_RESPONSE, "Response": RESPONSE}


class AiohttpFramework:
    """aiohttp applications read statically."""

    name = "aiohttp"
    body_key = TEXT_BODY
    automatic_statuses: frozenset[int] = frozenset()
    http_exceptions: Mapping[str, ExceptionArguments] = {
        "aiohttp.web.HTTPError": HTTP_ERROR,
        "aiohttp.web_exceptions.HTTPError": HTTP_ERROR,
    }
    raising_calls: Mapping[str, ExceptionArguments] = {}
    responses: Mapping[str, ExceptionArguments] = {
        f"aiohttp.{module}.{name}": arguments
        for module in ("web", "web_response")
        for name, arguments in _RESPONSES.items()
    }
    tuple_status = False
    import_roots = frozenset({"aiohttp"})
    installed_modules: Mapping[str, str] = {"aiohttp": "aiohttp"}
    openapi_guide = "README: An aiohttp application"

    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver
        self.unfollowed: list[Unread] = []
        """What `endpoints` could not follow (`add_subapp("/x", self.sub)`), for located findings."""

    def constant_status(self, path: str) -> int | None:
        """aiohttp names no statuses of its own."""
        return None

    def default_detail(self, exception: str, status: int | None) -> str:
        """An HTTP exception without `text=` sends `"<status>: <reason>"`; a response without a body sends
        an empty one."""
        if exception.rsplit(".", 1)[-1] in _RESPONSES or status is None:
            return ""
        return f"{status}: {phrase(status)}"

    def endpoints(self, program: Program, app: str | None) -> list[Endpoint]:
        return application_endpoints(program, self.resolver, app, self.unfollowed)

    def parameter_dependencies(self, program: Program, code: Code) -> list[Code]:
        """aiohttp injects nothing into a handler's parameters."""
        return []

    def handlers(self, program: Program) -> dict[str, Handler]:
        return middleware_handlers(program, self)
