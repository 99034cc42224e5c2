"""A Litestar application that mounts a library's controller (a package of its own, whose `__init__`
re-exports it, imported by the application module) guarded by instances of a guard class, as plugin
libraries ship them: the controller's routes are read from the library, and a guard made by a class, or
returned by a factory, runs its `__call__`. Checked against the application run in Litestar's test
client."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from litestar.testing import TestClient

from docgen.kinds.routes.catalog import RoutesExtraction
from tests.extract.test_litestar_styles import catalog, responses
from tests.helpers import run_extract_in_memory

MAIN = """\
from litestar import Litestar

from flagslib import FlagsController

app = Litestar(route_handlers=[FlagsController])
"""
GUARDS = """\
from litestar.exceptions import NotAuthorizedException, PermissionDeniedException


class PermissionGuard:
    def __init__(self, *permissions: str) -> None:
        self.permissions = permissions

    async def __call__(self, connection, _) -> None:
        granted = connection.headers.get("x-permissions")
        if granted is None:
            raise NotAuthorizedException(detail="Authentication required")
        if not set(self.permissions) <= set(granted.split(",")):
            raise PermissionDeniedException(detail="Missing required permissions")


def require_permission(*permissions: str) -> PermissionGuard:
    return PermissionGuard(*permissions)
"""
CONTROLLERS = """\
from typing import ClassVar

from litestar import Controller, delete, get
from litestar.exceptions import NotFoundException

from flagslib.guards import PermissionGuard, require_permission

FLAGS = {"beta": True}


class FlagsController(Controller):
    path: ClassVar[str] = "/admin/flags"

    @get("/{key:str}", guards=[require_permission("flags:read")])
    async def read_flag(self, key: str) -> dict[str, bool]:
        if key not in FLAGS:
            raise NotFoundException(detail="No such flag")
        return {key: FLAGS[key]}

    @delete("/{key:str}", guards=[PermissionGuard("flags:delete")])
    async def drop_flag(self, key: str) -> None:
        FLAGS.pop(key, None)
"""
GUARDED = [(401, "Authentication required"), (403, "Missing required permissions")]


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Path]:
    sys.path.insert(0, str(tmp_path))
    yield tmp_path
    sys.path.remove(str(tmp_path))
    for name in [name for name in sys.modules if name.split(".")[0] in {"api", "flagslib"}]:
        del sys.modules[name]


def test_a_library_controller_and_its_guard_instances(project: Path) -> None:
    files = {
        # re-exported by the package, as libraries do: the name is followed to the module defining it
        "flagslib/__init__.py": "from flagslib.controllers import FlagsController\n",
        "flagslib/guards.py": GUARDS,
        "flagslib/controllers.py": CONTROLLERS,
    }
    found = responses(catalog(project, MAIN, files=files))
    assert found == {
        ("get", "/admin/flags/{key}"): [*GUARDED, (404, "No such flag")],
        ("delete", "/admin/flags/{key}"): GUARDED,
    }
    app = importlib.import_module("api.main").app
    with TestClient(app) as client:
        for method, status, detail, headers in [
            ("get", 401, "Authentication required", {}),
            ("get", 403, "Missing required permissions", {"x-permissions": "other"}),
            ("get", 404, "No such flag", {"x-permissions": "flags:read"}),
            ("delete", 401, "Authentication required", {}),
            ("delete", 403, "Missing required permissions", {"x-permissions": "flags:read"}),
        ]:
            got = client.request(method, "/admin/flags/nope", headers=headers)
            assert (got.status_code, got.json()["detail"]) == (status, detail)


PLUGIN = """\
from litestar.config.app import AppConfig
from litestar.plugins import InitPluginProtocol

from api.settings import AdminConfig


class AdminPlugin(InitPluginProtocol):
    def __init__(self, config: AdminConfig) -> None:
        self._config = config

    def on_app_init(self, app_config: AppConfig) -> AppConfig:
        app_config.route_handlers = [*list(app_config.route_handlers or []), self._get_api_router()]
        return app_config

    def _get_api_router(self):
        from litestar import Router

        from api.views import AuthController

        return Router(path=self._config.base_url, route_handlers=[AuthController])
"""
VIEWS = """\
from litestar import Controller, post
from litestar.exceptions import NotAuthorizedException


class AuthController(Controller):
    path = "/api/auth"

    @post("/login")
    async def login(self) -> None:
        raise NotAuthorizedException(detail="Invalid credentials")
"""
STATED = """\
          run_time_values:
            - expression: self._config.base_url
              value: /admin
"""


def test_a_router_a_plugin_returns_under_a_prefix_known_at_run_time(tmp_path: Path) -> None:
    files = {
        "api/settings.py": "class AdminConfig:\n    base_url: str\n",
        "api/views.py": VIEWS,
    }
    found = responses(catalog(tmp_path, PLUGIN, files=files))
    # the prefix is kept as written, never a path parameter of the OpenAPI fragment, and located
    assert found == {("post", "/{self._config.base_url}/api/auth/login"): [(401, "Invalid credentials")]}
    extraction = run_extract_in_memory(tmp_path).results["api"]
    assert isinstance(extraction, RoutesExtraction)
    assert [(expression, file, line) for _m, _p, expression, _r, file, line in extraction.unread] == [
        ("self._config.base_url", "api/main.py", 20)
    ]
    stated = responses(catalog(tmp_path, PLUGIN, extra=STATED, files=files))
    assert stated == {("post", "/admin/api/auth/login"): [(401, "Invalid credentials")]}


APPENDING_PLUGIN = """\
from litestar import Router
from litestar.config.app import AppConfig
from litestar.plugins import InitPluginProtocol

from api.views import AuthController


class WorkflowPlugin(InitPluginProtocol):
    def __init__(self, config) -> None:
        self._config = config

    def on_app_init(self, app_config: AppConfig) -> AppConfig:
        controllers = [AuthController]
        workflow_router = Router(path=self._config.api_path_prefix, route_handlers=controllers)
        app_config.route_handlers.append(workflow_router)
        return app_config
"""


def test_a_router_a_plugin_builds_in_a_local_and_appends(tmp_path: Path) -> None:
    found = responses(catalog(tmp_path, APPENDING_PLUGIN, files={"api/views.py": VIEWS}))
    assert found == {
        ("post", "/{self._config.api_path_prefix}/api/auth/login"): [(401, "Invalid credentials")]
    }


STATUS_HANDLED = """\
from litestar import Litestar, Request, Response, get
from litestar.exceptions import HTTPException


def not_found(request: Request, exc: HTTPException) -> Response:
    return Response({"error": "Nothing here."}, status_code=404)


@get("/pages/{slug:str}")
async def page(slug: str) -> dict[str, str]:
    raise HTTPException(status_code=404, detail=f"No page {slug}")


app = Litestar(route_handlers=[page], exception_handlers={404: not_found})
"""


def test_a_handler_registered_for_a_status_answers_a_raise_with_that_status(project: Path) -> None:
    found = responses(catalog(project, STATUS_HANDLED))
    assert found == {("get", "/pages/{slug}"): [(404, "Nothing here.")]}
    app = importlib.import_module("api.main").app
    with TestClient(app) as client:
        got = client.get("/pages/home")
        assert (got.status_code, got.json()) == (404, {"error": "Nothing here."})
