"""The ways aiohttp applications declare routes, middlewares and error answers, one small program each, read
by the aiohttp framework without importing anything."""

from __future__ import annotations

import json
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
              source: {source}
              framework: aiohttp
    """


def catalog(root: Path, files: dict[str, str], source: str = "app/main.py") -> RoutesCatalog:
    make_files(root, {"app/__init__.py": "", **files, "mkdocs.yml": MKDOCS.format(source=source)})
    found = run_extract_in_memory(root).catalogs["api"]
    assert isinstance(found, RoutesCatalog)
    return found


def errors_by_operation(found: RoutesCatalog) -> dict[tuple[str, str], list[tuple[int | None, str, str]]]:
    errors = {error.id: error for error in found.errors}
    return {
        (o.method, o.path): [(errors[i].status, errors[i].detail, errors[i].body_key) for i, _via in o.errors]
        for o in found.operations
    }


def test_a_token_middleware_answers_before_every_operation_of_its_application_and_sub_applications(
    tmp_path: Path,
) -> None:
    found = catalog(
        tmp_path,
        {
            "app/main.py": """\
                from aiohttp import web

                @web.middleware
                async def auth(request, handler):
                    if "X-Token" not in request.headers:
                        return web.json_response({"error": "Token missing"}, status=401)
                    return await handler(request)

                async def ping(request):
                    return web.json_response({"pong": True})

                async def health(request):
                    return web.Response(text="ok")

                def make_app():
                    app = web.Application()
                    app.router.add_get("/health", health)
                    api = web.Application()
                    api.middlewares.append(auth)
                    api.router.add_post("/ping", ping)
                    app.add_subapp("/api/", api)
                    return app
                """
        },
    )
    assert errors_by_operation(found) == {
        ("get", "/health"): [],
        ("post", "/api/ping"): [(401, "Token missing", "error")],
    }
    assert [o.dependencies for o in found.operations] == [("app.main.auth",), ()]


def test_responses_built_by_properties_of_a_module_level_object(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        {
            "app/answers.py": """\
                from http import HTTPStatus
                from aiohttp import web

                class _Answers:
                    @property
                    def not_found(self):
                        return web.json_response({"error": "No such job", "errcode": "not_found"},
                                                 status=HTTPStatus.NOT_FOUND)

                    @staticmethod
                    def found(data):
                        return web.json_response(data, status=HTTPStatus.OK)

                answer = _Answers()
                """,
            "app/main.py": """\
                from aiohttp import web
                from app.answers import answer

                routes = web.RouteTableDef()
                JOBS = {}

                @routes.get("/jobs/{job_id}")
                async def job(request):
                    if request.match_info["job_id"] not in JOBS:
                        return answer.not_found
                    return answer.found(JOBS[request.match_info["job_id"]])
                """,
        },
    )
    # No application in the source: the route table nothing adds is read on its own.
    assert errors_by_operation(found) == {("get", "/jobs/{job_id}"): [(404, "No such job", "error")]}
    assert [e.function for e in found.errors] == ["app.answers._Answers.not_found"]


def test_a_middleware_catching_http_exceptions_rewrites_their_body_but_not_redirects(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        {
            "app/main.py": """\
                from aiohttp import web

                @web.middleware
                async def json_errors(request, handler):
                    try:
                        return await handler(request)
                    except web.HTTPException as exc:
                        return web.json_response({"message": exc.text}, status=exc.status)

                class ItemView(web.View):
                    async def get(self):
                        raise web.HTTPNotFound()

                    async def post(self):
                        raise web.HTTPFound("/items")

                    async def delete(self):
                        raise web.HTTPGone(reason="Archived")

                app = web.Application(middlewares=[json_errors])
                app.add_routes([web.view("/items/{item_id:[0-9]+}", ItemView)])
                """
        },
    )
    assert errors_by_operation(found) == {
        ("get", "/items/{item_id}"): [(404, "404: Not Found", "message")],
        ("post", "/items/{item_id}"): [],
        ("delete", "/items/{item_id}"): [(410, "410: Archived", "message")],
    }
    assert {e.handler for e in found.errors} == {"app.main.json_errors"}


def test_decorator_factories_router_aliases_methods_of_objects_and_views_on_every_method(
    tmp_path: Path,
) -> None:
    found = catalog(
        tmp_path,
        {
            "app/main.py": """\
                from aiohttp import hdrs, web

                def require_role(role):
                    def decorator(handler):
                        async def wrapper(request):
                            if request.get("role") != role:
                                raise web.HTTPForbidden(text=f"Only {role} may do this")
                            return await handler(request)
                        return wrapper
                    return decorator

                @require_role("admin")
                async def purge(request):
                    return web.Response(status=204)

                class Pages:
                    async def home(self, request):
                        raise web.HTTPNotFound(text="Nothing here yet")

                class Notes(web.View):
                    async def get(self):
                        return web.json_response([])

                    async def put(self):
                        return web.Response(status=400, text="Notes are read-only")

                def create_app():
                    app = web.Application()
                    router = app.router
                    router.add_route("DELETE", "/cache", purge)
                    router.add_route("*", "/notes", Notes)
                    pages = Pages()
                    router.add_route(hdrs.METH_GET, "/", pages.home)
                    return app

                app = create_app()
                """
        },
    )
    assert errors_by_operation(found) == {
        ("get", "/"): [(404, "Nothing here yet", "")],
        ("delete", "/cache"): [(403, "Only {role} may do this", "")],
        ("get", "/notes"): [],
        ("put", "/notes"): [(400, "Notes are read-only", "")],
    }
    assert found.operations[1].dependencies == ("app.main.require_role.decorator.wrapper",)


def test_app_names_an_application_or_its_factory_and_a_wrong_one_is_refused_with_the_names(
    tmp_path: Path,
) -> None:
    files = {
        "app/main.py": """\
            from aiohttp import web

            async def a(request):
                raise web.HTTPBadRequest()

            def create_app():
                app = web.Application()
                app.router.add_get("/a", a)
                return app

            other = web.Application()
            other.router.add_get("/other", a)
            """
    }
    both = catalog(tmp_path / "both", files)
    assert [o.path for o in both.operations] == ["/a", "/other"]
    root = tmp_path / "one"
    make_files(root, {"app/__init__.py": "", **files})
    config = MKDOCS.format(source="app/main.py").rstrip(" ") + "              app: app.main.create_app\n"
    make_files(root, {"mkdocs.yml": config})
    found = run_extract_in_memory(root).catalogs["api"]
    assert isinstance(found, RoutesCatalog)
    assert [o.path for o in found.operations] == ["/a"]
    make_files(root, {"mkdocs.yml": config.replace("create_app", "create_ap")})
    with pytest.raises(ConfigError, match=r"no aiohttp application 'app\.main\.create_ap'") as refused:
        run_extract_in_memory(root)
    assert "app.main.create_app" in (refused.value.hint or "")


def test_an_application_set_up_under_a_condition_or_a_with_block(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        {
            "app/main.py": """\
                import contextlib
                import os

                from aiohttp import web

                async def debug(request):
                    raise web.HTTPServiceUnavailable(text="Debugging is off")

                async def ready(request):
                    return web.Response(text="ready")

                def setup(app):
                    with contextlib.suppress(KeyError):
                        app.router.add_get("/ready", ready)
                    if os.environ.get("DEBUG"):
                        app.router.add_get("/debug", debug)

                if __name__ == "__main__":
                    app = web.Application()
                    setup(app)
                    web.run_app(app)
                """
        },
    )
    assert errors_by_operation(found) == {
        ("get", "/debug"): [(503, "Debugging is off", "")],
        ("get", "/ready"): [],
    }


def test_a_server_class_that_builds_its_application_on_self(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        {
            "app/main.py": """\
                from aiohttp import web
                from aiohttp.web import HTTPForbidden

                class Server:
                    def __init__(self, token):
                        self.token = token
                        self.web_app = web.Application()
                        self.web_app.router.add_get("/", self.index)
                        self.web_app.router.add_get("", self.index)
                        self.web_app.router.add_get("/stats", self.stats)

                    async def check(self, request):
                        if request.headers.get("Authorization") != self.token:
                            raise HTTPForbidden()

                    async def index(self, request):
                        return web.json_response({"message": "Welcome"})

                    async def stats(self, request):
                        await self.check(request)
                        return web.json_response({})
                """
        },
    )
    assert errors_by_operation(found) == {
        ("get", "/"): [],
        ("get", "/stats"): [(403, "403: Forbidden", "")],
    }
    [stats] = [o for o in found.operations if o.path == "/stats"]
    assert stats.errors[0][1] == ("app.main.Server.stats", "app.main.Server.check")


def test_bodies_sent_as_text_and_as_json_have_their_media_types_in_the_fragment(tmp_path: Path) -> None:
    from openapi_spec_validator import validate

    from docgen.shell.cli import main

    catalog(
        tmp_path,
        {
            "app/main.py": """\
                import json

                from aiohttp import web

                async def item(request):
                    if request.match_info["id"] == "0":
                        raise web.HTTPNotFound()
                    if request.match_info["id"] == "-1":
                        raise web.HTTPBadRequest(
                            text=json.dumps({"error": "Ids are positive"}), content_type="application/json"
                        )
                    return web.json_response({"error": "No such item"}, status=404)

                app = web.Application()
                app.router.add_get("/items/{id}", item)
                """
        },
    )
    assert main(["--config", str(tmp_path / "mkdocs.yml"), "extract"]) == 0
    fragment = json.loads((tmp_path / "data" / "api.openapi.json").read_text(encoding="utf-8"))
    responses = fragment["paths"]["/items/{id}"]["get"]["responses"]
    json_text = responses["400"]["content"]["application/json"]["examples"]["400-ids-are-positive"]["value"]
    assert json_text == {"error": "Ids are positive"}  # `text=json.dumps({...})`: a JSON body
    content = responses["404"]["content"]
    assert {media: [e["value"] for e in c["examples"].values()] for media, c in content.items()} == {
        "text/plain": ["404: Not Found"],
        "application/json": [{"error": "No such item"}],
    }
    assert content["text/plain"]["schema"] == {"type": "string"}
    validate(fragment)


def test_routes_added_to_a_resource(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        {
            "app/main.py": """\
                from aiohttp import web

                async def read(request):
                    raise web.HTTPNotFound(text="No such page")

                async def write(request):
                    raise web.HTTPForbidden()

                async def feed(request):
                    raise web.HTTPGone()

                def init():
                    app = web.Application()
                    page = app.router.add_resource("/pages/{slug}", name="page")
                    page.add_route("GET", read)
                    page.add_route("PUT", write)
                    app.router.add_resource("/feed").add_route("GET", feed)
                    return app
                """
        },
    )
    assert errors_by_operation(found) == {
        ("get", "/feed"): [(410, "410: Gone", "")],
        ("get", "/pages/{slug}"): [(404, "No such page", "")],
        ("put", "/pages/{slug}"): [(403, "403: Forbidden", "")],
    }


def test_the_framework_is_found_from_the_imports_when_the_catalog_names_none(tmp_path: Path) -> None:
    files = {
        "app/__init__.py": "",
        "app/main.py": """\
            from aiohttp import web

            async def gone(request):
                raise web.HTTPGone()

            app = web.Application()
            app.router.add_get("/old", gone)
            """,
        "mkdocs.yml": MKDOCS.format(source="app/main.py").replace("              framework: aiohttp\n", ""),
    }
    make_files(tmp_path, files)
    assert "framework" not in (tmp_path / "mkdocs.yml").read_text(encoding="utf-8")
    found = run_extract_in_memory(tmp_path).catalogs["api"]
    assert isinstance(found, RoutesCatalog)
    assert (found.framework, [(e.status, e.detail) for e in found.errors]) == (
        "aiohttp",
        [(410, "410: Gone")],
    )
