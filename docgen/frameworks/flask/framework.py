"""Flask (with Werkzeug, whose exceptions it raises) as a `Framework`.

What Flask means by an HTTP error: a Werkzeug `HTTPException` raised (its status in the class attribute
`code`, its text in `description`, read from the installed Werkzeug), `abort(status)` raising the Werkzeug
class of that status, a response returned with an error status (`Response(..., status=404)`,
`make_response(body, 404)`, or a view's `(body, 404)` tuple). Without an error handler, Flask answers an
HTTP exception with Werkzeug's HTML page, whose one paragraph is the description: that text is the detail
the catalog records (the page's title is only the status and its phrase), with an empty body key, as the
body is no JSON object. How an application declares routes and error handlers is read by `routes` and
`handlers` beside this.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property

from docgen.core.route_models import HTML_BODY
from docgen.extract.program import Code, Program
from docgen.extract.resolve import Resolver
from docgen.extract.route_paths import Unread
from docgen.extract.routes import Endpoint, ExceptionArguments, FrameworkError, Handler
from docgen.frameworks.flask.handlers import registered_handlers
from docgen.frameworks.flask.request_data import RequestData
from docgen.frameworks.flask.routes import application_endpoints
from docgen.frameworks.flask.werkzeug import BASE, WerkzeugExceptions, read_werkzeug

HTTP_EXCEPTION = ExceptionArguments(
    status=(None, "code"), detail=(0, "description"), status_attribute="code", detail_attribute="description"
)
"""`NotFound(description=None, response=None)`: the status is the class's `code`, never an argument."""
RESPONSE = ExceptionArguments(status=(1, "status"), detail=(0, "response"))
"""`Response(response, status, ...)` and `make_response(body, status, ...)`."""
ABORTS = ("flask.abort", "flask.helpers.abort", "werkzeug.exceptions.abort")
OR_404 = ("get_or_404", "first_or_404", "one_or_404")
"""Flask-SQLAlchemy's query methods that `abort(404, description=description)` when nothing is found,
called on objects docgen does not follow (`User.query.get_or_404(id)`, `db.get_or_404(User, id)`)."""
RESPONSES = (
    "flask.Response",
    "flask.wrappers.Response",
    "werkzeug.Response",
    "werkzeug.wrappers.Response",
    "werkzeug.wrappers.response.Response",
    "werkzeug.wrappers.BaseResponse",
    "flask.make_response",
    "flask.helpers.make_response",
    ".make_response",
    ".response_class",
)
"""Flask's and Werkzeug's responses, and by method name `app.make_response(...)` and `app.response_class(...)`
(on `current_app` as well)."""


class FlaskFramework:
    """Flask applications read statically, against the installed Werkzeug."""

    name = "flask"
    body_key = HTML_BODY
    """Werkzeug's error page is HTML, with no key: the description is its text."""
    automatic_statuses: frozenset[int] = frozenset()
    http_exceptions: Mapping[str, ExceptionArguments] = {BASE: HTTP_EXCEPTION}
    responses: Mapping[str, ExceptionArguments] = {path: RESPONSE for path in RESPONSES}
    tuple_status = True
    import_roots = frozenset({"flask"})
    installed_modules: Mapping[str, str] = {"flask": "flask", "werkzeug": "werkzeug"}
    openapi_guide = "README: A Flask application"

    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver
        self._read: tuple[Program, dict[str | None, dict[str, Handler]]] | None = None
        """The handlers of the program last read, by blueprint (None: the application's)."""
        self.unfollowed: list[Unread] = []
        """What `endpoints` could not follow (`register_blueprint(self.x.bp)`), for located findings."""

    @cached_property
    def werkzeug(self) -> WerkzeugExceptions:
        """The installed Werkzeug's exceptions, read when a catalog first needs them (detecting which
        framework a source imports does not, so a FastAPI project needs no Werkzeug)."""
        return read_werkzeug(self.resolver)

    @cached_property
    def raising_calls(self) -> Mapping[str, ExceptionArguments]:
        raised = tuple(sorted(self.werkzeug.by_status.items()))
        abort = ExceptionArguments(status=(0, "code"), detail=(1, "description"), raises=raised)
        missing = ExceptionArguments(
            status=(None, "code"), detail=(None, "description"), status_default=404, raises=raised
        )
        restful = ExceptionArguments(status=(0, "http_status_code"), detail=(None, "message"), raises=raised)
        restx = ExceptionArguments(status=(0, "code"), detail=(1, "message"), raises=raised)
        return {
            **{path: abort for path in ABORTS},
            "flask_restful.abort": restful,
            "flask_restx.abort": restx,
            "flask_restx.errors.abort": restx,
            **{f".{method}": missing for method in OR_404},
        }

    def constant_status(self, path: str) -> int | None:
        """Flask names no statuses of its own (`http.HTTPStatus` members are read everywhere)."""
        return None

    def default_detail(self, exception: str, status: int | None) -> str:
        """The description of the Werkzeug class raised: `exception` itself, or for `abort(status)` and a
        response the class of that status; empty for a status Werkzeug has no class for."""
        known = self.werkzeug.classes.get(exception)
        if known is None and status is not None and status in self.werkzeug.by_status:
            known = self.werkzeug.classes[self.werkzeug.by_status[status]]
        return known.description if known is not None else ""

    def endpoints(self, program: Program, app: str | None) -> list[Endpoint]:
        scoped = {key: found for key, found in self._handlers(program).items() if key is not None}
        return application_endpoints(program, self.resolver, app, scoped, self.unfollowed)

    def parameter_dependencies(self, program: Program, code: Code) -> list[Code]:
        """Flask injects nothing through parameters: what runs first is `before_request` and decorators."""
        return []

    @cached_property
    def request_data(self) -> RequestData:
        return RequestData(self.resolver, self.werkzeug)

    def framework_errors(self, program: Program, code: Code) -> list[FrameworkError]:
        """What Flask answers for reading the request in `code` (`request.args["page"]`, `request.json`)."""
        return self.request_data.errors(program, code)

    def handlers(self, program: Program) -> dict[str, Handler]:
        """The application's handlers; a blueprint's own answer for its operations (`Endpoint.handlers`)."""
        return self._handlers(program)[None]

    def _handlers(self, program: Program) -> dict[str | None, dict[str, Handler]]:
        if self._read is None or self._read[0] is not program:
            self._read = (program, registered_handlers(program, self, self.werkzeug.by_status))
        return self._read[1]
