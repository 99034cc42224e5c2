"""What real FastAPI applications write around their routes, followed as they mean it: dependencies behind a
module-level `Annotated` alias, prefixes and statuses taken from a settings object's defaults, and routers
included under a condition."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openapi_spec_validator import validate

from docgen.core.notes import Notes
from docgen.kinds.routes.openapi import error_fragment
from tests.extract.test_route_styles import catalog, responses


def test_dependencies_behind_module_level_annotated_aliases(tmp_path: Path) -> None:
    deps = """\
    from typing import Annotated, TypeAlias

    from fastapi import Depends, HTTPException


    def get_db():
        raise HTTPException(503, "The database is down")


    SessionDep = Annotated[object, Depends(get_db)]


    def get_current_user(db: SessionDep):
        raise HTTPException(401, "Not authenticated")


    CurrentUser: TypeAlias = Annotated[dict, Depends(get_current_user)]
    Admin = Annotated[CurrentUser, "an admin"]
    """
    main = """\
    from fastapi import FastAPI

    from api import deps
    from api.deps import CurrentUser

    app = FastAPI()


    @app.get("/me")
    def me(user: CurrentUser): ...


    @app.get("/admin")
    def admin(user: deps.Admin): ...


    @app.get("/plain")
    def plain(user: dict): ...
    """
    found = catalog(tmp_path, main, files={"api/deps.py": deps})
    reached = [(503, "The database is down"), (401, "Not authenticated")]
    assert responses(found) == {("get", "/admin"): reached, ("get", "/me"): reached, ("get", "/plain"): []}


CONFIG = """\
    from pydantic import Field
    from pydantic_settings import BaseSettings


    class Base(BaseSettings):
        API_V1_STR: str = "/api/v1"


    class Settings(Base):
        ENVIRONMENT: str = "local"
        ITEMS: str = Field(default="/items")
        TEAM: str = Field("/teams")
        LEGACY: str = "/old"
        SECRET_PREFIX: str
        RETRY_AFTER: int = 503


    settings = Settings(LEGACY="/legacy")
    """


def test_prefixes_and_statuses_from_a_settings_instance_are_its_class_defaults(tmp_path: Path) -> None:
    main = """\
    from fastapi import APIRouter, FastAPI, HTTPException

    from api.config import settings

    app = FastAPI()
    router = APIRouter(prefix=settings.ITEMS)


    @router.get("/{item_id}")
    def item(item_id: int):
        raise HTTPException(settings.RETRY_AFTER, "Try again later")


    @app.get(f"{settings.API_V1_STR}{settings.TEAM}")
    def teams(): ...


    @app.get(settings.LEGACY + "/x")
    def legacy(): ...


    app.include_router(router, prefix=settings.API_V1_STR)
    """
    found = catalog(tmp_path, main, files={"api/config.py": CONFIG})
    assumed = {o.path: [a.as_data() for a in o.assumed] for o in found.operations}
    api = {
        "expression": "settings.API_V1_STR",
        "value": "/api/v1",
        "source": "default of api.config.Base.API_V1_STR",
    }
    assert assumed == {
        "/api/v1/items/{item_id}": [
            api,
            {
                "expression": "settings.ITEMS",
                "value": "/items",
                "source": "default of api.config.Settings.ITEMS",
            },
        ],
        "/api/v1/teams": [
            api,
            {
                "expression": "settings.TEAM",
                "value": "/teams",
                "source": "default of api.config.Settings.TEAM",
            },
        ],
        "/legacy/x": [],  # the keyword the instance is made with is the code's own value
    }
    assert all(not o.unresolved for o in found.operations)
    assert responses(found)[("get", "/api/v1/items/{item_id}")] == [(503, "Try again later")]
    (error,) = found.errors
    retry = "default of api.config.Settings.RETRY_AFTER"
    assert [a.as_data() for a in error.assumed] == [
        {"expression": "settings.RETRY_AFTER", "value": 503, "source": retry}
    ]


def test_a_setting_without_a_default_is_unresolved_until_the_configuration_states_it(tmp_path: Path) -> None:
    main = """\
    from fastapi import FastAPI, HTTPException

    from api.config import settings

    app = FastAPI()


    @app.get(settings.SECRET_PREFIX + "/x")
    def hidden():
        raise HTTPException(404, "Nothing here")
    """
    found = catalog(tmp_path, main, files={"api/config.py": CONFIG})
    (operation,) = found.operations
    assert operation.path == "{settings.SECRET_PREFIX}/x"
    assert [u.as_data() for u in operation.unresolved] == [
        {
            "expression": "settings.SECRET_PREFIX",
            "reason": "api.config.Settings.SECRET_PREFIX has no default: only the environment gives it",
        }
    ]
    stated = """\
          run_time_values:
            - {expression: settings.SECRET_PREFIX, value: /hidden, because: the deployment sets it}
"""
    found = catalog(tmp_path / "stated", main, files={"api/config.py": CONFIG}, extra=stated)
    (operation,) = found.operations
    assert (operation.path, operation.unresolved) == ("/hidden/x", ())
    assert [a.as_data() for a in operation.assumed] == [
        {"expression": "settings.SECRET_PREFIX", "value": "/hidden", "source": "stated in mkdocs.yml"}
    ]


def test_routers_included_under_a_condition_are_kept_with_it(tmp_path: Path) -> None:
    main = """\
    from fastapi import APIRouter, FastAPI

    from api.config import settings

    app = FastAPI()
    private = APIRouter(prefix="/private")
    debug = APIRouter(prefix="/debug")
    public = APIRouter(prefix="/public")


    @private.post("/users")
    def create_user(): ...


    @debug.get("/state")
    def state(): ...


    @public.get("/about")
    def about(): ...


    if settings.ENVIRONMENT == "local":
        app.include_router(private)
        if settings.LEGACY:
            app.include_router(debug)
    else:
        app.include_router(public)
    """
    found = catalog(tmp_path, main, files={"api/config.py": CONFIG})
    assert {o.path: o.condition for o in found.operations} == {
        "/debug/state": "settings.ENVIRONMENT == 'local' and settings.LEGACY",
        "/private/users": "settings.ENVIRONMENT == 'local'",
        "/public/about": "not (settings.ENVIRONMENT == 'local')",
    }


def test_a_starlette_application_declared_as_data(tmp_path: Path) -> None:
    users = """\
    from starlette.endpoints import HTTPEndpoint
    from starlette.exceptions import HTTPException
    from starlette.routing import Route, Router


    class User(HTTPEndpoint):
        async def get(self, request):
            raise HTTPException(404, "No such user")

        async def delete(self, request):
            raise HTTPException(status_code=403)


    routes = [Route("/{user_id:int}", User)]
    admin = Router(routes=[Route("/stats", User, include_in_schema=False)])
    """
    main = """\
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.responses import JSONResponse
    from starlette.routing import Mount, Route

    from api import users


    class Closed(Exception): ...


    async def health(request):
        raise HTTPException(503)


    async def shop(request):
        raise Closed()


    async def closed(request, exc):
        return JSONResponse({"message": "The shop is closed"}, status_code=423)


    app = Starlette(
        exception_handlers={Closed: closed, 404: closed},
        routes=[
            Route("/shop", shop),
            Route("/health", health, methods=["GET", "HEAD", "POST"]),
            Mount("/users", routes=users.routes),
            Mount("/admin", app=users.admin),
        ]
    )
    """
    found = catalog(tmp_path, main, files={"api/users.py": users})
    assert responses(found) == {
        ("get", "/health"): [(503, "Service Unavailable")],
        ("post", "/health"): [(503, "Service Unavailable")],
        ("get", "/shop"): [(423, "The shop is closed")],
        ("get", "/users/{user_id}"): [(404, "No such user")],
        ("delete", "/users/{user_id}"): [(403, "Forbidden")],
    }
    keys = {error.detail: error.body_key for error in found.errors}
    assert (keys["The shop is closed"], keys["No such user"]) == ("message", "")  # Starlette's is plain text


def test_methods_of_a_service_injected_through_an_alias_are_followed(tmp_path: Path) -> None:
    deps = """\
    from typing import Annotated

    from fastapi import Depends, HTTPException


    class UserService:
        def get(self, user_id):
            raise HTTPException(404, "No such user")


    def get_user_service():
        return UserService()


    UserSvc = Annotated[UserService, Depends(get_user_service)]
    """
    main = """\
    from fastapi import FastAPI

    from api.deps import UserSvc

    app = FastAPI()


    @app.get("/users/{user_id}")
    def read(user_id: int, users: UserSvc):
        return users.get(user_id)
    """
    found = catalog(tmp_path, main, files={"api/deps.py": deps})
    assert responses(found) == {("get", "/users/{user_id}"): [(404, "No such user")]}


def test_domain_errors_whose_handler_reads_their_attributes(tmp_path: Path) -> None:
    errors = """\
    class AppException(Exception):
        message: str = "An error occurred"
        code: str = "APP_ERROR"
        status_code: int = 500

        def __init__(self, message=None, code=None):
            self.message = message or self.__class__.message
            self.code = code or self.__class__.code


    class NotFoundError(AppException):
        message = "Resource not found"
        code = "NOT_FOUND"
        status_code = 404
    """
    main = """\
    from fastapi import FastAPI, Request
    from fastapi.responses import JSONResponse

    from api.errors import AppException, NotFoundError

    app = FastAPI()


    @app.exception_handler(AppException)
    async def app_error(request: Request, exc: AppException):
        content = {"error": {"code": exc.code, "message": exc.message}}
        return JSONResponse(status_code=exc.status_code, content=content)


    @app.get("/a/{a_id}")
    def read(a_id: int, kind: str):
        if kind == "default":
            raise NotFoundError()
        if kind == "keyword":
            raise NotFoundError(message="No such a")
        raise NotFoundError(f"No a {a_id}")
    """
    found = catalog(tmp_path, main, files={"api/errors.py": errors})
    assert responses(found) == {
        ("get", "/a/{a_id}"): [(404, "Resource not found"), (404, "No such a"), (404, "No a {a_id}")]
    }
    assert {error.body_key for error in found.errors} == {"error.message"}
    fragment = error_fragment(found, Notes("data/api.notes.yaml"))
    response: Any = fragment["paths"]["/a/{a_id}"]["get"]["responses"]["404"]  # type: ignore[index,call-overload]
    content = response["content"]["application/json"]
    assert content["schema"] == {
        "type": "object",
        "required": ["error"],
        "properties": {"error": {"type": "object", "required": ["message"], "properties": {"message": {}}}},
    }
    examples = [example["value"] for example in content["examples"].values()]
    assert examples[0] == {"error": {"message": "Resource not found"}}


def test_a_dependency_that_is_an_instance_runs_its_call_method(tmp_path: Path) -> None:
    main = """\
    from typing import Annotated

    from fastapi import Depends, FastAPI, HTTPException

    app = FastAPI()


    class RoleChecker:
        def __init__(self, role: str) -> None:
            self.role = role

        def __call__(self) -> None:
            raise HTTPException(403, f"Role {self.role} required")


    CurrentAdmin = Annotated[None, Depends(RoleChecker("admin"))]


    @app.get("/users")
    def users(_: CurrentAdmin): ...
    """
    assert responses(catalog(tmp_path, main)) == {("get", "/users"): [(403, "Role {self.role} required")]}


def test_a_security_scheme_answers_its_401_as_the_installed_fastapi_does(tmp_path: Path) -> None:
    deps = """\
    from typing import Annotated

    from fastapi import Depends
    from fastapi.security import APIKeyHeader, OAuth2PasswordBearer

    oauth2_scheme = OAuth2PasswordBearer(tokenUrl="/login")
    optional_key = APIKeyHeader(name="X-Key", auto_error=False)
    TokenDep = Annotated[str, Depends(oauth2_scheme)]
    """
    main = """\
    from typing import Annotated

    from fastapi import Depends, FastAPI

    from api.deps import TokenDep, optional_key

    app = FastAPI()


    @app.get("/me")
    def me(token: TokenDep): ...


    @app.get("/maybe")
    def maybe(key: Annotated[str | None, Depends(optional_key)]): ...
    """
    found = catalog(tmp_path, main, files={"api/deps.py": deps})
    assert responses(found) == {("get", "/maybe"): [], ("get", "/me"): [(401, "Not authenticated")]}
    (error,) = found.errors
    assert (error.exception, error.function, error.file) == (
        "OAuth2PasswordBearer",
        "api.deps.oauth2_scheme",
        "api/deps.py",
    )


def test_one_status_with_two_body_shapes_is_either_in_the_fragment() -> None:
    from docgen.core.models import Operation, RouteError, RoutesCatalog

    errors = (
        RouteError("401-a", 401, "Not authenticated", "OAuth2PasswordBearer", "deps.scheme", "deps.py"),
        RouteError(
            "401-b", 401, "Bad token", "AuthError", "deps.user", "deps.py", "main.handler", "error.message"
        ),
    )
    via = (("401-a", ("me",)), ("401-b", ("me",)))
    operation = Operation("get", "/me", "main.me", "main.py", (), via)
    fragment: Any = error_fragment(
        RoutesCatalog("api", "fastapi", (422,), (), errors, (operation,)), Notes("n")
    )
    content = fragment["paths"]["/me"]["get"]["responses"]["401"]["content"]["application/json"]
    detail = {"type": "object", "required": ["detail"], "properties": {"detail": {}}}
    nested = {"type": "object", "required": ["message"], "properties": {"message": {}}}
    assert content["schema"] == {
        "oneOf": [detail, {"type": "object", "required": ["error"], "properties": {"error": nested}}]
    }
    assert [example["value"] for example in content["examples"].values()] == [
        {"detail": "Not authenticated"},
        {"error": {"message": "Bad token"}},
    ]
    validate(fragment)


def test_routers_in_a_folder_without_init_are_read_as_python_imports_them(tmp_path: Path) -> None:
    items = """\
    from fastapi import APIRouter, HTTPException

    from api.services.stock import take

    router = APIRouter(prefix="/items")


    @router.post("/{item_id}/buy")
    def buy(item_id: int):
        take(item_id)
    """
    stock = """\
    from fastapi import HTTPException


    def take(item_id):
        raise HTTPException(409, "Out of stock")
    """
    main = """\
    from fastapi import FastAPI

    from api.routes import items

    app = FastAPI()
    app.include_router(items.router)
    """
    files = {"api/routes/items.py": items, "api/services/stock.py": stock}  # no __init__.py in either folder
    found = catalog(tmp_path, main, files=files)
    assert responses(found) == {("post", "/items/{item_id}/buy"): [(409, "Out of stock")]}
