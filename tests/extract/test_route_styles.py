"""Route and error styles of FastAPI applications, each in a small application written here: how routes
are declared and mounted, how dependencies are given, and how errors are raised and converted."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen.core.errors import ConfigError
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
          framework: fastapi
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


def test_routes_declared_every_way_with_their_prefixes(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from fastapi import APIRouter, FastAPI

        inner = APIRouter(prefix="/inner")
        outer = APIRouter()
        app = FastAPI()
        PREFIX = "/api"

        @inner.api_route("/both", methods=["GET", "POST"])
        def both(): ...

        def listed(): ...

        @outer.delete("/files/{path:path}")
        def remove(path: str): ...

        @app.get("/", include_in_schema=False)
        def hidden(): ...

        @app.get("/")
        def root(): ...

        inner.add_api_route("/added", listed, methods=["PUT"])
        outer.include_router(inner, prefix="/v1")
        app.include_router(outer, prefix=PREFIX)
        """,
    )
    assert [(o.method, o.path, o.function) for o in found.operations] == [
        ("get", "/", "api.main.root"),
        ("delete", "/api/files/{path}", "api.main.remove"),
        ("put", "/api/v1/inner/added", "api.main.listed"),
        ("get", "/api/v1/inner/both", "api.main.both"),
        ("post", "/api/v1/inner/both", "api.main.both"),
    ]


def test_an_application_built_by_a_function_and_a_mounted_one_named_by_app(tmp_path: Path) -> None:
    main = """\
        from fastapi import FastAPI

        other = FastAPI()

        @other.get("/inside")
        def inside(): ...

        def build():
            application = FastAPI()
            application.mount("/other", other)

            @application.get("/nested")
            def nested(): ...  # a route the factory declares inside itself

            return application

        app = build()

        @app.get("/top")
        def top(): ...
        """
    assert [o.path for o in catalog(tmp_path / "a", main).operations] == ["/nested", "/top"]
    assert [
        o.path for o in catalog(tmp_path / "b", main, extra="          app: api.main.other\n").operations
    ] == ["/inside"]
    with pytest.raises(ConfigError, match=r"no FastAPI application 'api\.main\.othr'") as caught:
        catalog(tmp_path / "c", main, extra="          app: api.main.othr\n")
    assert caught.value.hint == "did you mean 'api.main.other'?"


def test_an_app_a_class_builds_with_routers_from_factories_and_a_helper_method(tmp_path: Path) -> None:
    """As real servers write it: the application made in a method, handed to another method that includes
    routers, each router made and routed inside a factory function of another module."""
    files = {
        "api/items.py": """\
            from fastapi import APIRouter, HTTPException

            def make_items_router(store):
                router = APIRouter()

                @router.get("/items/{item_id}")
                def read(item_id: int):
                    raise HTTPException(404, "No such item")

                return router
            """,
    }
    main = """\
        from fastapi import APIRouter, FastAPI

        from api.items import make_items_router

        def make_admin_router():
            admin = APIRouter(prefix="/admin")

            @admin.post("/reset")
            def reset():
                ...

            return admin

        class Server:
            def __init__(self):
                self.app = self._build()

            def _build(self):
                app = FastAPI()
                self._configure(app)
                return app

            def _configure(self, app: FastAPI):
                items = make_items_router(store=None)
                app.include_router(items, prefix="/v1")
                app.include_router(make_admin_router())
        """
    found = catalog(tmp_path, main, files=files)
    assert [(o.method, o.path) for o in found.operations] == [
        ("post", "/admin/reset"),
        ("get", "/v1/items/{item_id}"),
    ]
    assert responses(found)[("get", "/v1/items/{item_id}")] == [(404, "No such item")]


def test_routers_included_by_the_lifespan_through_helpers(tmp_path: Path) -> None:
    # lnbits: `FastAPI(lifespan=lifespan)`; the lifespan awaits `startup(app)`, which calls
    # `init_core_routers(app)` in another module, which includes every router.
    found = catalog(
        tmp_path,
        """\
        from contextlib import asynccontextmanager

        from fastapi import FastAPI, HTTPException
        from api.core import init_core_routers

        async def startup(app: FastAPI):
            init_core_routers(app)

        @asynccontextmanager
        async def lifespan(app: FastAPI):
            await startup(app)
            yield

        def create_app() -> FastAPI:
            app = FastAPI(lifespan=lifespan)
            return app
        """,
        files={
            "api/core.py": """\
            from fastapi import APIRouter, FastAPI, HTTPException

            wallets = APIRouter(prefix="/api/v1/wallet")

            @wallets.get("/{wallet_id}")
            def wallet(wallet_id: str):
                raise HTTPException(404, "Wallet not found.")

            def init_core_routers(app: FastAPI):
                app.include_router(wallets)
            """
        },
    )
    assert responses(found) == {("get", "/api/v1/wallet/{wallet_id}"): [(404, "Wallet not found.")]}


def test_a_router_subclass_imported_inside_the_function_that_includes_it(tmp_path: Path) -> None:
    # airflow: `public_router = AirflowRouter(prefix="/api/v2")` (AirflowRouter extends APIRouter),
    # included by `init_views(app)`, which imports it in its own body.
    found = catalog(
        tmp_path,
        """\
        from fastapi import FastAPI
        from api.views import init_views

        def create_app() -> FastAPI:
            app = FastAPI()
            init_views(app)
            return app
        """,
        files={
            "api/views.py": """\
            from fastapi import FastAPI

            def init_views(app: FastAPI) -> None:
                from api.routes import public_router

                app.include_router(public_router)
            """,
            "api/router.py": """\
            from fastapi import APIRouter

            class AirflowRouter(APIRouter):
                pass
            """,
            "api/routes.py": """\
            from fastapi import HTTPException
            from api.router import AirflowRouter

            public_router = AirflowRouter(prefix="/api/v2")

            @public_router.delete("/connections/{connection_id}")
            def delete_connection(connection_id: str):
                raise HTTPException(404, f"No connection `{connection_id}`")
            """,
        },
    )
    assert responses(found) == {
        ("delete", "/api/v2/connections/{connection_id}"): [(404, "No connection `{connection_id}`")]
    }


def test_dependencies_in_parameters_decorators_routers_and_factories(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from typing import Annotated
        from fastapi import APIRouter, Depends, FastAPI, HTTPException, Security

        def token():
            raise HTTPException(401, "no token")

        def scoped(user=Security(token)):
            raise HTTPException(403, "out of scope")

        def needs(role):
            def check(user=Depends(token)):
                raise HTTPException(403, f"needs {role}")
            return check

        router = APIRouter(dependencies=[Depends(needs("admin"))])
        app = FastAPI()

        @router.get("/admin")
        def admin(): ...

        @app.get("/mine")
        def mine(user: Annotated[str, Depends(scoped)]): ...

        app.include_router(router)
        """,
    )
    assert responses(found) == {
        ("get", "/admin"): [(401, "no token"), (403, "needs {role}")],
        ("get", "/mine"): [(401, "no token"), (403, "out of scope")],
    }
    admin = next(o for o in found.operations if o.path == "/admin")
    assert admin.dependencies == ("api.main.needs.check",)


def test_exception_classes_statuses_and_details(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from http import HTTPStatus
        from fastapi import FastAPI, HTTPException, status
        from starlette.exceptions import HTTPException as StarletteHTTPException

        class Gone(HTTPException):
            pass

        class Coded(HTTPException):
            def __init__(self, code, what):
                super().__init__(status_code=code, detail=f"bad {what}")

        app = FastAPI()

        @app.get("/a")
        def a(x: int):
            if x == 1:
                raise Gone(410, "gone for good")
            if x == 2:
                raise Coded(status.HTTP_422_UNPROCESSABLE_ENTITY, "input")
            if x == 3:
                raise StarletteHTTPException(status_code=HTTPStatus.NOT_FOUND)
            refusal = HTTPException(status.HTTP_429_TOO_MANY_REQUESTS, detail="slow down")
            if x == 4:
                raise refusal
            raise ValueError("not an HTTP error, and no handler")
        """,
    )
    assert responses(found) == {
        ("get", "/a"): [(410, "gone for good"), (422, "bad {what}"), (404, "Not Found"), (429, "slow down")]
    }


def test_exception_handlers_decide_status_and_body(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from fastapi import FastAPI, HTTPException, status
        from fastapi.responses import JSONResponse

        class DomainError(Exception): ...
        class Missing(DomainError): ...
        class Busy(DomainError): ...

        app = FastAPI()

        @app.exception_handler(DomainError)
        async def domain(request, exc):
            return JSONResponse(status_code=status.HTTP_409_CONFLICT, content={"message": str(exc)})

        @app.exception_handler(Missing)
        async def missing(request, exc):
            return JSONResponse(status_code=404, content={"message": str(exc)})

        @app.exception_handler(HTTPException)
        async def http(request, exc):
            return JSONResponse(status_code=exc.status_code, content={"message": exc.detail})

        @app.get("/b")
        def b(x: int):
            if x == 1:
                raise Missing(f"no {x}")
            if x == 2:
                raise Busy("try later")
            raise HTTPException(400, "bad x")
        """,
    )
    errors = {(e.status, e.detail): (e.handler, e.body_key) for e in found.errors}
    assert errors == {
        (404, "no {x}"): ("api.main.missing", "message"),
        (409, "try later"): ("api.main.domain", "message"),
        (400, "bad x"): ("api.main.http", "message"),
    }


def test_helpers_in_other_modules_and_a_bounded_walk_of_recursion(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from fastapi import FastAPI
        from api import checks

        app = FastAPI()

        @app.get("/c")
        def c(n: int):
            return checks.first(n)
        """,
        files={
            "api/checks.py": """\
            from fastapi import HTTPException

            def first(n):
                if n > 9:
                    raise HTTPException(413, "too many")
                return second(n)

            def second(n):
                if n < 0:
                    raise HTTPException(400, "negative")
                return first(n - 1)
            """
        },
    )
    assert responses(found) == {("get", "/c"): [(413, "too many"), (400, "negative")]}
    operation = found.operations[0]
    assert [via for _, via in operation.errors] == [
        ("api.main.c", "api.checks.first"),
        ("api.main.c", "api.checks.first", "api.checks.second"),
    ]


def test_methods_of_new_local_and_module_level_instances_are_followed(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from fastapi import FastAPI
        from api.service import SHARED, Inventory, make_inventory

        app = FastAPI()

        @app.get("/new")
        def new(n: int):
            return Inventory().take(n)

        @app.get("/local")
        def local(n: int):
            stock = Inventory()
            return stock.count(n)

        @app.get("/unknown")
        def unknown(n: int):
            stock = make_inventory()
            return stock.take(n)

        @app.get("/shared")
        def shared(n: int):
            return SHARED.take(n)
        """,
        files={
            "api/service.py": """\
            from fastapi import HTTPException

            class Base:
                def count(self, n):
                    if n < 0:
                        raise HTTPException(400, "negative")
                    return n

            class Inventory(Base):
                def take(self, n):
                    if n > 9:
                        raise HTTPException(409, "not enough")
                    return n

            def make_inventory():
                return Inventory()

            SHARED = Inventory()
            """
        },
    )
    assert responses(found) == {
        ("get", "/new"): [(409, "not enough")],
        ("get", "/local"): [(400, "negative")],
        ("get", "/unknown"): [],  # made by a function: its class is not known statically
        ("get", "/shared"): [(409, "not enough")],  # a module-level instance, imported
    }
    assert sorted(via for o in found.operations for _, via in o.errors) == [
        ("api.main.local", "api.service.Base.count"),
        ("api.main.new", "api.service.Inventory.take"),
        ("api.main.shared", "api.service.Inventory.take"),
    ]


def test_an_instance_called_runs_its_class_s_call_method(tmp_path: Path) -> None:
    # lnbits' `require_admin_key`: `check: KeyChecker = KeyChecker(...)`, then `await check(request)`.
    found = catalog(
        tmp_path,
        """\
        from fastapi import Depends, FastAPI
        from api.keys import CHECKER, KeyChecker

        app = FastAPI()

        async def require_key(key: str = ""):
            check: KeyChecker = KeyChecker(key)
            return await check(key)

        @app.get("/local", dependencies=[Depends(require_key)])
        def local():
            return {}

        @app.get("/shared")
        async def shared(key: str):
            return await CHECKER(key)

        @app.get("/made")
        async def made(key: str):
            return await KeyChecker(key)(key)

        @app.get("/class")
        def klass(key: str):
            return KeyChecker(key)  # makes an instance: `__call__` does not run
        """,
        files={
            "api/keys.py": """\
            from fastapi import HTTPException

            class Base:
                def __init__(self, key):
                    self.key = key

                async def __call__(self, given):
                    if not given:
                        raise HTTPException(401, "No key provided.")
                    return given

            class KeyChecker(Base):
                pass

            CHECKER = KeyChecker("")
            """
        },
    )
    assert responses(found) == {
        ("get", "/class"): [],
        ("get", "/local"): [(401, "No key provided.")],
        ("get", "/made"): [(401, "No key provided.")],
        ("get", "/shared"): [(401, "No key provided.")],
    }


def test_methods_of_an_injected_service_are_followed_from_its_annotation(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from typing import Annotated

        from fastapi import Depends, FastAPI
        from api.service import Inventory, get_inventory

        app = FastAPI()

        @app.get("/plain")
        def plain(n: int, stock: Inventory = Depends(get_inventory)):
            return stock.take(n)

        @app.get("/annotated")
        def annotated(n: int, stock: Annotated[Inventory, Depends(get_inventory)]):
            return stock.take(n)

        @app.get("/rebound")
        def rebound(n: int, stock: Inventory = Depends(get_inventory)):
            stock = stock.fresh()
            return stock.take(n)
        """,
        files={
            "api/service.py": """\
            from fastapi import HTTPException

            class Inventory:
                def take(self, n):
                    if n > 9:
                        raise HTTPException(409, "not enough")
                    return n

                def fresh(self):
                    return Inventory()

            def get_inventory():
                return Inventory()
            """
        },
    )
    assert responses(found) == {
        ("get", "/plain"): [(409, "not enough")],
        ("get", "/annotated"): [(409, "not enough")],
        ("get", "/rebound"): [],  # bound again in the body: what it holds is not known statically
    }


def test_what_cannot_be_an_http_status_or_method_is_not_taken_for_one(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from fastapi import FastAPI, HTTPException

        app = FastAPI()
        ANSWER = 42

        @app.api_route("/d", methods=["GET", "BREW"])
        def d(code: int):
            if code:
                raise HTTPException(code, "from the client")
            raise HTTPException(ANSWER, "not a status")
        """,
    )
    assert responses(found) == {("get", "/d"): [(None, "from the client"), (None, "not a status")]}


def test_routers_in_submodules_a_package_imports_relatively(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from fastapi import FastAPI
        from api import routes

        app = FastAPI()
        app.include_router(routes.router, prefix="/v2")
        """,
        files={
            "api/routes/__init__.py": """\
            from fastapi import APIRouter
            from . import users

            router = APIRouter()
            router.include_router(users.router, prefix="/users")
            """,
            "api/routes/users.py": """\
            from fastapi import APIRouter, HTTPException

            router = APIRouter()

            @router.get("/{name}")
            def user(name: str):
                raise HTTPException(404, f"no user {name}")
            """,
            "api/unused.py": "this is not Python, and nothing imports it\n",
        },
    )
    assert responses(found) == {("get", "/v2/users/{name}"): [(404, "no user {name}")]}
