"""aiohttp patterns met in real applications that the style tests did not cover, each in a small program
written here, its routes held against the router aiohttp builds from it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from docgen.shell.cli import main
from tests.extract.test_aiohttp_styles import catalog, errors_by_operation

LOCAL_PREFIXES = """\
from aiohttp import web


class Provisioning:
    def __init__(self, mount):
        self.app = web.Application()
        portal_prefix = "/v1/portal/{mxid}"
        user_prefix = f"/v1/user/{{mxid}}"
        self.app.router.add_route("GET", f"{portal_prefix}", self.portal)
        self.app.router.add_route("POST", portal_prefix + "/create", self.portal)
        self.app.router.add_route("GET", f"{user_prefix}/chats/{{chat}}", self.chats)
        self.app.router.add_route("GET", f"{mount}/health", self.portal)

    async def portal(self, request):
        return web.json_response({"error": "No such portal"}, status=404)

    async def chats(self, request):
        return web.json_response({})
"""


def test_paths_built_from_locals_of_the_function_that_routes_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A local bound once stands for its value; a parameter stays in braces, told at its place, and the
    fragment leaves that operation out rather than make up a path parameter."""
    found = catalog(tmp_path, {"app/main.py": LOCAL_PREFIXES})
    paths = [(o.method, o.path, [u.expression for u in o.unresolved]) for o in found.operations]
    assert paths == [
        ("get", "/v1/portal/{mxid}", []),
        ("post", "/v1/portal/{mxid}/create", []),
        ("get", "/v1/user/{mxid}/chats/{chat}", []),
        ("get", "{mount}/health", ["mount"]),
    ]
    namespace: dict[str, object] = {}
    exec(compile(LOCAL_PREFIXES, "app/main.py", "exec"), namespace)  # the test may run the program
    server = namespace["Provisioning"]("/m")  # type: ignore[operator]
    served = [
        (r.method.lower(), r.resource.canonical) for r in server.app.router.routes() if r.method != "HEAD"
    ]
    assert served[:3] == [(method, path) for method, path, _ in paths[:3]]
    assert isinstance(server.app, web.Application)
    assert main(["--config", str(tmp_path / "mkdocs.yml"), "extract"]) == 0
    told = [line for line in capsys.readouterr().err.splitlines() if line.startswith("app/main.py:12: ")]
    assert len(told) == 1 and "`mount`, which cannot be read statically" in told[0]
    fragment = json.loads((tmp_path / "data" / "api.openapi.json").read_text(encoding="utf-8"))
    assert sorted(fragment["paths"]) == ["/v1/portal/{mxid}", "/v1/portal/{mxid}/create"]


ERROR_HELPERS = """\
from aiohttp import web


class Api:
    def __init__(self):
        self.app = web.Application()
        self.app.router.add_route("GET", "/portal/{mxid}", self.portal)
        self.app.router.add_route("POST", "/login", self.login)
        self.app.router.add_route("POST", "/sync/{mode}", self.sync)

    @staticmethod
    def error_response(status=200, errcode="", error=""):
        return web.json_response({"error": error, "errcode": errcode}, status=status)

    def login_response(self, status=200, username="", error="", errcode=""):
        if username:
            resp = {"state": "logged-in", "username": username}
        else:
            resp = {"error": error, "errcode": errcode}
        return web.json_response(resp, status=status)

    async def portal(self, request):
        if request.match_info["mxid"] == "none":
            return self.error_response(404, "portal_not_found", "Portal not found.")
        return self.error_response(error="Not yours.", errcode="forbidden", status=403)

    async def login(self, request):
        if "user" not in request.query:
            return self.login_response(error="User ID not given.", errcode="mxid_empty", status=400)
        return self.login_response(username=request.query["user"])

    async def sync(self, request):
        sync = request.match_info["mode"] == "now"
        return web.json_response({}, status=200 if sync else 202)
"""


def test_a_helper_that_builds_the_response_is_read_with_the_values_each_call_gives(tmp_path: Path) -> None:
    """Each call of a helper gives its own status, message and key, placed at the call; a branch the
    values decide is the one taken; a call that answers a success makes no error."""
    found = catalog(tmp_path, {"app/main.py": ERROR_HELPERS})
    assert errors_by_operation(found) == {
        ("get", "/portal/{mxid}"): [(404, "Portal not found.", "error"), (403, "Not yours.", "error")],
        ("post", "/login"): [(400, "User ID not given.", "error")],
        ("post", "/sync/{mode}"): [],
    }
    placed = sorted((e.function, e.file) for e in found.errors)
    assert placed == [("app.main.Api.login", "app/main.py"), *[("app.main.Api.portal", "app/main.py")] * 2]
    namespace: dict[str, object] = {}
    exec(compile(ERROR_HELPERS, "app/main.py", "exec"), namespace)  # the test may run the program
    answers = asyncio.run(_answers(namespace["Api"]().app))  # type: ignore[operator]
    assert answers == [
        (404, {"error": "Portal not found.", "errcode": "portal_not_found"}),
        (403, {"error": "Not yours.", "errcode": "forbidden"}),
        (400, {"error": "User ID not given.", "errcode": "mxid_empty"}),
        (200, {"state": "logged-in", "username": "u"}),
        (202, {}),
    ]


async def _answers(app: web.Application) -> list[tuple[int, object]]:
    async with TestClient(TestServer(app)) as client:
        found = []
        for method, path in [("GET", "/portal/none"), ("GET", "/portal/x"), ("POST", "/login")]:
            answer = await client.request(method, path)
            found.append((answer.status, await answer.json()))
        for method, path in [("POST", "/login?user=u"), ("POST", "/sync/later")]:
            answer = await client.request(method, path)
            found.append((answer.status, await answer.json()))
        return found


CHECKS_AND_TUPLES = """\
from aiohttp import web

routes = web.RouteTableDef()


def find_user(request, must_exist=True, require_name=True):
    name = request.query.get("as", request.match_info["name"])
    if not name:
        if not require_name:
            return None, None
        return None, web.json_response({"error": "No name given."}, status=400)
    if must_exist and name.startswith("x"):
        return None, web.json_response({"error": "No such user."}, status=404)
    if name.startswith("-"):
        return None, web.json_response({"error": "Bad name."}, status=400)
    return name, None


@routes.get("/users/{name}")
async def read_user(request):
    user, err = find_user(request)
    if err is not None:
        return err
    return web.json_response({"name": user})


@routes.put("/users/{name}")
async def put_user(request):
    user, err = find_user(request, must_exist=False, require_name=False)
    if err is not None:
        return err
    return web.json_response({"name": user})


app = web.Application()
app.add_routes(routes)
"""


def test_a_check_a_call_turns_off_and_responses_returned_in_a_tuple(tmp_path: Path) -> None:
    """A response a helper returns beside its other results is one; a branch a constant argument turns
    off (`must_exist=False`) answers nothing for that call."""
    found = catalog(tmp_path, {"app/main.py": CHECKS_AND_TUPLES})
    assert errors_by_operation(found) == {
        ("get", "/users/{name}"): [
            (400, "No name given.", "error"),
            (404, "No such user.", "error"),
            (400, "Bad name.", "error"),
        ],
        ("put", "/users/{name}"): [(400, "Bad name.", "error")],
    }
    namespace: dict[str, object] = {}
    exec(compile(CHECKS_AND_TUPLES, "app/main.py", "exec"), namespace)  # the test may run the program
    app = namespace["app"]
    assert isinstance(app, web.Application)
    answers = asyncio.run(_sent(app, [("GET", "/users/xo"), ("GET", "/users/-a"), ("PUT", "/users/xo")]))
    assert answers == [
        (404, {"error": "No such user."}),
        (400, {"error": "Bad name."}),
        (200, {"name": "xo"}),
    ]


async def _sent(app: web.Application, requests: list[tuple[str, str]]) -> list[tuple[int, object]]:
    async with TestClient(TestServer(app)) as client:
        found = []
        for method, path in requests:
            answer = await client.request(method, path)
            found.append((answer.status, await answer.json()))
        return found


MIXIN = """\
from aiohttp import web


class ServerMixin:
    def register_routes(self, app):
        app.router.add_route("GET", "/users/{user_id}", self._query_user)

    async def _query_user(self, request):
        if "token" not in request.query:
            return web.json_response({"error": "Invalid auth token"}, status=401)
        return web.json_response({})
"""

SERVER = """\
from aiohttp import web

from app.mixin import ServerMixin


class AppService(ServerMixin):
    def __init__(self):
        self.live = True
        self.app = web.Application()
        self.app.router.add_route("GET", "/live", self._live)
        self.register_routes(self.app)

    async def _live(self, request):
        return web.Response(status=200 if self.live else 500, text="{}")
"""


def test_routes_a_method_of_a_mixin_adds_to_the_application_of_self(tmp_path: Path) -> None:
    """`self.register_routes(self.app)`, a method the server class inherits from a mixin of another module,
    reads with its parameter standing for the application; `200 if ok else 500` may answer the 500."""
    found = catalog(tmp_path, {"app/mixin.py": MIXIN, "app/main.py": SERVER})
    assert errors_by_operation(found) == {
        ("get", "/live"): [(500, "{}", "")],
        ("get", "/users/{user_id}"): [(401, "Invalid auth token", "error")],
    }
    mixin: dict[str, object] = {}
    exec(compile(MIXIN, "app/mixin.py", "exec"), mixin)  # the test may run the program
    routes = web.Application()
    mixin["ServerMixin"]().register_routes(routes)  # type: ignore[operator]
    assert [r.resource.canonical for r in routes.router.routes() if r.method == "GET"] == ["/users/{user_id}"]


def test_an_empty_json_object_is_an_error_without_a_message(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        {
            "app/main.py": """\
                from aiohttp import web

                async def user(request):
                    return web.json_response({}, status=404)

                app = web.Application()
                app.router.add_get("/users/{name}", user)
                """
        },
    )
    assert [(e.status, e.detail) for e in found.errors] == [(404, "")]


BASE_API = """\
from aiohttp import web


class AuthApi:
    def login_response(self, status=200, error=""):
        raise NotImplementedError()

    async def login_phone(self, phone):
        if not phone:
            return self.login_response(status=400, error="Phone number not given.")
        return self.login_response(status=200)
"""

PROVISIONING = """\
from aiohttp import web

from app.base import AuthApi


class Provisioning(AuthApi):
    def __init__(self):
        self.app = web.Application()
        self.app.router.add_post("/login/phone", self.request_code)

    def login_response(self, status=200, error=""):
        return web.json_response({"error": error}, status=status)

    async def request_code(self, request):
        return await self.login_phone(request.query.get("phone", ""))
"""


def test_a_base_class_method_calls_the_override_of_the_class_that_routes(tmp_path: Path) -> None:
    """`self.login_response(...)` in a method the handler's class inherits is the handler's class's own."""
    found = catalog(tmp_path, {"app/base.py": BASE_API, "app/main.py": PROVISIONING})
    assert errors_by_operation(found) == {
        ("post", "/login/phone"): [(400, "Phone number not given.", "error")]
    }
    base: dict[str, object] = {}
    exec(compile(BASE_API, "app/base.py", "exec"), base)  # the test may run the program
    namespace: dict[str, object] = {"AuthApi": base["AuthApi"]}
    exec(compile(PROVISIONING.replace("from app.base import AuthApi", ""), "app/main.py", "exec"), namespace)
    app = namespace["Provisioning"]().app  # type: ignore[operator]
    assert asyncio.run(_sent(app, [("POST", "/login/phone")])) == [
        (400, {"error": "Phone number not given."})
    ]


def test_a_page_rendered_from_a_template_is_no_json_object(tmp_path: Path) -> None:
    """`text=page.render(state="", error="...")` is an HTML page known when it runs: a template of the
    call, not the first keyword read as a key with an empty message."""
    found = catalog(
        tmp_path,
        {
            "app/main.py": """\
                from aiohttp import web
                from jinja2 import Template

                PAGE = Template("<p>{{ error }}</p>")

                async def login(request):
                    return web.Response(
                        status=403, content_type="text/html", text=PAGE.render(state="", error="No.")
                    )

                app = web.Application()
                app.router.add_post("/login", login)
                """
        },
    )
    assert [(e.status, e.detail, e.body_key) for e in found.errors] == [
        (403, "{PAGE.render(state='', error='No.')}", "")
    ]


THROWN_AWAY = """\
from aiohttp import web

routes = web.RouteTableDef()


def lookup(request):
    if "user" not in request.query:
        return None, web.json_response({"error": "No user given."}, status=400)
    return request.query["user"], None


def audit(request):
    return web.json_response({"error": "Not audited."}, status=500)


@routes.get("/portal")
async def portal(request):
    user, _ = lookup(request)
    audit(request)
    return web.json_response({"user": user})


@routes.get("/user")
async def user(request):
    user, err = lookup(request)
    if err is not None:
        return err
    return web.json_response({"user": user})


app = web.Application()
app.add_routes(routes)
"""


def test_a_response_a_caller_throws_away_is_not_an_error(tmp_path: Path) -> None:
    """`user, _ = lookup(request)` keeps the user and drops the response; a helper called as a statement
    of its own sends nothing of what it returns."""
    found = catalog(tmp_path, {"app/main.py": THROWN_AWAY})
    assert errors_by_operation(found) == {
        ("get", "/portal"): [],
        ("get", "/user"): [(400, "No user given.", "error")],
    }
    namespace: dict[str, object] = {}
    exec(compile(THROWN_AWAY, "app/main.py", "exec"), namespace)  # the test may run the program
    app = namespace["app"]
    assert isinstance(app, web.Application)
    answers = asyncio.run(_sent(app, [("GET", "/portal"), ("GET", "/user")]))
    assert answers == [(200, {"user": None}), (400, {"error": "No user given."})]


def test_a_route_list_held_in_a_local_of_the_method_that_makes_the_application(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        {
            "app/main.py": """\
                from aiohttp import web

                class Server:
                    async def make_app(self):
                        app = web.Application()
                        ROUTES = [
                            web.get("/download/{key}", self.download),
                            web.static("/static", "static"),
                        ]
                        app.add_routes(ROUTES)
                        return app

                    async def download(self, request):
                        raise web.HTTPNotFound(text="No such download")
                """
        },
    )
    assert errors_by_operation(found) == {("get", "/download/{key}"): [(404, "No such download", "")]}
