"""Route and error styles of Litestar applications, each in a small application written here: how route
handlers, controllers and routers are declared and nested, how guards and dependencies run, and how errors
are raised, returned and converted by exception handlers."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen.core.errors import ConfigError, SourceError
from docgen.core.models import RoutesCatalog
from tests.helpers import make_files, run_extract_in_memory

MKDOCS = """\
site_name: t
plugins:
  - docgen:
      catalogs:
        api:
          kind: routes
          source: api/main.py
          framework: litestar
{extra}"""


def catalog(root: Path, main: str, *, extra: str = "", files: dict[str, str] | None = None) -> RoutesCatalog:
    make_files(
        root,
        {
            "api/__init__.py": "",
            "api/main.py": main,
            "mkdocs.yml": MKDOCS.format(extra=extra),
            **(files or {}),
        },
    )
    found = run_extract_in_memory(root).catalogs["api"]
    assert isinstance(found, RoutesCatalog)
    return found


def responses(found: RoutesCatalog) -> dict[tuple[str, str], list[tuple[int | None, str]]]:
    """(method, path) -> (status, detail) of each error, in the order the operation lists them."""
    errors = {error.id: error for error in found.errors}
    return {
        (o.method, o.path): [(errors[e].status, errors[e].detail) for e, _ in o.errors]
        for o in found.operations
    }


def test_handlers_controllers_and_routers_every_way_with_their_paths(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from litestar import Controller, HttpMethod, Litestar, Router, get, post, route
        from litestar.handlers import delete

        PREFIX = "/v2"

        @get()
        async def root() -> None: ...

        @route(path="/many", http_method=[HttpMethod.GET, "POST", "websocket"])
        async def many() -> None: ...

        @post(["/a", "/b/"])
        async def two_paths() -> None: ...

        @get("/hidden", include_in_schema=False)
        async def hidden() -> None: ...

        class Base(Controller):
            @delete("/{item_id:int}")
            async def remove(self, item_id: int) -> None: ...

        class Items(Base):
            path = "/items/"

            @get("/{item_id:uuid}/")
            async def read(self, item_id: str) -> None: ...

        def versioned() -> Router:
            return Router(PREFIX, route_handlers=[Items])

        def create_app() -> Litestar:
            inner = Router(path="/inner", route_handlers=[many])
            api = Router("/api", route_handlers=[inner])
            app = Litestar(route_handlers=[root, two_paths, hidden, api, versioned()])
            return app

        app = create_app()
        """,
    )
    assert [(o.method, o.path, o.function) for o in found.operations] == [
        ("get", "/", "api.main.root"),
        ("post", "/a", "api.main.two_paths"),
        ("get", "/api/inner/many", "api.main.many"),
        ("post", "/api/inner/many", "api.main.many"),
        ("post", "/b", "api.main.two_paths"),
        ("get", "/v2/items/{item_id}", "api.main.Items.read"),
        ("delete", "/v2/items/{item_id}", "api.main.Base.remove"),
    ]


def test_guards_and_the_dependencies_a_handler_names_run_before_it(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from litestar import Controller, Litestar, Router, get
        from litestar.di import Provide
        from litestar.exceptions import NotAuthorizedException, PermissionDeniedException

        def require(role):
            def guard(connection, handler) -> None:
                raise PermissionDeniedException(f"Only {role} may")
            return guard

        def app_guard(connection, handler) -> None:
            raise NotAuthorizedException("Sign in first")

        class Session:
            def __init__(self, token: str) -> None:
                raise NotAuthorizedException("Unknown session")

        def outer_user(session: Session) -> str:
            raise NotAuthorizedException("Outer user")

        def inner_user(session: Session) -> str:
            return "u"

        def unused() -> str:
            raise NotAuthorizedException("Never asked for")

        class Admin(Controller):
            path = "/admin"
            guards = [require("admins")]
            dependencies = {"user": Provide(inner_user)}

            @get("/")
            async def index(self, user: str) -> None: ...

        @get("/open")
        async def open_route(user: str) -> None: ...

        router = Router("/r", route_handlers=[Admin, open_route], dependencies={"unused": unused})
        app = Litestar(
            route_handlers=[router],
            guards=[app_guard],
            dependencies={"user": Provide(outer_user), "session": Session},
        )
        """,
    )
    found_dependencies = {(o.method, o.path): o.dependencies for o in found.operations}
    assert found_dependencies == {
        ("get", "/r/admin"): (
            "api.main.app_guard",
            "api.main.require.guard",
            "api.main.inner_user",
            "api.main.Session.__init__",
        ),
        ("get", "/r/open"): ("api.main.app_guard", "api.main.outer_user", "api.main.Session.__init__"),
    }
    assert responses(found) == {
        ("get", "/r/admin"): [(401, "Sign in first"), (403, "Only {role} may"), (401, "Unknown session")],
        ("get", "/r/open"): [(401, "Sign in first"), (401, "Outer user"), (401, "Unknown session")],
    }


def test_errors_raised_returned_and_handled_with_what_the_client_gets(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from litestar import Litestar, Response, get, status_codes
        from litestar.exceptions import HTTPException, InternalServerException
        from litestar.exceptions.http_exceptions import RequestEntityTooLarge, TooManyRequestsException

        class Gone(HTTPException):
            status_code = status_codes.HTTP_410_GONE

        class Domain(Exception): ...
        class Quota(Domain): ...

        def on_domain(request, exc: Domain) -> Response:
            return Response({"status_code": 422, "detail": "Domain rule broken"}, status_code=422)

        def on_teapot(request, exc):
            raise HTTPException(status_code=418, detail="Brewing")

        HANDLERS = {Domain: on_domain, 404: on_teapot}

        @get("/x")
        async def x(flag: int) -> Response:
            if flag == 1:
                raise HTTPException(status_code=status_codes.HTTP_409_CONFLICT, detail="Taken")
            if flag == 2:
                raise TooManyRequestsException()
            if flag == 3:
                raise RequestEntityTooLarge()
            if flag == 4:
                raise Gone("Moved away")
            if flag == 5:
                raise Quota()
            if flag == 6:
                return Response("Slow down", status_code=503)
            if flag == 7:
                raise InternalServerException()
            if flag == 8:
                raise HTTPException("The database is down")
            return Response({"ok": True}, status_code=202)

        app = Litestar(route_handlers=[x], exception_handlers=HANDLERS)
        """,
    )
    assert responses(found) == {
        ("get", "/x"): [
            (409, "Taken"),
            (429, "Too Many Requests"),
            (413, "Request Entity Too Large"),
            (410, "Moved away"),
            (422, "Domain rule broken"),
            (503, "Slow down"),
            (500, "Internal Server Error"),
            (500, "Internal Server Error"),  # Litestar sends this for any 500, whatever the detail says
        ]
    }
    handled = next(error for error in found.errors if error.status == 422)
    assert (handled.handler, handled.body_key) == ("api.main.on_domain", "detail")


def test_exception_handlers_built_by_a_function_on_a_router(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from litestar import Litestar, Response, Router, get

        class Missing(Exception): ...

        def on_missing(request, exc: Missing) -> Response:
            return Response(content={"error": f"No {exc}"}, status_code=404)

        def handlers():
            found = {Missing: on_missing}
            return found

        @get("/m")
        async def m() -> None:
            raise Missing("such thing")

        app = Litestar(route_handlers=[Router("/r", route_handlers=[m], exception_handlers=handlers())])
        """,
    )
    error = found.errors[0]
    assert (error.status, error.detail, error.body_key) == (404, "No {exc}", "error")


def test_a_library_without_an_application_is_read_from_what_nothing_includes(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from litestar import Controller, Router, get
        from litestar.exceptions import NotFoundException

        class Things(Controller):
            path = "/things"

            @get("/{name:str}")
            async def thing(self, name: str) -> None:
                raise NotFoundException(detail=f"No thing {name}")

        @get("/free")
        async def free() -> None: ...

        @get("/held")
        async def held() -> None: ...

        router = Router("/lib", route_handlers=[held])
        """,
    )
    assert [(o.method, o.path) for o in found.operations] == [
        ("get", "/free"),
        ("get", "/lib/held"),
        ("get", "/things/{name}"),
    ]
    assert responses(found)[("get", "/things/{name}")] == [(404, "No thing {name}")]


def test_app_names_one_application_and_an_unknown_one_is_refused(tmp_path: Path) -> None:
    source = """\
        from litestar import Litestar, get

        @get("/one")
        async def one() -> None: ...

        @get("/two")
        async def two() -> None: ...

        public = Litestar(route_handlers=[one])
        admin = Litestar(route_handlers=[two])
        admin.register(one)
        """
    found = catalog(tmp_path / "a", source, extra="          app: api.main.admin\n")
    assert [o.path for o in found.operations] == ["/one", "/two"]
    with pytest.raises(ConfigError, match=r"no Litestar application 'api\.main\.admn'") as caught:
        catalog(tmp_path / "b", source, extra="          app: api.main.admn\n")
    assert "api.main.admin" in str(caught.value.hint)


def test_a_router_that_holds_itself_is_an_error_at_it(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="this router holds itself") as caught:
        catalog(
            tmp_path,
            """\
            from litestar import Litestar, Router

            loop = Router("/loop", route_handlers=[])
            loop.register(loop)
            app = Litestar(route_handlers=[loop])
            """,
        )
    assert (caught.value.file, caught.value.line) == ("api/main.py", 3)


def test_what_a_plugin_wires_at_startup_applies_to_every_route(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from litestar import Controller, get
        from litestar.di import Provide
        from litestar.plugins import InitPluginProtocol

        class Things(Controller):
            path = "/things"

            @get("/")
            async def things(self, repo: object) -> None: ...

            @get("/count")
            async def count(self) -> None: ...

        class ThingsPlugin(InitPluginProtocol):
            def on_app_init(self, app_config):
                if self.enabled:
                    from .wiring import Unavailable, provide_repo, unavailable

                    app_config.dependencies["repo"] = Provide(provide_repo)
                    app_config.exception_handlers[Unavailable] = unavailable
                return app_config
        """,
        files={
            "api/wiring.py": """\
            from litestar import Response

            class Unavailable(Exception): ...

            def provide_repo() -> object:
                raise Unavailable("no database")

            def unavailable(request, exc: Unavailable) -> Response:
                return Response({"error": "database_required", "message": str(exc)}, status_code=501)
            """
        },
    )
    assert responses(found) == {
        ("get", "/things"): [(501, "database_required")],
        ("get", "/things/count"): [],
    }
    error = found.errors[0]
    assert (error.handler, error.body_key, error.function) == (
        "api.wiring.unavailable",
        "error",
        "api.wiring.provide_repo",
    )


def test_route_handlers_guards_and_dependencies_held_by_names(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from litestar import Litestar, Router
        from litestar.di import Provide

        from api.handlers import DEPENDENCIES, GUARDS, ROUTES

        def create_app() -> Litestar:
            handlers = [*ROUTES, Router("/r", route_handlers=ROUTES)]
            return Litestar(route_handlers=handlers, guards=GUARDS, dependencies=DEPENDENCIES)

        app = create_app()
        """,
        files={
            "api/handlers.py": """\
            from litestar import get
            from litestar.exceptions import NotAuthorizedException, NotFoundException

            def guard(connection, handler) -> None:
                raise NotAuthorizedException("No entry")

            def lookup() -> str:
                raise NotFoundException()

            @get("/h")
            async def h(thing: str) -> None: ...

            ROUTES = [h]
            GUARDS = (guard,)
            DEPENDENCIES = {"thing": lookup}
            """
        },
    )
    assert responses(found) == {
        ("get", "/h"): [(401, "No entry"), (404, "Not Found")],
        ("get", "/r/h"): [(401, "No entry"), (404, "Not Found")],
    }


def test_routes_left_out_of_the_schema_by_their_layer_unless_they_say_otherwise(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from litestar import Controller, Litestar, Router, get

        class Internal(Controller):
            path = "/internal"
            include_in_schema = False

            @get("/stats")
            async def stats(self) -> None: ...

        @get("/ops")
        async def ops() -> None: ...

        @get("/docs", include_in_schema=True)
        async def docs() -> None: ...

        hidden = Router("/admin", route_handlers=[ops, docs, Internal], include_in_schema=False)
        app = Litestar(route_handlers=[hidden, ops])
        """,
    )
    assert [o.path for o in found.operations] == ["/admin/docs", "/ops"]


def test_authentication_middleware_runs_before_the_routes_it_does_not_skip(tmp_path: Path) -> None:
    # As Litestar 2.25 answers it: /a 401 {"status_code": 401, "detail": "Bad token"}; /login and /schema-x
    # skip the middleware (the opt-out, and the `^/schema` pattern); /v2/b runs the one the router adds too.
    found = catalog(
        tmp_path,
        """\
        from litestar import Litestar, Router, get
        from litestar.exceptions import NotAuthorizedException
        from litestar.middleware import AbstractAuthenticationMiddleware, DefineMiddleware

        class TokenAuth(AbstractAuthenticationMiddleware):
            async def authenticate_request(self, connection):
                raise NotAuthorizedException("Bad token")

        class StrictAuth(TokenAuth): ...

        @get("/a")
        async def a() -> None: ...

        @get("/login", exclude_from_auth=True)
        async def login() -> None: ...

        @get("/schema-x", opt={"exclude_from_auth": False})
        async def sx() -> None: ...

        @get("/b")
        async def b() -> None: ...

        app = Litestar(
            route_handlers=[a, login, sx, Router("/v2", route_handlers=[b], middleware=[StrictAuth])],
            middleware=[DefineMiddleware(TokenAuth, exclude=["^/schema", "/x[0-9]+"])],
        )
        """,
    )
    assert responses(found) == {
        ("get", "/a"): [(401, "Bad token")],
        ("get", "/login"): [],
        ("get", "/schema-x"): [],
        ("get", "/v2/b"): [(401, "Bad token")],
    }
    assert {(o.path, o.dependencies) for o in found.operations if o.dependencies} == {
        ("/a", ("api.main.TokenAuth.authenticate_request",)),
        ("/v2/b", ("api.main.TokenAuth.authenticate_request",)),
    }


def test_a_handler_answering_with_the_exceptions_attributes_takes_them_from_each_raise(
    tmp_path: Path,
) -> None:
    found = catalog(
        tmp_path,
        """\
        from litestar import Litestar, Response, get

        class AppError(Exception):
            status_code = 500
            message = "Something went wrong"

            def __init__(self, message: str = "", code: str | None = None) -> None:
                if message:
                    self.message = message

        class Missing(AppError):
            status_code = 404
            message = "Resource not found"

        class Locked(AppError):
            status_code = 423

        def on_app_error(request, exc: AppError) -> Response:
            return Response({"errors": [], "detail": exc.message}, status_code=exc.status_code)

        @get("/r")
        async def r(flag: int) -> None:
            if flag == 1:
                raise Missing()
            if flag == 2:
                raise Missing("No such chart")
            if flag == 3:
                raise Locked(message="The dashboard is being edited")
            raise AppError()

        app = Litestar(route_handlers=[r], exception_handlers={AppError: on_app_error})
        """,
    )
    assert responses(found) == {
        ("get", "/r"): [
            (404, "Resource not found"),
            (404, "No such chart"),
            (423, "The dashboard is being edited"),
            (500, "Something went wrong"),
        ]
    }
    assert {error.body_key for error in found.errors} == {"detail"}


def test_a_handler_registered_for_a_status_answers_the_exceptions_of_that_status(tmp_path: Path) -> None:
    # As Litestar 2.25 answers it: /a 404 {"error": "No a"}, /b 404 {"error": "Not Found"}, /d as it is.
    found = catalog(
        tmp_path,
        """\
        from litestar import Litestar, Response, get, status_codes
        from litestar.exceptions import HTTPException, NotFoundException, PermissionDeniedException

        class Gone(HTTPException):
            status_code = 404

        def on_404(request, exc) -> Response:
            return Response({"error": exc.detail}, status_code=404)

        @get("/a")
        async def a() -> None:
            raise NotFoundException("No a")

        @get("/b")
        async def b() -> None:
            raise Gone()

        @get("/d")
        async def d() -> None:
            raise PermissionDeniedException("Not yours")

        app = Litestar(route_handlers=[a, b, d], exception_handlers={status_codes.HTTP_404_NOT_FOUND: on_404})
        """,
    )
    found_errors = {(e.status, e.detail, e.handler, e.body_key) for e in found.errors}
    assert found_errors == {
        (404, "No a", "api.main.on_404", "error"),
        (404, "Not Found", "api.main.on_404", "error"),
        (403, "Not yours", None, "detail"),
    }


def test_exceptions_a_raised_function_returns_are_raise_sites_of_their_own(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from litestar import Litestar, get
        from litestar.exceptions import HTTPException, NotFoundException

        class UpstreamError(Exception):
            status_code: int | None = None

        def error_for(exc: UpstreamError) -> HTTPException:
            if exc.status_code == 404:
                return NotFoundException(detail="No such rate")
            return HTTPException(detail="The upstream service failed", status_code=502)

        def fetch() -> float:
            raise UpstreamError()

        @get("/rate")
        async def rate() -> float:
            try:
                return fetch()
            except UpstreamError as exc:
                raise error_for(exc) from exc

        app = Litestar(route_handlers=[rate])
        """,
    )
    assert responses(found) == {
        ("get", "/rate"): [(404, "No such rate"), (502, "The upstream service failed")]
    }
    operation = found.operations[0]
    assert {via for _, via in operation.errors} == {("api.main.rate", "api.main.error_for")}


def test_a_litestar_application_is_detected_from_its_imports(tmp_path: Path) -> None:
    make_files(
        tmp_path,
        {
            "api/__init__.py": "",
            "api/main.py": """\
            from litestar import Litestar, get

            @get("/ping")
            async def ping() -> None: ...

            app = Litestar(route_handlers=[ping])
            """,
            "mkdocs.yml": "site_name: t\nplugins:\n  - docgen:\n      catalogs:\n        api:\n"
            "          kind: routes\n          source: api/main.py\n",
        },
    )
    found = run_extract_in_memory(tmp_path).catalogs["api"]
    assert isinstance(found, RoutesCatalog)
    assert (found.framework, [o.path for o in found.operations]) == ("litestar", ["/ping"])


PLUGGED = """\
import importlib

from litestar import Litestar, get


@get("/books")
async def books() -> list[str]:
    return []


def load_plugin() -> object:
    return importlib.import_module("api.plugin")


app = Litestar(route_handlers=[books, load_plugin().router])
"""


def test_a_route_handler_entry_docgen_cannot_find_is_a_located_notice_and_finding(tmp_path: Path) -> None:
    """A plugin's router loaded at run time: its routes cannot be listed, and extract says so at the list
    (check reports it as `source-unfollowed`), while the rest of the application is read."""
    from docgen.kinds.routes.catalog import RoutesExtraction

    found = catalog(tmp_path, PLUGGED)
    assert [(o.method, o.path) for o in found.operations] == [("get", "/books")]
    result = run_extract_in_memory(tmp_path).results["api"]
    assert isinstance(result, RoutesExtraction)
    assert [(shown, file, line) for shown, _reason, file, line in result.unfollowed] == [
        ("route_handlers: load_plugin().router", "api/main.py", 15)
    ]
