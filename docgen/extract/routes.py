"""HTTP operations found statically, behind one interface that each web framework implements.

A `Framework` knows how its applications declare routes (decorators, routers and their prefixes), which
dependencies an operation runs, which exception classes are HTTP errors, where their status and detail sit
and what a missing detail becomes, and how exception handlers are registered. The implementations live in
`docgen/frameworks/` (one subpackage each) or in another installed package, found by name through
`core.settings.FRAMEWORKS` (`framework_named`); `docgen.extract.raises` follows each operation's code
to the errors it raises, whatever the framework. The interface is defined here, where the extractor reads
through it, because the extractor may not import the frameworks that import it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Protocol

import griffe

from docgen.core.errors import ConfigError
from docgen.core.records import record
from docgen.core.settings import FRAMEWORKS
from docgen.extract.program import Code, Program
from docgen.extract.resolve import Assumed, Resolver
from docgen.extract.route_paths import Unread

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


@record
class Endpoint:
    """One operation: an HTTP method on a path, the function that answers it, what runs before it."""

    method: str
    path: str
    function: griffe.Function | griffe.Class
    """A class when the framework answers with a method the source does not write (a REST framework
    view's inherited `retrieve`): the class is what the source declares for the operation."""
    dependencies: tuple[Code, ...]
    """Dependencies the route, its routers or its inclusion declare (not those in the parameters)."""
    file: str
    line: int
    """The line of the route's decorator (or registration call): where findings about it point."""
    assumed: tuple[Assumed, ...] = ()
    """Values the path takes on trust (a settings default, a value the configuration states)."""
    unread: tuple[Unread, ...] = ()
    """Parts of the path that cannot be read statically (kept in it as the expression in braces)."""
    condition: str | None = None
    """The condition the route, or a router on its way, is registered under (`settings.ENVIRONMENT ==
    'local'`), as Python spells the expression back; None when it always is."""
    body_key: str | None = None
    """The key of the error body this operation answers with when no handler says otherwise, where it is not
    the framework's (a Flask-RESTful resource answers `{"message": ...}`, Flask itself an HTML page)."""
    handlers: tuple[tuple[str, Handler], ...] = ()
    """(exception class path, handler) of the handlers that answer for this operation before the
    application's, nearest first (a Flask blueprint's own `errorhandler`, then its parents')."""
    implied: tuple[FrameworkError, ...] = ()
    """Errors the framework answers for the operation without a `raise` in the source, because of what the
    application declares (a REST framework generic view's failed lookup, a permission class that refuses),
    first in order."""
    undetermined: tuple[Unread, ...] = ()
    """What decides errors the framework answers for the operation and cannot be read statically (REST
    framework permission classes chosen at run time): the errors they decide are not listed, and each is a
    located finding until the configuration states its value."""
    statements: tuple[str, ...] = ()
    """The expressions of `run_time_values:` whose stated classes decided the operation's framework errors
    (a statement no path, error or operation takes is stale)."""


@record
class Handler:
    """What a registered exception handler answers for the exceptions it is registered for."""

    function: griffe.Function
    status: int | None
    """None: the status of the exception itself (a handler for the framework's HTTP exception)."""
    detail: str | None
    """The detail, as text or a template with placeholders; None: the exception's own detail."""
    body_key: str
    """The key of the response body that holds the detail (the framework's own, unless the handler
    writes another; `error.message` for a detail nested in `{"error": {"message": ...}}`)."""
    status_attribute: str | None = None
    """The attribute of the exception the handler answers with as the status (`exc.status_code`), read
    from the raised exception: the argument its constructor takes under that name, else its class's
    attribute; None: the handler states the status, or takes the HTTP exception's own."""
    detail_attribute: str | None = None
    """The same for the detail (`exc.message`)."""


@record
class FrameworkError:
    """An error the framework's own code answers for an operation (a security scheme's 401), read from the
    installed framework, placed where the application declares what leads to it."""

    status: int
    detail: str
    exception: str
    """What answers it, as a reader names it (`OAuth2PasswordBearer`)."""
    function: str
    """The dotted path of what the application declares (`app.api.deps.oauth2_scheme`)."""
    file: str
    line: int
    raised: str | None = None
    """The dotted path of the exception class the framework raises for it, when an exception handler of the
    application may answer it instead (Werkzeug's `BadRequestKeyError` for `request.args["page"]`); None: the
    framework answers it itself."""


@record
class ExceptionArguments:
    """Where a call that makes an HTTP error (an exception class, a function that raises, a response)
    takes the status and the detail, and which class attributes hold them when the call passes none."""

    status: tuple[int | None, str]
    """Position (after self; None: keyword only) and keyword of the status."""
    detail: tuple[int | None, str]
    status_attribute: str | None = None
    """The class attribute that holds the status when the call passes none (Werkzeug's `code`), read on
    the raised class and then its bases, an installed framework's included."""
    detail_attribute: str | None = None
    """The class attribute that holds the detail when the call passes none (Werkzeug's `description`)."""
    replaced_details: tuple[tuple[int, str], ...] = ()
    """(status, detail): the detail the framework sends in place of the stated one when it answers an error
    of that status itself, with no handler of the application (Litestar's `Internal Server Error` for 500)."""
    code: tuple[int | None, str] | None = None
    """Position and keyword of an error code the exception keeps (REST framework's `code`), which errors
    catalogs record; None: the framework's errors have no code."""
    code_attribute: str | None = None
    """The class attribute that holds the code when the call passes none (REST framework's
    `default_code`)."""
    reason: tuple[int | None, str] | None = None
    """Where the call takes a reason phrase of its own (aiohttp's `reason=`), which stands for the status's
    standard phrase wherever the default detail states it (`404: Not Found` becomes `404: No such book`)."""
    status_default: int | None = None
    """The status when neither the call nor a class attribute gives one (`get_or_404` always answers 404)."""
    raises: tuple[tuple[int, str], ...] = ()
    """For a function that raises: (status, dotted path of the exception class it raises for that status),
    so that the exception handlers registered for the class (or a base of it) apply (Flask's `abort(404)`
    raises Werkzeug's `NotFound`)."""


class Framework(Protocol):
    """What docgen needs to know of a web framework to find its operations and their errors."""

    name: str
    body_key: str
    """The key of the error body the framework writes (`detail` when it writes `{"detail": ...}`)."""
    automatic_statuses: frozenset[int]
    """Statuses the framework documents by itself (422 for a request that fails validation, say)."""
    http_exceptions: Mapping[str, ExceptionArguments]
    """Dotted path of each HTTP exception class -> where it takes its arguments; a subclass is one too."""

    @property
    def raising_calls(self) -> Mapping[str, ExceptionArguments]:
        """Dotted path of each function that raises an HTTP error when called (Flask's `abort`); a key that
        starts with a dot names a method by its name, on an object no dotted path leads to (Flask-SQLAlchemy's
        `User.query.get_or_404(...)` is `.get_or_404`). A property, so that an adapter may read the installed
        framework only when a catalog needs it (never to detect which framework a source imports)."""

    responses: Mapping[str, ExceptionArguments]
    """Dotted path of each response class or builder: one returned with a status of 400 or more is an
    error; a success status, or none (a response's default), is not."""
    tuple_status: bool
    """Whether a view returns `(body, status)` or `(body, status, headers)` to set the status (Flask)."""
    import_roots: frozenset[str]
    """The top-level packages whose import in the source means this framework."""
    openapi_guide: str
    """Where a user reads how to merge the OpenAPI fragment into the application's document (a README
    section), named in check's findings about a committed document."""
    resolver: Resolver

    def constant_status(self, path: str) -> int | None:
        """The status a constant of the framework names (its `status` module), or None."""
        ...

    def default_detail(self, exception: str, status: int | None) -> str:
        """The detail the framework gives an HTTP error made without one (or with None) by `exception` (the
        dotted path of the class raised or the function called) with `status`, when no class attribute
        gives it."""
        ...

    def endpoints(self, program: Program, app: str | None) -> list[Endpoint]:
        """Every operation of the application `app` (a dotted path; None: every application that is not
        mounted in another) in `program`, in path then method order."""
        ...

    def parameter_dependencies(self, program: Program, code: Code) -> list[Code]:
        """The dependencies a function declares in its parameters, in order."""
        ...

    def handlers(self, program: Program) -> dict[str, Handler]:
        """Dotted path of an exception class -> the handler registered for it."""
        ...


class AnsweringFramework(Framework, Protocol):
    """A framework whose own code answers some errors for an operation, found from the function's
    parameters (FastAPI's security schemes); a framework without such errors leaves the member out."""

    def framework_errors(self, program: Program, code: Code) -> list[FrameworkError]:
        """The errors the framework answers for what `code`'s parameters declare, in order."""
        ...


class PlacingFramework(Framework, Protocol):
    """A framework that decides the body key of some raised errors itself (REST framework); a framework
    whose errors always travel under `body_key` (or a handler's) leaves these members out
    (`docgen.extract.body_keys` reads them)."""

    detail_is_body: bool
    """Whether a dict given as an HTTP exception's detail is sent as the body itself (REST framework's
    `ValidationError({"email": ...})` answers `{"email": ...}`), rather than under `body_key` (FastAPI)."""

    def body_key_in(self, function: str, exception: list[str], via: tuple[str, ...] = ()) -> str | None:
        """The body key an exception (its class and bases, nearest first) raised in `function`, reached
        through the functions `via`, answers under when the framework decides it by the place of the raise
        (REST framework answers a serializer's `validate`, and the helpers it calls, with
        `non_field_errors`); None: the exception's own, or `body_key`."""
        ...


def framework_errors(framework: Framework, program: Program, code: Code) -> list[FrameworkError]:
    """The errors `framework` itself answers for `code`'s parameters (`AnsweringFramework`), or none."""
    answer = getattr(framework, "framework_errors", None)
    found: list[FrameworkError] = answer(program, code) if callable(answer) else []
    return found


def framework_named(name: str, resolver: Resolver) -> Framework:
    """The framework `name` (built in or installed), reading with `resolver`; a ConfigError when it is not
    known or does not load. Only a name that settings accepted reaches here."""
    factory = FRAMEWORKS.load(name)
    if not callable(factory):
        raise ConfigError(f"the framework '{name}' is not a class or factory: {factory!r}")
    framework: Framework = factory(resolver)
    return framework


def join_paths(*parts: str) -> str:
    """Route paths joined as routers join them: prefixes are prepended as written."""
    return "".join(parts)


def schema_path(path: str) -> str:
    """A route path as OpenAPI names it: `/` for the empty path, and parameters without their convertor
    (`/files/{file_path:path}` is `/files/{file_path}`)."""
    return re.sub(r"\{([^{}:]+):[^{}]*\}", r"{\1}", path) or "/"
